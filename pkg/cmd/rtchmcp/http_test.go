package rtchmcp

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
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
	url, stop := startHTTP(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rtch_reenter", Arguments: map[string]any{"range": "stream/writer.go:L3-L4"}})
	if err != nil || res.IsError || !strings.Contains(textOf(res), "func WriteLine(s string) string") {
		t.Fatalf("over HTTP: %v %s", err, textOf(res))
	}
	cs.Close()
	if r := stop(); r.Code != cli.ExitInterrupted {
		t.Fatalf("exit %d after the interrupt", r.Code)
	}
}

// startHTTP runs rtch-mcp --http on a free loopback port and returns its
// endpoint; stop interrupts it and returns its result.
func startHTTP(t *testing.T, args ...string) (url string, stop func() cli.Result) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan cli.Result, 1)
	args = append([]string{"--root", repo(t), "--http", "127.0.0.1:0", "--index", filepath.Join(t.TempDir(), "index")}, args...)
	go func() {
		done <- cli.Exec(ctx, Tool(), cli.Invocation{Args: args, Stdout: &bytes.Buffer{}, Stderr: &stderr})
	}()
	stopped := false
	stop = func() cli.Result {
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	addr := regexp.MustCompile(`rtch-mcp: serving (http://127\.0\.0\.1:[0-9]+/mcp)`)
	for deadline := time.Now().Add(30 * time.Second); url == ""; time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no address announced: %q", stderr.String())
		}
	}
	return url, stop
}

func TestHTTPIsLoopbackUnlessAllowed(t *testing.T) {
	var stderr bytes.Buffer
	r := cli.Exec(context.Background(), Tool(), cli.Invocation{Args: []string{"--root", repo(t), "--http", "0.0.0.0:0"}, Stdout: &bytes.Buffer{}, Stderr: &stderr})
	if r.Code != cli.ExitUsage || !strings.Contains(stderr.String(), "rtch-mcp: error: --http 0.0.0.0:0: not a loopback address") || !strings.Contains(stderr.String(), "--allow-remote") {
		t.Fatalf("exit %d: %s", r.Code, stderr.String())
	}
}

// A request a web page could make, through DNS rebinding (a foreign Host)
// or from another origin (a foreign Origin), is refused with 403; loopback
// origins and those named with --allow-origin are served.
func TestHTTPRefusesForeignHostsAndOrigins(t *testing.T) {
	url, _ := startHTTP(t, "--allow-origin", "https://app.example")
	port := url[strings.LastIndexByte(url, ':')+1 : strings.LastIndexByte(url, '/')]
	for _, c := range []struct {
		method, host, origin string
		want                 int
	}{
		{"POST", "", "", http.StatusOK},
		{"POST", "evil.example:" + port, "", http.StatusForbidden},
		{"POST", "", "http://evil.example", http.StatusForbidden},
		{"POST", "", "http://evil.example:" + port, http.StatusForbidden},
		{"POST", "", "null", http.StatusForbidden},
		{"POST", "", "file://", http.StatusForbidden},
		{"GET", "", "http://evil.example", http.StatusForbidden},
		{"DELETE", "", "http://evil.example", http.StatusForbidden},
		{"POST", "", "http://127.0.0.1:" + port, http.StatusOK},
		{"POST", "", "http://localhost:5173", http.StatusOK},
		{"POST", "", "http://[::1]:8080", http.StatusOK},
		{"POST", "", "https://app.example", http.StatusOK},
		{"POST", "", "https://APP.example/", http.StatusOK},
		{"POST", "", "https://app.example:8443", http.StatusForbidden},
		{"POST", "", "http://app.example", http.StatusForbidden},
		{"POST", "", "http://localhost.evil.example", http.StatusForbidden},
	} {
		req, _ := http.NewRequest(c.method, url, strings.NewReader(initializeLine))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.host != "" {
			req.Host = c.host
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// A GET or DELETE that passes the checks fails later (no session), never with 403.
		if got := resp.StatusCode; got != c.want && !(c.want == http.StatusOK && got != http.StatusForbidden && c.method != "POST") {
			t.Errorf("%s Host %q Origin %q: %d %s, want %d", c.method, c.host, c.origin, got, body, c.want)
		}
	}
}

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`

// --allow-origin takes an origin, nothing else.
func TestAllowOriginIsAnOrigin(t *testing.T) {
	for _, bad := range []string{"app.example", "https://app.example/path", "ftp://app.example", "null", "https://user@app.example"} {
		var stderr bytes.Buffer
		r := cli.Exec(context.Background(), Tool(), cli.Invocation{Args: []string{"--root", repo(t), "--http", "127.0.0.1:0", "--allow-origin", bad}, Stdout: &bytes.Buffer{}, Stderr: &stderr})
		if r.Code != cli.ExitUsage || !strings.Contains(stderr.String(), "is not an origin") {
			t.Errorf("--allow-origin %s: exit %d: %s", bad, r.Code, stderr.String())
		}
	}
}
