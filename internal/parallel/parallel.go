// Package parallel runs independent pieces of one job on several cores: the one worker pool of the module
// (Each, when every piece writes its own result; Stream, when one goroutine must use the results as they come).
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

// Stream runs work on each job on one goroutine per CPU and hands every result to use on the caller's
// goroutine, in the order the results come (not the jobs' order): gitext's history walks inflate commits on
// every core while their visitor, which is not safe for concurrent use, sees them one at a time. buffer is how
// many jobs and results may wait in each channel. The first error use returns stops the feeding and the workers and is
// returned; a worker in the middle of a job finishes it first.
func Stream[J, R any](jobs []J, buffer int, work func(J) R, use func(R) error) error {
	in := make(chan J, buffer)
	out := make(chan R, buffer)
	done := make(chan struct{})
	defer close(done)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range in {
				select {
				case out <- work(j):
				case <-done:
					return
				}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case in <- j:
			case <-done:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	for r := range out {
		if err := use(r); err != nil {
			return err
		}
	}
	return nil
}
