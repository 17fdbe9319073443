package objstore_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

const archivesRef = plumbing.ReferenceName("refs/bernstein/archives")

var sig = gitext.Signature{Name: "T", Email: "t@example.com", When: time.Unix(1767225600, 0).UTC()}

func openRepo(t *testing.T, g *gittest.Repo) *gitext.Repo {
	t.Helper()
	r, err := gitext.Discover(g.Dir, g.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func addFile(t *testing.T, r *gitext.Repo, path, content string) error {
	t.Helper()
	blob, err := objstore.Of(r).WriteBlob([]byte(content))
	if err != nil {
		t.Fatal(err)
	}
	_, err = objstore.Of(r).AddFiles(archivesRef, sig, "add\n", []objstore.TreeFile{{Path: path, Blob: blob}})
	return err
}

// Files are only added: the same file again changes nothing, another blob under a taken name is refused and
// leaves the ref where it was, and git itself reads the tree.
func TestAddFilesIsWriteOnce(t *testing.T) {
	g := gittest.New(t)
	r := openRepo(t, g)
	if err := addFile(t, r, "github/ENG-1/a.tar.gz", "one"); err != nil {
		t.Fatal(err)
	}
	before := g.Rev(string(archivesRef))
	if err := addFile(t, r, "github/ENG-1/a.tar.gz", "one"); err != nil {
		t.Fatal(err)
	}
	if after := g.Rev(string(archivesRef)); after != before {
		t.Fatalf("adding the same file again moved the ref %s -> %s", before, after)
	}
	err := addFile(t, r, "github/ENG-1/a.tar.gz", "two")
	if !errors.Is(err, objstore.ErrTreeConflict) {
		t.Fatalf("another blob under a taken name: %v, want ErrTreeConflict", err)
	}
	if after := g.Rev(string(archivesRef)); after != before {
		t.Fatal("a refused conflict moved the ref")
	}
	if err := addFile(t, r, "github/ENG-2/b.tar.gz", "two"); err != nil {
		t.Fatal(err)
	}
	if got := g.Git("ls-tree", "-r", "--name-only", string(archivesRef)); got != "github/ENG-1/a.tar.gz\ngithub/ENG-2/b.tar.gz" {
		t.Fatalf("tree:\n%s", got)
	}
	if got := g.Git("cat-file", "-p", string(archivesRef)+":github/ENG-1/a.tar.gz"); got != "one" {
		t.Fatalf("blob: %q", got)
	}
	g.Git("fsck", "--strict")
}

// Writers racing in one repository (goroutines, each with its own Repo as separate processes would have) all
// land: compare-and-swap under <ref>.lock, retried.
func TestAddFilesConcurrentWritersAllLand(t *testing.T) {
	g := gittest.New(t)
	const n = 12
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r, err := gitext.Discover(g.Dir, g.Getenv)
			if err != nil {
				errs <- err
				return
			}
			blob, err := objstore.Of(r).WriteBlob([]byte(fmt.Sprint(i)))
			if err == nil {
				_, err = objstore.Of(r).AddFiles(archivesRef, sig, "add\n", []objstore.TreeFile{{Path: fmt.Sprintf("t/T-%d/f", i), Blob: blob}})
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(g.Git("ls-tree", "-r", "--name-only", string(archivesRef)), "\n") + 1; got != n {
		t.Fatalf("%d files landed, want %d", got, n)
	}
}

// MergeRef: a union of both trees in a merge commit whose parents are both sides, a fast-forward when the ref
// is behind, nothing when the other commit is already in, and a conflict refused with the ref left alone.
func TestMergeRefUnion(t *testing.T) {
	g := gittest.New(t)
	r := openRepo(t, g)
	if err := addFile(t, r, "a/A-1/x", "x"); err != nil {
		t.Fatal(err)
	}
	base := g.Rev(string(archivesRef))
	if err := addFile(t, r, "a/A-2/y", "y"); err != nil {
		t.Fatal(err)
	}
	theirs := g.Rev(string(archivesRef))
	g.Git("update-ref", string(archivesRef), base)
	if err := addFile(t, r, "a/A-3/z", "z"); err != nil {
		t.Fatal(err)
	}
	ours := g.Rev(string(archivesRef))
	moved, err := objstore.Of(r).MergeRef(archivesRef, plumbing.NewHash(theirs), sig, "merge\n", objstore.Of(r).UnionTrees)
	if err != nil || !moved {
		t.Fatalf("merge: moved %v, %v", moved, err)
	}
	if got := g.Git("ls-tree", "-r", "--name-only", string(archivesRef)); got != "a/A-1/x\na/A-2/y\na/A-3/z" {
		t.Fatalf("union:\n%s", got)
	}
	if got := g.Git("rev-parse", string(archivesRef)+"^1", string(archivesRef)+"^2"); got != ours+"\n"+theirs {
		t.Fatalf("parents %s", got)
	}
	merged := g.Rev(string(archivesRef))
	if moved, err := objstore.Of(r).MergeRef(archivesRef, plumbing.NewHash(theirs), sig, "merge\n", objstore.Of(r).UnionTrees); err != nil || moved {
		t.Fatalf("merging what is already in: moved %v, %v", moved, err)
	}
	// Behind: a fast-forward, no new commit.
	g.Git("update-ref", string(archivesRef), base)
	if moved, err := objstore.Of(r).MergeRef(archivesRef, plumbing.NewHash(merged), sig, "merge\n", objstore.Of(r).UnionTrees); err != nil || !moved {
		t.Fatalf("fast-forward: moved %v, %v", moved, err)
	}
	if got := g.Rev(string(archivesRef)); got != merged {
		t.Fatalf("fast-forward went to %s, want %s", got, merged)
	}
	// A conflict: the same path, another blob.
	g.Git("update-ref", string(archivesRef), base)
	if err := addFile(t, r, "a/A-2/y", "not y"); err != nil {
		t.Fatal(err)
	}
	mine := g.Rev(string(archivesRef))
	_, err = objstore.Of(r).MergeRef(archivesRef, plumbing.NewHash(merged), sig, "merge\n", objstore.Of(r).UnionTrees)
	if !errors.Is(err, objstore.ErrTreeConflict) || !strings.Contains(err.Error(), "a/A-2/y") {
		t.Fatalf("conflict: %v", err)
	}
	if g.Rev(string(archivesRef)) != mine {
		t.Fatal("a refused merge moved the ref")
	}
}

// NotesMerge with a cat_sort_uniq combine makes what `git notes merge -s cat_sort_uniq` makes.
func TestNotesMergeAgreesWithGit(t *testing.T) {
	g := gittest.New(t)
	c1 := g.Commit("one", nil)
	c2 := g.Commit("two", nil)
	c3 := g.Commit("three", nil)
	g.Git("notes", "--ref=bernstein", "add", "-m", "b", c1)
	g.Git("notes", "--ref=bernstein", "add", "-m", "x", c2)
	g.Git("update-ref", "refs/notes/theirs", "refs/notes/bernstein")
	g.Git("notes", "--ref=bernstein", "append", "-m", "a", c1)
	g.Git("notes", "--ref=theirs", "append", "-m", "c", c1)
	g.Git("notes", "--ref=theirs", "add", "-m", "z", c3)
	g.Git("update-ref", "refs/notes/ours", "refs/notes/bernstein")

	r := openRepo(t, g)
	combine := func(a, b []byte) []byte {
		lines := map[string]bool{}
		for _, l := range strings.Split(string(a)+"\n"+string(b), "\n") {
			if l != "" {
				lines[l] = true
			}
		}
		var out []string
		for l := range lines {
			out = append(out, l)
		}
		slices.Sort(out)
		return []byte(strings.Join(out, "\n") + "\n")
	}
	moved, err := objstore.Of(r).MergeRef("refs/notes/bernstein", plumbing.NewHash(g.Rev("refs/notes/theirs")), sig, "merge\n", objstore.Of(r).NotesMerge(combine, 1<<20, 1000))
	if err != nil || !moved {
		t.Fatalf("moved %v, %v", moved, err)
	}
	g.Git("notes", "--ref=ours", "merge", "-q", "-s", "cat_sort_uniq", "refs/notes/theirs")
	for _, c := range []string{c1, c2, c3} {
		want := g.Git("notes", "--ref=ours", "show", c)
		if got := g.Git("notes", "--ref=bernstein", "show", c); got != want {
			t.Errorf("note on %s: %q, git made %q", c[:7], got, want)
		}
	}
}
