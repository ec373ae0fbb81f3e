package main

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// arrivals reads a server's stdout as fast as it comes and hands it to the
// client from a buffer, noting when each line ended: the time a reply's
// last byte arrived, apart from the time the client then takes to decode
// it (the SDK's decoder reads as it parses).
type arrivals struct {
	mu     sync.Mutex
	more   *sync.Cond
	buf    []byte
	err    error
	lineAt time.Time // when the last line ended
}

func newArrivals(r io.Reader) *arrivals {
	a := &arrivals{}
	a.more = sync.NewCond(&a.mu)
	go a.copy(r)
	return a
}

func (a *arrivals) copy(r io.Reader) {
	p := make([]byte, 1<<16)
	for {
		n, err := r.Read(p)
		now := time.Now()
		a.mu.Lock()
		a.buf = append(a.buf, p[:n]...)
		if bytes.IndexByte(p[:n], '\n') >= 0 {
			a.lineAt = now
		}
		if err != nil {
			a.err = err
		}
		a.more.Broadcast()
		a.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// Read gives what has arrived, waiting for something when nothing has.
func (a *arrivals) Read(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for len(a.buf) == 0 && a.err == nil {
		a.more.Wait()
	}
	if len(a.buf) == 0 {
		return 0, a.err
	}
	n := copy(p, a.buf)
	a.buf = a.buf[n:]
	return n, nil
}

// Close does nothing: the connection ends by closing the server's stdin.
func (a *arrivals) Close() error { return nil }

// lastLine is when the last complete line arrived.
func (a *arrivals) lastLine() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lineAt
}
