package codegraph

import (
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// chunkLines is how many elements one encoding job holds.
const chunkLines = 1024

type chunk struct {
	b   []byte
	err error
}

// writeChunks writes the lines of elements 0…n-1, as enc appends them,
// to w in index order. Chunks of chunkLines elements are encoded by up to
// workers goroutines (0: GOMAXPROCS) while earlier chunks are written; at
// most two chunks per worker wait at any time, so the memory stays
// bounded. The bytes do not depend on workers.
func writeChunks(w io.Writer, n, workers int, enc func(b []byte, i int) ([]byte, error)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := (n + chunkLines - 1) / chunkLines
	if workers == 1 || chunks <= 1 {
		return writeSequential(w, n, enc)
	}
	results := make([]chan chunk, chunks)
	for i := range results {
		results[i] = make(chan chunk, 1)
	}
	window := make(chan struct{}, 2*workers)
	stop := make(chan struct{})
	defer close(stop)
	var next atomic.Int64
	var pool sync.Pool
	for range workers {
		go func() {
			for {
				select {
				case <-stop:
					return
				case window <- struct{}{}:
				}
				k := int(next.Add(1) - 1)
				if k >= chunks {
					return
				}
				var b []byte
				if p, ok := pool.Get().(*[]byte); ok {
					b = (*p)[:0]
				}
				b, err := encodeRange(b, k*chunkLines, min(n, (k+1)*chunkLines), enc)
				results[k] <- chunk{b, err}
			}
		}()
	}
	for k := range chunks {
		c := <-results[k]
		<-window
		if c.err != nil {
			return c.err
		}
		if _, err := w.Write(c.b); err != nil {
			return err
		}
		pool.Put(&c.b)
	}
	return nil
}

func encodeRange(b []byte, lo, hi int, enc func([]byte, int) ([]byte, error)) ([]byte, error) {
	var err error
	for i := lo; i < hi; i++ {
		if b, err = enc(b, i); err != nil {
			return b, err
		}
	}
	return b, nil
}

func writeSequential(w io.Writer, n int, enc func([]byte, int) ([]byte, error)) error {
	var b []byte
	for lo := 0; lo < n; lo += chunkLines {
		var err error
		if b, err = encodeRange(b[:0], lo, min(n, lo+chunkLines), enc); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// parallelRanges calls fn on consecutive ranges [lo, hi) covering 0…n-1,
// up to workers (0: GOMAXPROCS) at a time, and returns when all are done.
// fn must touch only what belongs to its range.
func parallelRanges(n, workers int, fn func(lo, hi int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers == 1 || n < 2*chunkLines {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += step {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, min(n, lo+step))
	}
	wg.Wait()
}
