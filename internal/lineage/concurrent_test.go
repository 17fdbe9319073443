package lineage

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
)

// checkWriters verifies a store written by several writers at once: every record present, every chain intact,
// and each writer's records in its own order.
func checkWriters(t *testing.T, s *Store, writers, n int) {
	t.Helper()
	res := s.Verify(VerifyOptions{})
	if !res.OK || res.ParentCount != writers*n || res.ChildCount != 2*writers*n {
		t.Fatalf("verify after concurrent appends: ok=%v %d parent %d child, failures %v", res.OK, res.ParentCount, res.ChildCount, res.Messages())
	}
	for w := 0; w < writers; w++ {
		tl, err := s.Replay(fmt.Sprintf("task-%d", w))
		if err != nil {
			t.Fatal(err)
		}
		if len(tl) != n {
			t.Fatalf("task-%d has %d refs, want %d", w, len(tl), n)
		}
		for i, e := range tl {
			if e.Parent.ChildRunID != "run-"+strconv.Itoa(i) || len(e.Bodies) != 2 || e.Bodies[1].Seq != 1 {
				t.Fatalf("task-%d ref %d: %+v", w, i, e)
			}
		}
	}
}

// Several processes append to one store at once; only flock keeps the chains whole.
func TestConcurrentProcesses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	const writers, n = 4, 15
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s task-%d %d", writerEnv, root, w, n))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[w] = fmt.Errorf("writer %d: %v: %s", w, err, out)
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkWriters(t, Open(root, PublicKey()), writers, n)
}

// Goroutines with their own Store values contend through separate open file descriptions, as processes do.
func TestConcurrentGoroutines(t *testing.T) {
	root := t.TempDir()
	const writers, n = 4, 10
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if code := runWriter(fmt.Sprintf("%s task-%d %d", root, w, n)); code != 0 {
				t.Errorf("writer %d exited %d", w, code)
			}
		}(w)
	}
	wg.Wait()
	checkWriters(t, Open(root, PublicKey()), writers, n)
}
