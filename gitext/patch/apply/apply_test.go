package apply

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// history commits, with the git CLI, one change of each kind a part can hold, and returns the commits oldest
// first.
func history(t *testing.T) (*gittest.Repo, []string) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := gittest.New(t)
	r.Git("config", "diff.renames", "copies")
	lines := func(n int, f string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, f+"\n", i)
		}
		return b.String()
	}
	rnd := rand.New(rand.NewSource(7))
	bin := make([]byte, 6000)
	rnd.Read(bin)
	bin[10] = 0
	body := lines(40, "line %d of a file that moves around")
	var commits []string
	commit := func(msg string) {
		r.Git("add", "-A")
		r.Git("commit", "-q", "-m", msg)
		commits = append(commits, r.Rev("HEAD"))
	}
	write := func(p string, data []byte) {
		t.Helper()
		full := filepath.Join(r.Dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rm := func(p string) { os.RemoveAll(filepath.Join(r.Dir, p)) }

	r.Write("a.txt", body)
	write("b.bin", bin)
	r.Write("sp ace.txt", lines(12, "spaced %d"))
	write("caf\xe9.txt", []byte("not UTF-8\n"))
	r.Write("noeol.txt", "one\ntwo")
	r.Write("script.sh", "echo hi\n")
	r.Write("d", "a file that becomes a folder\n")
	os.Symlink("a.txt", filepath.Join(r.Dir, "link"))
	commit("Root: every kind of file")

	r.Write("a.txt", strings.Replace(strings.Replace(body, "line 7 ", "line seven ", 1), "line 40 of", "the last line of", 1))
	r.Write("noeol.txt", "one\ntwo\nthree")
	os.Chmod(filepath.Join(r.Dir, "script.sh"), 0o755)
	rm("sp ace.txt")
	r.Write("dir/sp ace moved.txt", strings.Replace(lines(12, "spaced %d"), "spaced 5", "spaced five", 1))
	bin2 := append([]byte{}, bin...)
	copy(bin2[3000:], "a small change in the middle")
	write("b.bin", bin2)
	r.Write("empty.txt", "")
	commit("Edit, rename, chmod, binary delta, empty file")

	r.Write("a.txt", strings.Replace(body, "line 20 ", "line twenty ", 1))
	r.Write("a-copy.txt", strings.Replace(body, "line 30 ", "line thirty ", 1))
	other := make([]byte, 3000)
	rnd.Read(other)
	other[0] = 0
	write("b.bin", other)
	rm("noeol.txt")
	rm("link")
	r.Write("link", "now a regular file\n")
	rm("d")
	r.Write("d/x", "inside the folder\n")
	r.Write("script.sh", "echo hi\necho there\n")
	commit("Copy, binary literal, delete, symlink to file, file to folder")

	r.Git("update-index", "--add", "--cacheinfo", "160000,"+commits[0]+",sub")
	r.Git("commit", "-q", "-m", "A gitlink")
	commits = append(commits, r.Rev("HEAD"))
	r.Git("update-index", "--cacheinfo", "160000,"+commits[1]+",sub")
	r.Git("commit", "-q", "-m", "The gitlink moves")
	commits = append(commits, r.Rev("HEAD"))
	return r, commits
}

func open(t *testing.T, r *gittest.Repo) *gitext.Repo {
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// checkSeries applies every part of series to its commit's parent and returns the problems, by commit.
func checkSeries(t *testing.T, repo *gitext.Repo, series []byte) map[string][]string {
	t.Helper()
	parts, err := ParseSeries(series)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, p := range parts {
		if p.Err != nil {
			out[p.Commit] = append(out[p.Commit], p.Err.Error())
		}
		c, err := repo.ReadCommit(plumbing.NewHash(p.Commit), "test")
		if err != nil {
			t.Fatal(err)
		}
		var from plumbing.Hash
		if len(c.ParentHashes) > 0 {
			pc, err := repo.ReadCommit(c.ParentHashes[0], "test")
			if err != nil {
				t.Fatal(err)
			}
			from = pc.TreeHash
		}
		problems, unjudged, err := CheckTrees(repo.ReadObject, from, c.TreeHash, p.Files)
		if err != nil {
			t.Fatal(err)
		}
		out[p.Commit] = append(append(out[p.Commit], problems...), unjudged...)
	}
	if len(parts) == 0 {
		t.Fatal("no parts")
	}
	return out
}

// TestOursAndGitsApply: every part of our series, and of git format-patch's, turns its parent's tree into its
// commit's tree; the sections show each feature, so no case passes by not being there.
func TestOursAndGitsApply(t *testing.T) {
	r, commits := history(t)
	repo := open(t, r)
	var ours bytes.Buffer
	hashes := make([]plumbing.Hash, len(commits))
	for i, c := range commits {
		hashes[i] = plumbing.NewHash(c)
	}
	if err := patch.WriteSeries(&ours, repo, hashes); err != nil {
		t.Fatal(err)
	}
	theirs := r.Git("format-patch", "--full-index", "--binary", "--stdout", "--root", "HEAD") + "\n"
	for name, series := range map[string][]byte{"ours": ours.Bytes(), "git's": []byte(theirs)} {
		for _, want := range []string{"rename from sp ace.txt", "copy to a-copy.txt", "\ndelta ", "\nliteral ",
			"new mode 100755", "\\ No newline at end of file", `"a/caf\351.txt"`, "deleted file mode 120000",
			"new file mode 160000", "-Subproject commit", "new file mode 100644\nindex 0000000000000000000000000000000000000000..e69de29"} {
			if !bytes.Contains(series, []byte(want)) {
				t.Errorf("%s series lacks %q: the test does not exercise it", name, want)
			}
		}
		got := checkSeries(t, repo, series)
		if len(got) != len(commits) {
			t.Errorf("%s series: %d parts, want %d", name, len(got), len(commits))
		}
		for _, c := range commits {
			if len(got[c]) > 0 {
				t.Errorf("%s part for %s does not reproduce the commit:\n  %s", name, c[:12], strings.Join(got[c], "\n  "))
			}
		}
	}
}

// TestEditedPartIsCaught: one byte changed in a hunk, in the binary data, or in an index line, and the part no
// longer reproduces its commit; git apply --check agrees wherever git checks it.
func TestEditedPartIsCaught(t *testing.T) {
	r, commits := history(t)
	repo := open(t, r)
	series := []byte(r.Git("format-patch", "--full-index", "--binary", "--stdout", "-1", commits[1]) + "\n")
	if got := checkSeries(t, repo, series); len(got[commits[1]]) > 0 || !gitApplies(t, r, commits[1], series) {
		t.Fatalf("the unedited part does not apply: %v", got)
	}
	for _, c := range []struct {
		name, old, new string
		gitCatches     bool
	}{
		{"a context line", " line 6 of a file", " line 6 of a fila", true},
		{"an added line", "+line seven of", "+line sevex of", false},
		{"a removed line", "-line 7 of", "-line 8 of", true},
		{"the new mode", "new mode 100755", "new mode 100644", false},
		{"a hunk header", "@@ -4,7 +4,7 @@", "@@ -5,7 +5,7 @@", false}, // git apply finds the hunk one line off
		// git apply takes the postimage from the object store when it has the blob the index line names.
		{"binary delta data", "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.old == "" { // one base85 character of the delta's first line
				at := bytes.Index(series, []byte("\ndelta ")) + 1
				at += bytes.IndexByte(series[at:], '\n') + 10
				c.old, c.new = string(series[at-8:at+1]), string(series[at-8:at])+map[bool]string{true: "1", false: "0"}[series[at] == '0']
			}
			if !bytes.Contains(series, []byte(c.old)) {
				t.Fatalf("the part has no %q", c.old)
			}
			edited := bytes.Replace(series, []byte(c.old), []byte(c.new), 1)
			if got := checkSeries(t, repo, edited); len(got[commits[1]]) == 0 {
				t.Errorf("the edit is not caught")
			} else {
				t.Logf("caught: %s", strings.Join(got[commits[1]], "; "))
			}
			if c.gitCatches && gitApplies(t, r, commits[1], edited) {
				t.Errorf("git apply --check accepts the edited part, so the edit is not the one meant")
			}
		})
	}
}

// gitApplies says whether `git apply --cached --check` accepts series on the commit's parent, in an index of
// its own.
func gitApplies(t *testing.T, r *gittest.Repo, commit string, series []byte) bool {
	index := filepath.Join(t.TempDir(), "index")
	env := append(append([]string{}, r.Env...), "GIT_INDEX_FILE="+index)
	run := func(stdin []byte, args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, env, bytes.NewReader(stdin)
		return cmd.Run()
	}
	if err := run(nil, "read-tree", commit+"^"); err != nil {
		t.Fatal(err)
	}
	return run(series, "apply", "--cached", "--check") == nil
}
