package patch

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// commitStaged commits what the step staged and returns the new commit.
func commitStaged(r *gittest.Repo, msg string) string {
	r.T.Helper()
	r.Git("commit", "-q", "-m", msg)
	return r.Rev("HEAD")
}

func stageAll(r *gittest.Repo) { r.T.Helper(); r.Git("add", "-A") }

func writeFiles(r *gittest.Repo, files map[string]string) {
	r.T.Helper()
	for p, c := range files {
		r.Write(p, c)
	}
}

func chmod(r *gittest.Repo, path string, mode os.FileMode) {
	r.T.Helper()
	if err := os.Chmod(filepath.Join(r.Dir, path), mode); err != nil {
		r.T.Fatal(err)
	}
}

func symlink(r *gittest.Repo, target, path string) {
	r.T.Helper()
	p := filepath.Join(r.Dir, path)
	os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		r.T.Fatal(err)
	}
}

func remove(r *gittest.Repo, path string) {
	r.T.Helper()
	if err := os.RemoveAll(filepath.Join(r.Dir, path)); err != nil {
		r.T.Fatal(err)
	}
}

func numbered(n int, edit func(i int) string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(edit(i))
	}
	return b.String()
}

func plainLine(i int) string {
	return "line " + string(rune('0'+i%10)) + " of many " + strings.Repeat("x", i%7) + "\n"
}

func randomBytes(seed int64, n int) string {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return string(b)
}

// series renders commits with WriteSeries from a fresh go-git handle on r.
func series(t testing.TB, r *gittest.Repo, shas ...string) []byte {
	t.Helper()
	repo, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	hashes := make([]plumbing.Hash, len(shas))
	for i, s := range shas {
		hashes[i] = plumbing.NewHash(s)
	}
	var out bytes.Buffer
	if err := writeSeries(&out, repo, hashes); err != nil {
		t.Fatalf("WriteSeries: %v", err)
	}
	// gitext's pack reader must give the same bytes as go-git, from loose objects and from a (delta) pack.
	for _, stage := range []string{"loose", "packed"} {
		if stage == "packed" {
			r.Git("repack", "-adq")
		}
		fast, err := gitext.Discover(r.Dir, r.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteSeries(&got, fast, hashes); err != nil {
			t.Fatalf("WriteSeries with the pack reader (%s): %v", stage, err)
		}
		if !bytes.Equal(got.Bytes(), out.Bytes()) {
			t.Fatalf("WriteSeries with the pack reader (%s) differs from go-git's", stage)
		}
		// A bundle's series writes the part diffs its patch ids were taken from (every other one here, so
		// that kept and newly made parts mix): the same bytes.
		kept := NewDiffs()
		d := NewDiffer(fast)
		for i, h := range hashes {
			var part bytes.Buffer
			if err := d.WritePartDiff(&part, h); err != nil {
				t.Fatalf("WritePartDiff(%s): %v", h, err)
			}
			if i%2 == 0 && part.Len() > 0 {
				kept.Keep(h, part.Bytes())
			}
		}
		got.Reset()
		if err := WriteSeries(&got, fast, hashes, WithDiffs(kept)); err != nil {
			t.Fatalf("WriteSeries with kept diffs (%s): %v", stage, err)
		}
		if !bytes.Equal(got.Bytes(), out.Bytes()) {
			t.Fatalf("WriteSeries with kept part diffs (%s) differs from WriteSeries", stage)
		}
	}
	return out.Bytes()
}

func writePatch(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "diff.patch")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkoutParent gives a worktree holding only the first parent of commit (an empty repository for a root).
func checkoutParent(t *testing.T, r *gittest.Repo, commit string) *gittest.Repo {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "wt")
	if parent, err := r.GitErr("rev-parse", "-q", "--verify", commit+"^"); err == nil {
		r.Git("worktree", "add", "-q", "--detach", dir, parent)
	} else {
		r.Git("init", "-q", dir)
	}
	return r.Open(dir)
}

