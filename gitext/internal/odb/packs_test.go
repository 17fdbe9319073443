package odb

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// The pack reader must return exactly what git stores, for plain entries and for delta chains (an aggressive gc
// deltifies similar commits against each other), annotated tags included.
func TestPackReaderMatchesCatFile(t *testing.T) {
	r := gittest.New(t)
	pad := strings.Repeat("similar text so that git deltifies these commits ", 10)
	for i := 0; i < 30; i++ {
		r.Commit(fmt.Sprintf("Commit %d\n\n%s\nRefs: ENG-%d", i, pad, i), map[string]string{"f": fmt.Sprint(i)})
	}
	r.Git("tag", "-a", "-m", "release "+pad, "v1")
	r.Git("gc", "-q", "--aggressive")
	pr, err := OpenPacks(filepath.Join(r.Dir, ".git", "objects", "pack"), func(h plumbing.Hash) (plumbing.EncodedObject, error) {
		t.Errorf("object %s read through the fallback, not from the packs", h)
		return nil, plumbing.ErrObjectNotFound
	})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	deltas := 0
	for _, line := range strings.Split(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(deltabase)"), "\n") {
		f := strings.Fields(line)
		if f[1] != "commit" && f[1] != "tag" {
			continue
		}
		if f[2] != strings.Repeat("0", 40) {
			deltas++
		}
		typ, data, err := pr.RawObject(plumbing.NewHash(f[0]))
		if err != nil {
			t.Fatal(err)
		}
		if typ.String() != f[1] || string(data) != r.Git("cat-file", f[1], f[0])+"\n" {
			t.Errorf("%s %s differs from git cat-file", f[1], f[0])
		}
	}
	if deltas == 0 {
		t.Error("no deltified commit in the pack: the delta path went untested")
	}
}
