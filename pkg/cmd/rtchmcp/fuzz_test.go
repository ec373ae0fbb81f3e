package rtchmcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzStdio feeds arbitrary bytes to the server's stdio connection between
// the initialization and a call: the call must be answered, and the end of
// input must then end the session, each within a bound, without a panic.
// Run it with: go test ./pkg/cmd/rtchmcp -run '^$' -fuzz FuzzStdio
func FuzzStdio(f *testing.F) {
	for _, c := range malformedCases() {
		if len(c.line) <= 64<<10 {
			f.Add(c.line)
		}
	}
	f.Add([]byte(req(`"x"`, "tools/call", `{"name":"rtch_reenter","arguments":{"range":"stream/writer.go:L3-L4"}}`) + "\n"))
	f.Add([]byte(req("7", "tools/list", "") + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}` + "\n"))
	root, err := NewRoot(repo(f))
	if err != nil {
		f.Fatal(err)
	}
	srv, stop, err := NewServer(context.Background(), root, Hot{IndexDir: filepath.Join(f.TempDir(), "index"), NoWatch: true, Getenv: os.Getenv})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(stop)
	probe := []byte("\n" + req(`"fuzz-probe"`, "tools/call", `{"name":"rtch_reenter","arguments":{"range":"stream/writer.go:L3-L4"}}`) + "\n")
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzOne(t, srv, in, probe)
	})
}

// fuzzOne serves one session on pipes: the initialization, in, the probe,
// the end of input.
func fuzzOne(t *testing.T, srv *mcp.Server, in, probe []byte) {
	r, w := io.Pipe()
	out := &watchedBuffer{changed: make(chan struct{}, 1)}
	done := make(chan error, 1)
	o := stdioOptions{maxMessage: 1 << 10, eofWait: 10 * time.Second, warn: func(string) {}}
	go func() { done <- serveStdio(context.Background(), srv, r, out, o) }()
	go func() {
		for _, b := range [][]byte{[]byte(initializeLine + "\n"), in, probe} {
			if _, err := w.Write(b); err != nil {
				return
			}
		}
	}()
	answered := func() bool {
		return out.contains(`"id":"fuzz-probe","result"`) || out.contains(`"id":"fuzz-probe","error"`)
	}
	deadline := time.After(30 * time.Second)
	for !answered() {
		select {
		case err := <-done:
			t.Fatalf("the session ended before the probe was answered: %v\noutput:\n%.2000s", err, out.String())
		case <-deadline:
			t.Fatalf("the probe was not answered within 30 s\noutput:\n%.2000s", out.String())
		case <-out.changed:
		}
	}
	w.Close()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
			t.Fatalf("the session ended with %v", err)
		}
	case <-time.After(o.eofWait + stopGrace + 30*time.Second):
		t.Fatalf("still serving after the end of input")
	}
}

// watchedBuffer is the server's stdout, which the fuzzer watches.
type watchedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{}
}

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
	return w.b.Write(p)
}

func (w *watchedBuffer) contains(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Contains(w.b.Bytes(), []byte(s))
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
