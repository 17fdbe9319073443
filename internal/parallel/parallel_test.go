package parallel

import (
	"errors"
	"sync/atomic"
	"testing"
)

func TestEachCallsEveryIndexOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ n, workers int }{{0, 0}, {1, 0}, {1, 4}, {7, 1}, {100, 0}, {100, 3}, {1000, 64}} {
		counts := make([]atomic.Int32, tc.n)
		var running, most atomic.Int32
		Each(tc.n, tc.workers, func(w, i int) {
			if w < 0 || (tc.workers > 0 && w >= tc.workers) {
				t.Errorf("n=%d workers=%d: goroutine %d", tc.n, tc.workers, w)
			}
			now := running.Add(1)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			counts[i].Add(1)
			running.Add(-1)
		})
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("n=%d workers=%d: f(%d) called %d times", tc.n, tc.workers, i, c)
			}
		}
		if tc.workers > 0 && int(most.Load()) > tc.workers {
			t.Errorf("n=%d workers=%d: %d calls at once", tc.n, tc.workers, most.Load())
		}
	}
}

func TestStreamUsesEveryResultOnOneGoroutine(t *testing.T) {
	t.Parallel()
	jobs := make([]int, 1000)
	for i := range jobs {
		jobs[i] = i
	}
	seen := make([]bool, len(jobs))
	var using atomic.Int32
	err := Stream(jobs, 8, func(j int) int { return j * 2 }, func(r int) error {
		if using.Add(1) != 1 {
			t.Error("use called concurrently")
		}
		defer using.Add(-1)
		if r%2 != 0 || seen[r/2] {
			t.Errorf("result %d: odd or seen twice", r)
		}
		seen[r/2] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("job %d: no result used", i)
		}
	}
}

func TestStreamStopsAtUsesError(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	var worked atomic.Int32
	jobs := make([]int, 100000)
	used := 0
	err := Stream(jobs, 1, func(int) int { worked.Add(1); return 0 }, func(int) error {
		if used++; used == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || used != 3 {
		t.Fatalf("Stream = %v after %d uses, want the stop error after 3", err, used)
	}
	if n := worked.Load(); n == int32(len(jobs)) {
		t.Errorf("all %d jobs ran after use stopped at the third", n)
	}
}
