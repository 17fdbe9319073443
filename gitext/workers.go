package gitext

import (
	"runtime"
	"sync"
)

// onWorkers runs work on each job on one goroutine per CPU and hands every result to use on the caller's
// goroutine, in the order the results come (not the jobs' order): the walks inflate commits on every core while
// their visitor, which is not safe for concurrent use, sees them one at a time. buffer is how many jobs and
// results may wait in each channel. The first error use returns stops the feeding and the workers and is
// returned; a worker in the middle of a job finishes it first.
func onWorkers[J, R any](jobs []J, buffer int, work func(J) R, use func(R) error) error {
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
