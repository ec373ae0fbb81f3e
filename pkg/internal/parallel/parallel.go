// Package parallel runs an index loop on every CPU.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(0) … f(n-1) on up to GOMAXPROCS goroutines and returns when
// every call has; with one CPU (or n ≤ 1) it calls them in order on the
// caller's goroutine.
func For(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
