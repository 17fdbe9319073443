package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// TestVerifyRepo holds a signed bundle's git section against clones: one that matches, one that lacks a
// commit, one whose history was rewritten after the bundle was made, and bundles whose commits.json or
// diff.patch was edited and signed again, which only the repository check can catch.
func TestVerifyRepo(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Add the login form\n\nRefs: ENG-42", map[string]string{"login.html": "<form>\n  <input name=user>\n</form>\n", "README": "app\n"})
	early := filepath.Join(filepath.Dir(r.Dir), "early")
	r.Git("clone", "-q", r.Dir, early)
	r.Git("mv", "login.html", "signin.html")
	r.Commit("Rename and check the login form\n\nRefs: ENG-42", map[string]string{"signin.html": "<form>\n  <input name=user required>\n</form>\n"})
	full := filepath.Join(filepath.Dir(r.Dir), "full")
	r.Git("clone", "-q", r.Dir, full)
	key, card := filepath.Join(filepath.Dir(r.Dir), "alice.pem"), filepath.Join(filepath.Dir(r.Dir), "alice.card.json")
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", key, "--card", card); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	if out, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--no-pr", "--sign-key", key, "--sign-kid", "alice-2026", "--created-at", "2026-01-01T00:00:00Z"); c != 0 {
		t.Fatalf("bundle: %s %s", out, e)
	}
	archive := filepath.Join(r.Dir, "ENG-42.tar.gz")

	// Edited members, signed again with alice's key: the files, signature and trust checks all pass.
	edited := func(name, member, old, new string) string {
		t.Helper()
		out := filepath.Join(filepath.Dir(r.Dir), name)
		resign(t, archive, out, key, "alice-2026", member, old, new)
		if o, _, c := runIn(t, r.Dir, r.Env, "verify", out, "--card", card); c != 0 {
			t.Fatalf("%s does not verify without --repo: it must differ only where the repository check looks\n%s", name, o)
		}
		return out
	}
	editedPart := edited("part.tar.gz", "git/diff.patch", "+  <input name=user required>", "+  <input name=user requirex>")
	editedDetail := edited("detail.tar.gz", "git/commits.json", `"name": "Ada Author"`, `"name": "Eve Author"`)

	// The history rewritten after the bundle was made: the bundle's last commit is not in the new history.
	rewritten := filepath.Join(filepath.Dir(r.Dir), "rewritten")
	r.Git("clone", "-q", "--no-local", full, rewritten)
	rw := r.Open(rewritten)
	rw.Git("remote", "remove", "origin")
	rw.Git("commit", "-q", "--amend", "-m", "Rename and check the login form (reworded)\n\nRefs: ENG-42")
	rw.Git("reflog", "expire", "--expire=now", "--all")
	rw.Git("gc", "-q", "--prune=now")

	for _, tc := range []struct {
		name, dir, archive string
		args               []string
		code               int
		line               string // the repository check's line
		problem            string
	}{
		{"matching clone", full, archive, nil, 0,
			"[PASS] repository — 2 commits of git/commits.json found in ., each with the parents, author, committer and subject it lists; 2 parts of git/diff.patch applied in memory: each turns its parent's tree into its commit's tree", ""},
		{"matching clone named", r.Dir, archive, []string{"--repo=" + full}, 0, "[PASS] repository — 2 commits of git/commits.json found in " + full, ""},
		{"clone lacks a commit", early, archive, nil, 2,
			"[UNUSABLE] repository — 1 commit not in . (below), so the git section could not be checked in full; what is there matches (1 commit of git/commits.json found in ., 1 part applied). Fetch them, or give a clone that has them",
			": not in the repository"},
		{"rewritten history", rewritten, archive, nil, 2, "[UNUSABLE] repository — 1 commit not in .", ": not in the repository"},
		{"edited part", full, editedPart, nil, 1,
			"[FAIL] repository — the git section disagrees with . in 1 place (below): it is not what the repository holds; 2 commits of git/commits.json found in ., 0 commits not",
			": signin.html: the part makes it 100644 66be4a6decd8f98b10fcc9a492ff0396cc2c5134, the commit has 100644 9e758f5fbbbe47ce203b8319e8649f862779a4e9"},
		{"edited detail", full, editedDetail, nil, 1, "[FAIL] repository — the git section disagrees with . in 1 place",
			": git/commits.json says its author is Eve Author <ada@example.com> "},
		{"no repository", filepath.Dir(r.Dir), archive, []string{"--repo=nowhere"}, 2, "[UNUSABLE] repository — --repo needs a repository: ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"verify", tc.archive, "--card", card}, tc.args...)
			if tc.args == nil {
				args = append(args, "--repo")
			}
			out, errOut, code := runIn(t, tc.dir, r.Env, args...)
			if code != tc.code || !strings.Contains(out, "\n"+tc.line) || !strings.Contains(out, tc.problem) {
				t.Fatalf("exit %d, want %d and line %q with %q\n%s%s", code, tc.code, tc.line, tc.problem, out, errOut)
			}
			jout, _, jcode := runIn(t, tc.dir, r.Env, append(args, "--json")...)
			var rep verifyJSON
			if err := json.Unmarshal([]byte(jout), &rep); err != nil || jcode != code || rep.ExitCode != code {
				t.Fatalf("--json: exit %d, %v\n%s", jcode, err, jout)
			}
			last := rep.Checks[len(rep.Checks)-1]
			// An unusable check is "unusable", never "fail": scripts read "fail" as tampering (issue 25, 16).
			want := map[int]string{0: "pass", 1: "fail", 2: "unusable"}[code]
			if last.Check != "repository" || last.Status != want {
				t.Errorf("--json: last check %s %s, want repository %s", last.Check, last.Status, want)
			}
		})
	}
}

// resign copies the bundle at from to to with old replaced by new in member, the manifest's size and sha256 of
// it updated, written as bundle writes archives, and signed again with key as kid.
func resign(t *testing.T, from, to, key, kid, member, old, new string) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, am := range archiveMembers(t, raw) {
		data := am.data
		if am.hdr.Name == member {
			if !bytes.Contains(data, []byte(old)) {
				t.Fatalf("%s has no %q", member, old)
			}
			data = bytes.Replace(data, []byte(old), []byte(new), 1)
		}
		files = append(files, file{am.hdr.Name, data})
	}
	m, err := manifest.Parse(files[0].data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Files {
		for _, fl := range files {
			if fl.name == m.Files[i].Arcname {
				sum := sha256.Sum256(fl.data)
				m.Files[i].SHA256, m.Files[i].SizeBytes = hex.EncodeToString(sum[:]), int64(len(fl.data))
			}
		}
	}
	if files[0].data, err = json.MarshalIndent(m, "", "  "); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	for _, fl := range files {
		if err := tw.WriteHeader(&tar.Header{Name: fl.name, Mode: 0o644, Size: int64(len(fl.data)), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}); err != nil {
			t.Fatal(err)
		}
		tw.Write(fl.data)
	}
	tw.Close()
	zw.Close()
	if err := os.WriteFile(to, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	signManifest(t, to, key, kid, files[0].data)
}
