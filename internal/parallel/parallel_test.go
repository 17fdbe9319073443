package parallel

import (
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
