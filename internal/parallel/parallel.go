// Package parallel runs independent pieces of one job on several cores.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls f(w, i) once for every i in [0, n), on up to workers goroutines at once (workers <= 0 means one a
// CPU; never more than n), and returns when every call has returned. w, in [0, workers), names the goroutine
// making the call, so that state that is not safe for concurrent use can be kept one a goroutine. Pieces are
// handed out in increasing order as goroutines free up, so uneven pieces still keep every goroutine busy. f
// usually writes its result to the i-th place of a slice the caller made.
func Each(n, workers int, f func(w, i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(w, i)
			}
		}()
	}
	wg.Wait()
}
