package odb

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// A window of fresh blocks drops the pages once, counting a block touched twice once.
func TestResidentDropsOnceAWindow(t *testing.T) {
	drops := 0
	r := &resident{window: residentWindow / faultBlock}
	s := newBlockSet(1 << 30)
	r.drop = func() {
		drops++
		r.fresh.Store(0)
		s.reset()
	}
	blocks := residentWindow / faultBlock
	for b := range blocks {
		r.touch(s, b*faultBlock, b*faultBlock+100)
		r.touch(s, b*faultBlock+200, b*faultBlock+300) // the same block again
	}
	if drops != 0 {
		t.Fatalf("%d drops after a window of blocks, want 0", drops)
	}
	r.touch(s, blocks*faultBlock-10, blocks*faultBlock+10) // one old block, one new: past the window
	if drops != 1 {
		t.Fatalf("%d drops past the window, want 1", drops)
	}
	r.touch(s, 0, 1) // forgotten at the drop: fresh again
	if got := r.fresh.Load(); got != 1 {
		t.Fatalf("fresh = %d after a drop and one block, want 1", got)
	}
}

// Reads that drop the packs' pages all the time, on several goroutines at once, read what reads that never drop
// them read: a dropped page comes back from the file.
func TestReadsWhileDropping(t *testing.T) {
	r := gittest.New(t)
	for i := range 40 {
		r.Commit(fmt.Sprintf("Commit %d", i), map[string]string{
			"f":                     strings.Repeat(fmt.Sprintf("line %d\n", i), 2000+i),
			fmt.Sprintf("g%d", i%5): fmt.Sprint(i),
		})
	}
	r.Git("gc", "-q")
	dir := filepath.Join(r.Dir, ".git", "objects", "pack")
	none := func(plumbing.Hash) (plumbing.EncodedObject, error) { return nil, plumbing.ErrObjectNotFound }
	plain, err := OpenPacks(dir, none)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	dropping, err := OpenPacks(dir, none)
	if err != nil {
		t.Fatal(err)
	}
	defer dropping.Close()
	var drops sync.Mutex
	n := 0
	dropping.res.window = 0 // every read of a block not read since the last drop drops them all
	dropping.res.drop = func() {
		drops.Lock()
		n++
		drops.Unlock()
		dropping.dropPackPages()
	}
	ids := strings.Fields(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)"))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < len(ids); k += 4 {
				h := plumbing.NewHash(ids[k])
				wantType, want, err := plain.Object(h)
				if err != nil {
					t.Error(err)
					return
				}
				typ, got, err := dropping.Object(h)
				if err != nil || typ != wantType || !bytes.Equal(got, want) {
					t.Errorf("object %s: %v, %d bytes, want %d", h, err, len(got), len(want))
				}
			}
		}()
	}
	wg.Wait()
	if n == 0 {
		t.Error("the pages were never dropped: the test tested nothing")
	}
}
