package index

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is how many goroutines Parallel runs.
func Workers() int { return runtime.GOMAXPROCS(0) }

// Parallel calls fn(worker, i) for every i in [0, n) on Workers()
// goroutines; worker (in [0, Workers())) lets fn keep scratch state per
// goroutine. Answering for files from the index is CPU work, spread like
// the reading it replaces.
func Parallel(n int, fn func(worker, i int)) {
	w := min(Workers(), max(n, 1))
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(k, i)
			}
		}()
	}
	wg.Wait()
}
