// Package parallel runs an index loop on every CPU.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is how many goroutines For and ForWorker run at most.
func Workers() int { return runtime.GOMAXPROCS(0) }

// For calls f(0) … f(n-1) on up to Workers() goroutines and returns when
// every call has; with one CPU (or n ≤ 1) it calls them in order on the
// caller's goroutine.
func For(n int, f func(i int)) {
	ForWorker(n, func(_, i int) { f(i) })
}

// ForWorker is For that also tells f which goroutine runs it (worker in
// [0, Workers())), so f can keep scratch state per goroutine.
func ForWorker(n int, f func(worker, i int)) { forUpTo(Workers(), n, f) }

// ForUpTo is For on up to workers goroutines (0: Workers()), for a caller
// that bounds its own parallelism.
func ForUpTo(workers, n int, f func(i int)) {
	if workers <= 0 {
		workers = Workers()
	}
	forUpTo(workers, n, func(_, i int) { f(i) })
}

func forUpTo(workers, n int, f func(worker, i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
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
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(w, i)
			}
		}()
	}
	wg.Wait()
}
