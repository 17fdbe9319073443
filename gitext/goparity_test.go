package gitext

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// gitext reads commits, tags, refs and the remotes of the config file itself where it read them through go-git:
// these tests hold each reader to go-git's answer on the same input, odd inputs included.

func TestDecodeCommitAsGoGit(t *testing.T) {
	t.Parallel()
	tree, p1, p2 := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	sig := " A U Thor <a@example.com> 1700000000 +0130\n"
	for _, raw := range []string{
		"tree " + tree + "\nparent " + p1 + "\nparent " + p2 + "\nauthor" + sig + "committer" + sig +
			"\nSubject\n\nBody\n",
		"tree " + tree + "\nauthor" + sig + "committer C <c@x> 1700000001 -0800\nencoding ISO-8859-1\n" +
			"gpgsig -----BEGIN\n  more\n \n -----END\n\nmsg",
		"tree " + tree + "\nparent " + p1 + "\nmergetag object " + p2 + "\n type commit\nauthor" + sig +
			"committer" + sig + "\nm\n",
		"tree " + tree + "\ncommitter" + sig + "author" + sig + "\nswapped\n",
		"tree " + tree + "\nauthor <no name@x> 12 +0000\ncommitter Bad Zone <b@x> 12 +01\n\n",
		"tree " + tree + "\nauthor Name <e> notatime +0000\ncommitter Name e 1 +0000\n\n\n\nleading blank lines\n",
		"tree " + tree + "\nparent " + p1 + "\nauthor" + sig + "committer" + sig + "parent " + p2 + "\n\nlate parent\n",
		"tree " + tree, "tree " + tree + "\n", "tree " + tree + "\nparent " + p1, "", "\n", "x", "tree abc\n",
		"parent " + p1 + "\ntree " + tree + "\n", "tree " + tree + "\nparent zz\n", "tree " + strings.ToUpper(tree) + "\n\nm",
		"tree " + tree + "\r\nauthor" + sig + "\r\n\r\nCRLF\r\n",
		"tree " + tree + "\nauthor" + sig + "committer" + sig + "\n",
	} {
		h := plumbing.NewHash(strings.Repeat("d", 40))
		got, err := decodeCommit(h, []byte(raw))
		obj := &plumbing.MemoryObject{}
		obj.SetType(plumbing.CommitObject)
		obj.Write([]byte(raw))
		want, werr := object.DecodeCommit(nil, obj)
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Errorf("%q: error %v, go-git %v", raw, err, werr)
			continue
		}
		if err != nil {
			continue
		}
		show := func(s Signature) string { return fmt.Sprintf("%q %q %s", s.Name, s.Email, s.When.Format(whenLayout)) }
		ours := func(s object.Signature) Signature { return Signature{s.Name, s.Email, s.When} }
		gotS := fmt.Sprint(got.TreeHash, got.ParentHashes, show(got.Author), show(got.Committer),
			fmt.Sprintf("%q", got.Message))
		wantS := fmt.Sprint(want.TreeHash, want.ParentHashes, show(ours(want.Author)), show(ours(want.Committer)),
			fmt.Sprintf("%q", want.Message))
		if gotS != wantS {
			t.Errorf("%q:\n got %s\nwant %s", raw, gotS, wantS)
		}
	}
}

// whenLayout is the layout the commit test compares times in: to the second, with the zone's name and offset.
const whenLayout = "2006-01-02 15:04:05 MST -0700"

func TestTagTargetAsGoGit(t *testing.T) {
	t.Parallel()
	id := strings.Repeat("e", 40)
	for _, raw := range []string{
		"object " + id + "\ntype commit\ntag v1\ntagger T <t@x> 1 +0000\n\nmsg\n", "object " + id + "\ntype commit\ntag v1",
		"object " + id, "object " + id + "\n", "object " + id + "\ntype blob\n", "object " + id + "\ntype nonsense\ntag x\n",
		"object " + id + "\ntag x\n", "type commit\nobject " + id + "\n", "object xyz\ntype commit\ntag x\n", "", "\n",
		"object " + strings.ToUpper(id) + "\r\ntype commit\ntag x\n", "object " + id + "\ntype commit\n\n",
	} {
		got, err := tagTarget([]byte(raw))
		obj := &plumbing.MemoryObject{}
		obj.SetType(plumbing.TagObject)
		obj.Write([]byte(raw))
		want, werr := object.DecodeTag(nil, obj)
		switch {
		case fmt.Sprint(err) != fmt.Sprint(werr):
			t.Errorf("%q: error %v, go-git %v", raw, err, werr)
		case err == nil && got != want.Target:
			t.Errorf("%q: target %s, go-git %s", raw, got, want.Target)
		}
	}
}

