package rtchmcp

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
)

// syncBuffer is a stderr the test reads while the server writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// --http serves the streamable HTTP transport on loopback; an interrupt ends
// it with the interrupt's code.
func TestStreamableHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan cli.Result, 1)
	go func() {
		done <- cli.Exec(ctx, Tool(), cli.Invocation{Args: []string{"--root", repo(t), "--http", "127.0.0.1:0"}, Stdout: &bytes.Buffer{}, Stderr: &stderr})
	}()
	addr := regexp.MustCompile(`rtch-mcp: serving (http://127\.0\.0\.1:[0-9]+/mcp)`)
	var url string
	for deadline := time.Now().Add(30 * time.Second); url == ""; time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no address announced: %q", stderr.String())
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rtch_reenter", Arguments: map[string]any{"range": "stream/writer.go:L3-L4"}})
	if err != nil || res.IsError || !strings.Contains(textOf(res), "func WriteLine(s string) string") {
		t.Fatalf("over HTTP: %v %s", err, textOf(res))
	}
	cs.Close()
	cancel()
	if r := <-done; r.Code != cli.ExitInterrupted {
		t.Fatalf("exit %d after the interrupt: %s", r.Code, stderr.String())
	}
}

func TestHTTPIsLoopbackUnlessAllowed(t *testing.T) {
	var stderr bytes.Buffer
	r := cli.Exec(context.Background(), Tool(), cli.Invocation{Args: []string{"--root", repo(t), "--http", "0.0.0.0:0"}, Stdout: &bytes.Buffer{}, Stderr: &stderr})
	if r.Code != cli.ExitUsage || !strings.Contains(stderr.String(), "rtch-mcp: error: --http 0.0.0.0:0: not a loopback address") || !strings.Contains(stderr.String(), "--allow-remote") {
		t.Fatalf("exit %d: %s", r.Code, stderr.String())
	}
}