// TestApplyReproducesTree is the contract: for each kind of change, `git apply --index` of our part on a
// checkout of the parent gives the commit's tree id.
//
// It also holds our bytes against `git format-patch --full-index --binary` itself: equal but for the binary
// hunks (git may pick deltas and its zlib compresses differently), the "---" line and the signature.
func TestApplyReproducesTree(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	needGit(t)
	many := numbered(60, plainLine)
	cases := []struct {
		name   string
		before func(r *gittest.Repo) // nil: the change is a root commit
		change func(r *gittest.Repo)
		want   []string // substrings our part must hold, to prove the case exercises what it says
	}{
		{
			name:   "root commit",
			change: func(r *gittest.Repo) { writeFiles(r, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"}); stageAll(r) },
			want:   []string{"new file mode 100644", "@@ -0,0 +1 @@"},
		},
		{
			name:   "added",
			before: func(r *gittest.Repo) { r.Commit("base", map[string]string{"keep": "k\n"}) },
			change: func(r *gittest.Repo) {
				writeFiles(r, map[string]string{"new/file.txt": "one\ntwo\n", "empty": ""})
				stageAll(r)
			},
			want: []string{"--- /dev/null\n+++ b/new/file.txt\n@@ -0,0 +1,2 @@", "diff --git a/empty b/empty\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n"},
		},
		{
			name: "deleted",
			before: func(r *gittest.Repo) {
				r.Commit("base", map[string]string{"gone.txt": "x\ny\n", "keep": "k\n", "empty": ""})
			},
			change: func(r *gittest.Repo) { remove(r, "gone.txt"); remove(r, "empty"); stageAll(r) },
			want:   []string{"deleted file mode 100644", "@@ -1,2 +0,0 @@"},
		},
		{
			name:   "modified",
			before: func(r *gittest.Repo) { r.Commit("base", map[string]string{"f.txt": many}) },
			change: func(r *gittest.Repo) {
				writeFiles(r, map[string]string{"f.txt": numbered(62, func(i int) string {
					switch {
					case i == 1:
						return "first changed\n"
					case i == 10 || i == 14:
						return "close edits merge into one hunk\n"
					case i == 40:
						return ""
					}
					return plainLine(i)
				})})
				stageAll(r)
			},
			want: []string{"@@ -1,4 +1,4 @@\n-line 1", "index "},
		},
		{
			name:   "exact rename",
			before: func(r *gittest.Repo) { r.Commit("base", map[string]string{"old/name.txt": many, "other": "o\n"}) },
			change: func(r *gittest.Repo) { r.Git("mv", "old/name.txt", "new name.txt") },
			want:   []string{"similarity index 100%\nrename from old/name.txt\nrename to new name.txt\n"},
		},
		{
			name: "mode changes",
			before: func(r *gittest.Repo) {
				r.Commit("base", map[string]string{"run.sh": "echo\n", "tool": "t\n"})
				chmod(r, "tool", 0o755)
				stageAll(r)
				commitStaged(r, "exec")
			},
			change: func(r *gittest.Repo) {
				chmod(r, "run.sh", 0o755)
				chmod(r, "tool", 0o644)
				writeFiles(r, map[string]string{"tool": "t2\n"})
				chmod(r, "tool", 0o644)
				stageAll(r)
			},
			want: []string{"diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\ndiff", "old mode 100755\nnew mode 100644\nindex"},
		},
		{
			name: "symlinks",
			before: func(r *gittest.Repo) {
				r.Commit("base", map[string]string{"target": "t\n", "was-file": "f\n"})
				symlink(r, "target", "retarget")
				symlink(r, "target", "was-link")
				stageAll(r)
				commitStaged(r, "links")
			},
			change: func(r *gittest.Repo) {
				symlink(r, "elsewhere", "retarget")
				symlink(r, "target", "new-link")
				symlink(r, "target", "was-file")
				remove(r, "was-link")
				writeFiles(r, map[string]string{"was-link": "now a file\n"})
				stageAll(r)
			},
			want: []string{"new file mode 120000", "deleted file mode 100644", "index ", "-target\n\\ No newline at end of file\n+elsewhere\n\\ No newline at end of file\n"},
		},
		{
			name: "no final newline",
			before: func(r *gittest.Repo) {
				r.Commit("base", map[string]string{"a": "1\n2\n3", "b": "1\n2\n3\n", "c": "only"})
			},
			change: func(r *gittest.Repo) {
				writeFiles(r, map[string]string{"a": "1\n2\n3\n4\n", "b": "1\n2\n3", "c": "still none", "d": "new\nno end"})
				stageAll(r)
			},
			want: []string{"-3\n\\ No newline at end of file\n+3\n+4\n", "-3\n+3\n\\ No newline at end of file\n"},
		},
		{
			name:   "non-UTF-8 paths and contents",
			before: func(r *gittest.Repo) { r.Commit("base", map[string]string{"caf\xe9.txt": "caf\xe9\n", "plain": "p\n"}) },
			change: func(r *gittest.Repo) {
				writeFiles(r, map[string]string{"caf\xe9.txt": "caf\xe9 au lait\n", "tab\there \"q\" back\\slash": "x\n", "\xff\xfe dir/\x01ctl": "\xff\n", "sp ace/naïve.txt": "ünï\n"})
				r.Git("mv", "plain", "pl\xe4in")
				stageAll(r)
			},
			want: []string{`diff --git "a/caf\351.txt" "b/caf\351.txt"`, `"b/tab\there \"q\" back\\slash"`, `rename to "pl\344in"`, "+++ \"b/sp ace/na\\303\\257ve.txt\"\t\n"},
		},
		{
			name: "binary",
			before: func(r *gittest.Repo) {
				r.Commit("base", map[string]string{"img.bin": "\x00\x01\x02" + randomBytes(1, 5000), "gone.bin": "a\x00b", "text-then-bin": "text\n", "late-nul": strings.Repeat("a", 9000) + "\n"})
			},
			change: func(r *gittest.Repo) {
				writeFiles(r, map[string]string{
					"img.bin":       "\x00\x01\x03" + randomBytes(1, 5000),
					"new.bin":       randomBytes(2, 100_000) + "\x00",
					"text-then-bin": "text\x00\n",
					"tiny.bin":      "\x00",
					"late-nul":      strings.Repeat("a", 9000) + "\x00\n", // NUL past 8000 bytes: still text, as in git
				})
				remove(r, "gone.bin")
				stageAll(r)
			},
			want: []string{"GIT binary patch\nliteral 100001\n", "GIT binary patch\nliteral 0\n", "+" + strings.Repeat("a", 9000) + "\x00\n"},
		},
		{
			name: "submodule",
			before: func(r *gittest.Repo) {
				r.Commit("base", map[string]string{"f": "f\n"})
				r.Git("update-index", "--add", "--cacheinfo", "160000,"+r.Rev("HEAD")+",sub/old")
				r.Git("update-index", "--add", "--cacheinfo", "160000,"+r.Rev("HEAD")+",sub/moved")
				commitStaged(r, "subs")
			},
			change: func(r *gittest.Repo) {
				r.Git("update-index", "--add", "--cacheinfo", "160000,"+r.Rev("HEAD")+",sub/new")
				r.Git("update-index", "--cacheinfo", "160000,"+r.Rev("HEAD~1")+",sub/moved")
				r.Git("update-index", "--force-remove", "sub/old")
			},
			want: []string{"new file mode 160000", "+Subproject commit ", "deleted file mode 160000"},
		},
		{
			name:   "file becomes directory",
			before: func(r *gittest.Repo) { r.Commit("base", map[string]string{"a": "file\n", "b/c": "nested\n"}) },
			change: func(r *gittest.Repo) {
				remove(r, "a")
				remove(r, "b")
				writeFiles(r, map[string]string{"a/x": "now dir\n", "b": "now file\n"})
				stageAll(r)
			},
			want: []string{"diff --git a/a b/a\ndeleted file mode", "diff --git a/a/x b/a/x\nnew file mode"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := gittest.New(t)
			if tc.before != nil {
				tc.before(r)
			}
			tc.change(r)
			commit := commitStaged(r, "change: "+tc.name)
			out := series(t, r, commit)
			for _, s := range tc.want {
				if !bytes.Contains(out, []byte(s)) {
					t.Errorf("part lacks %q:\n%s", s, out)
				}
			}
			wt := checkoutParent(t, r, commit)
			if _, err := wt.GitErr("apply", "--index", writePatch(t, out)); err != nil {
				t.Fatalf("%v\npatch:\n%s", err, out)
			}
			assertLikeGit(t, r, commit, out)
			if got, want := wt.Git("write-tree"), r.Rev(commit+"^{tree}"); got != want {
				t.Fatalf("tree after apply = %s, want %s\npatch:\n%s", got, want, out)
			}
		})
	}
}