func TestRefsAsGoGit(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	g.Commit("one", map[string]string{"a": "1"})
	g.Git("branch", "packed")
	g.Git("tag", "-a", "-m", "t", "v1")
	g.Git("update-ref", "refs/remotes/origin/main", "HEAD")
	g.Git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	g.Git("pack-refs", "--all")
	g.Commit("two", map[string]string{"a": "2"})
	g.Git("branch", "loose")
	g.Git("branch", "-f", "packed", "HEAD") // loose over packed
	g.Git("symbolic-ref", "refs/heads/chain", "refs/remotes/origin/HEAD")
	g.Git("worktree", "add", "-q", filepath.Join(t.TempDir(), "wt"), "packed")
	if err := os.MkdirAll(filepath.Join(g.Dir, ".git", "refs", "heads", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.Dir, ".git", "refs", "heads", "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	names := []RefName{"HEAD", "refs/heads/main", "refs/heads/packed", "refs/heads/loose", "refs/heads/chain",
		"refs/remotes/origin/HEAD", "refs/tags/v1", "refs/heads/dir", "refs/heads/empty", "refs/heads/none",
		"refs/heads/../../config", "ORIG_HEAD", "refs/bisect"}
	worktrees, _ := os.ReadDir(filepath.Join(g.Dir, ".git", "worktrees"))
	gitDirs := []string{filepath.Join(g.Dir, ".git")}
	for _, w := range worktrees {
		gitDirs = append(gitDirs, filepath.Join(g.Dir, ".git", "worktrees", w.Name()))
	}
	for _, gitDir := range gitDirs {
		r, err := open(gitDir, "")
		if err != nil {
			t.Fatal(err)
		}
		fs := dotgit.NewRepositoryFilesystem(osfs.New(gitDir), osfs.New(r.CommonDir))
		st := filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
		for _, name := range names {
			show := func(ref *plumbing.Reference, err error) string {
				if err != nil {
					return "error: " + fmt.Sprint(errors.Is(err, plumbing.ErrReferenceNotFound))
				}
				return ref.String()
			}
			if got, want := show(r.reference(name)), show(st.Reference(name)); got != want {
				t.Errorf("%s: reference(%s) = %s, go-git %s", gitDir, name, got, want)
			}
			if got, want := show(r.resolveRef(name)), show(storer.ResolveReference(st, name)); got != want {
				t.Errorf("%s: resolveRef(%s) = %s, go-git %s", gitDir, name, got, want)
			}
		}
	}
}

func TestRemotesAsGoGit(t *testing.T) {
	t.Parallel()
	for _, cfg := range []string{
		"", "[core]\n\tbare = false\n", "[remote \"origin\"]\n\turl = x\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
		"[remote \"a\"]\n[Remote \"b\"]\nurl=1\n[remote \"B\"]\n", "[remote \"bad\"]\nfetch = nocolon\n",
		"[remote \"bad\"]\nfetch = +refs/*/*:refs/x/*\n", "[remote \"w\"]\nfetch = +refs/*/*:refs/*/*\n",
		"[remote \"o\"]\nfetch = a:\n", "[pack]\nwindow = many\n",
		"[pack]\nwindow = 10\n[remote \"o\"]\n", "[branch \"main\"]\nmerge = refs/tags/x\n",
		"[branch \"main\"]\nrebase = merges\n",
		"[branch \"main\"]\nremote = origin\nmerge = refs/heads/main\nrebase = interactive\n[remote \"origin\"]\n",
		"[branch \"bad..name\"]\n", "[url \"x\"]\ninsteadOf = y\n[remote \"r\"]\n", "[remote\n",
	} {
		dir := t.TempDir()
		for _, d := range []string{"objects", "refs"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "config"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		r := &Repo{GitDir: dir, CommonDir: dir}
		got, err := r.Remotes()
		c, werr := filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRUDefault()).Config()
		var want []string
		if werr == nil {
			for name := range c.Remotes {
				want = append(want, name)
			}
		}
		sort.Strings(want)
		if (err == nil) != (werr == nil) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: Remotes() = %v, %v; go-git %v, %v", cfg, got, err, want, werr)
		}
	}
}
