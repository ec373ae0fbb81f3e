package rtchmcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A malformed message and what the server must answer to it. Every case
// carries its own id ("bad-N") where it has one, so its answer is told
// apart from the client's own (numbered) traffic.
type malformed struct {
	name string
	line []byte // written as is: it carries its own newline when it has one
	want reply
}

// reply is what the server must answer a malformed message with.
type reply struct {
	none   bool   // no answer at all
	batch  bool   // an array holding one answer
	result bool   // a result, not an error (the message is served)
	code   int64  // the error's code
	id     string // the answer's id as JSON: `"bad-5"` or `null`
	sdk    bool   // the guard hands it on, the SDK answers it
}

func req(id, method, params string) string {
	s := `{"jsonrpc":"2.0"`
	if id != "" {
		s += `,"id":` + id
	}
	s += `,"method":"` + method + `"`
	if params != "" {
		s += `,"params":` + params
	}
	return s + "}"
}

// padded is tools/list with id whose params hold n bytes of padding.
func padded(id string, n int) string {
	return req(id, "tools/list", `{"_meta":{"pad":"`+strings.Repeat("x", n)+`"}}`)
}

func nested(n int) string {
	return strings.Repeat("[", n) + strings.Repeat("]", n)
}

// malformedCases are the messages a hostile or broken client can send
// that are not a plain well-formed request.
func malformedCases() []malformed {
	parse, invalid, notFound := int64(-32700), int64(-32600), int64(-32601)
	return []malformed{
		{"not JSON", []byte("hello there\n"), reply{code: parse, id: "null"}},
		{"empty object", []byte("{}\n"), reply{code: invalid, id: "null"}},
		{"batch", []byte("[" + req(`"bad-3"`, "tools/list", "") + "]\n"), reply{batch: true, code: invalid, id: `"bad-3"`}},
		{"empty batch", []byte("[]\n"), reply{code: invalid, id: "null"}},
		{"jsonrpc 1.0", []byte(`{"jsonrpc":"1.0","id":"bad-5","method":"tools/list"}` + "\n"), reply{code: invalid, id: `"bad-5"`}},
		{"no jsonrpc member", []byte(`{"id":"bad-6","method":"tools/list"}` + "\n"), reply{code: invalid, id: `"bad-6"`}},
		{"object as id", []byte(req(`{"a":1}`, "tools/list", "") + "\n"), reply{code: invalid, id: "null"}},
		{"null id", []byte(req("null", "tools/list", "") + "\n"), reply{code: invalid, id: "null"}},
		{"fractional id", []byte(req("1.5", "tools/list", "") + "\n"), reply{code: invalid, id: "null"}},
		{"deep nesting", []byte(req(`"bad-10"`, "tools/list", `{"x":`+nested(100000)+`}`) + "\n"), reply{code: invalid, id: `"bad-10"`}},
		{"NUL byte", []byte(req(`"bad-11"`, "tools/list", "") + "\x00\n"), reply{code: parse, id: `"bad-11"`}},
		{"UTF-8 BOM", []byte("\xef\xbb\xbf" + req(`"bad-12"`, "tools/list", "") + "\n"), reply{result: true, id: `"bad-12"`, sdk: true}},
		{"truncated", []byte(`{"jsonrpc":"2.0","id":"bad-13","method":"tools/li` + "\n"), reply{code: parse, id: `"bad-13"`}},
		{"oversized (16 MiB)", []byte(padded(`"bad-14"`, 16<<20) + "\n"), reply{code: invalid, id: `"bad-14"`}},
		{"method a number", []byte(`{"jsonrpc":"2.0","id":"bad-15","method":5}` + "\n"), reply{code: invalid, id: `"bad-15"`}},
		{"params a string", []byte(req(`"bad-16"`, "tools/list", `"all"`) + "\n"), reply{code: -32602, id: `"bad-16"`, sdk: true}},
		{"unknown method", []byte(req(`"bad-17"`, "tools/nope", `{}`) + "\n"), reply{code: notFound, id: `"bad-17"`, sdk: true}},
		{"notification with an id", []byte(req(`"bad-18"`, "notifications/initialized", `{}`) + "\n"), reply{code: invalid, id: `"bad-18"`, sdk: true}},
		{"response sent to the server", []byte(`{"jsonrpc":"2.0","id":"bad-19","result":{}}` + "\n"), reply{none: true, sdk: true}},
		{"error response with a null id", []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}` + "\n"), reply{none: true}},
		{"invalid UTF-8", []byte(req(`"bad-21"`, "tools/list", "{\"_meta\":{\"x\":\"\xff\xfe\"}}") + "\n"), reply{code: parse, id: `"bad-21"`}},
		{"CRLF", []byte(req(`"bad-22"`, "tools/list", "") + "\r\n"), reply{result: true, id: `"bad-22"`, sdk: true}},
		{"empty lines", []byte("\n\n \t \n\r\n"), reply{none: true}},
		{"long line within the limit (3 MiB)", []byte(padded(`"bad-24"`, 3<<20) + "\n"), reply{result: true, id: `"bad-24"`, sdk: true}},
		{"a JSON scalar", []byte("42\n"), reply{code: invalid, id: "null"}},
		{"boolean id", []byte(req("true", "tools/list", "") + "\n"), reply{code: invalid, id: "null"}},
		{"id beyond 64 bits", []byte(req("123456789012345678901234567890", "tools/list", "") + "\n"), reply{code: invalid, id: "null"}},
		{"escaped string id", []byte(req(`"bad-\u0032\u0038"`, "tools/list", "") + "\n"), reply{result: true, id: `"bad-28"`, sdk: true}},
		{"a member given twice", []byte(`{"jsonrpc":"2.0","id":"bad-30","\u0069d":"bad-31","method":"tools/list"}` + "\n"), reply{code: invalid, id: `"bad-30"`}},
		{"arguments a string", []byte(req(`"bad-29"`, "tools/call", `{"name":"rtch_reenter","arguments":"x"}`) + "\n"), reply{result: true, id: `"bad-29"`, sdk: true}},
	}
}

// Every malformed message, sent to the built server over stdio while a
// call of the SDK's client is in flight, gets its answer; the call in
// flight completes, a call after it succeeds, and the end of input ends
// the process with 0. Each case has a server of its own, so one that
// kills the server does not hide the next.
func TestMalformedMessagesOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts a server per case; skipped with -short")
	}
	bin := binary(t)
	root := repo(t)
	for _, c := range malformedCases() {
		t.Run(c.name, func(t *testing.T) {
			s := startRaw(t, bin, "--root", root, "--index", filepath.Join(t.TempDir(), "index"))
			inflight := make(chan error, 1)
			go func() {
				res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: "rtch_context", Arguments: map[string]any{
					"goal": "find where ReadLine reports a malformed line", "enough": "the function is hydrated"}})
				if err == nil && res.IsError {
					err = errors.New(textOf(res))
				}
				inflight <- err
			}()
			s.in.waitFor(t, `"name":"rtch_context"`)
			if err := s.in.send(c.line); err != nil {
				t.Errorf("writing the message: %v", err)
			}
			c.want.check(t, s)
			if err := <-inflight; err != nil {
				t.Errorf("the call in flight: %v", err)
			}
			res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: "rtch_reenter", Arguments: map[string]any{"range": "stream/writer.go:L3-L4"}})
			if err != nil || res.IsError || !strings.Contains(textOf(res), "func WriteLine") {
				t.Errorf("a call after it: %v %v", err, res)
			}
			s.end(t)
		})
	}
}

func (w reply) check(t *testing.T, s *rawSession) {
	t.Helper()
	if w.none {
		return // checked at the end: nothing unexpected arrived
	}
	select {
	case got := <-s.odd:
		if err := w.match(got); err != nil {
			t.Error(err)
		}
	case <-time.After(time.Minute):
		t.Errorf("no answer; stderr:\n%s", s.stderr.String())
	}
}

// match says how got is not the answer wanted.
func (w reply) match(got []byte) error {
	if w.batch {
		var arr []json.RawMessage
		if err := json.Unmarshal(got, &arr); err != nil || len(arr) != 1 {
			return fmt.Errorf("want an array of one answer, got %.300s", got)
		}
		got = arr[0]
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(got, &m); err != nil {
		return fmt.Errorf("answer %.300s: %v", got, err)
	}
	switch {
	case m.JSONRPC != "2.0":
		return fmt.Errorf("not a JSON-RPC 2.0 answer: %.300s", got)
	case string(m.ID) != w.id:
		return fmt.Errorf("answer's id %s, want %s: %.300s", m.ID, w.id, got)
	case w.result && m.Result == nil:
		return fmt.Errorf("want a result: %.300s", got)
	case !w.result && (m.Error == nil || m.Error.Code != w.code):
		return fmt.Errorf("want error %d: %.300s", w.code, got)
	case !w.result && m.Error.Message == "":
		return fmt.Errorf("an error without a message: %.300s", got)
	}
	return nil
}

// rawSession is a server process with the SDK's client on its pipes and a
// way to write raw bytes between the client's messages. What the server
// writes that is not for the client (answers to the raw bytes: an id of
// ours, a null id, an array) goes to odd.
type rawSession struct {
	ctx    context.Context
	cmd    *exec.Cmd
	in     *rawWriter
	cs     *mcp.ClientSession
	odd    chan []byte
	exited chan error
	stderr *syncBuffer
}

func startRaw(t *testing.T, bin string, args ...string) *rawSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	s := &rawSession{ctx: ctx, cmd: exec.Command(bin, args...), odd: make(chan []byte, 16), exited: make(chan error, 1), stderr: &syncBuffer{}}
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill() })
	s.in = &rawWriter{w: stdin, wrote: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	go s.demux(stdout, pw)
	go func() { s.exited <- s.cmd.Wait() }()
	s.cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: s.in}, nil)
	if err != nil {
		t.Fatalf("initialize: %v; stderr:\n%s", err, s.stderr.String())
	}
	return s
}

// demux passes the client its messages and keeps the others in odd.
func (s *rawSession) demux(stdout io.Reader, client *io.PipeWriter) {
	r := bufio.NewReader(stdout)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			if odd(line) {
				s.odd <- line
			} else {
				client.Write(line)
			}
		}
		if err != nil {
			client.CloseWithError(err)
			return
		}
	}
}

func odd(line []byte) bool {
	if bytes.HasPrefix(line, []byte("[")) {
		return true
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil {
		return true
	}
	return m.Method == "" && (string(m.ID) == "null" || m.ID == nil || bytes.HasPrefix(m.ID, []byte(`"bad-`)))
}

// end closes the server's input and wants the process to exit 0 soon,
// with nothing unanswered or unexpected on its output.
func (s *rawSession) end(t *testing.T) {
	t.Helper()
	s.in.Close()
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("exit: %v; stderr:\n%s", err, s.stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Errorf("still running 20 s after the end of input; stderr:\n%s", s.stderr.String())
	}
	select {
	case got := <-s.odd:
		t.Errorf("unexpected message %.300s", got)
	default:
	}
	s.cs.Close()
}

// rawWriter is the server's stdin, shared by the client and the test; it
// says when the client has written.
type rawWriter struct {
	mu    sync.Mutex
	w     io.WriteCloser
	sent  bytes.Buffer // what the client wrote
	wrote chan struct{}
}

func (w *rawWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent.Write(p)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return w.w.Write(p)
}

func (w *rawWriter) send(p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.w.Write(p)
	return err
}

func (w *rawWriter) Close() error { return w.w.Close() }

// waitFor returns once the client has written s.
func (w *rawWriter) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		w.mu.Lock()
		ok := strings.Contains(w.sent.String(), s)
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-w.wrote:
		case <-deadline:
			t.Fatalf("the client never wrote %s", s)
		}
	}
}

// The end of input ends the process with 0, whatever came before it: a
// request that can have no reply, a last line cut short, a call still
// running when --eof-wait runs out (it is cancelled).
func TestEndOfInputEndsTheProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := binary(t)
	root := repo(t)
	hello := initializeLine + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n"
	slow := req("2", "tools/call", `{"name":"rtch_context","arguments":{"goal":"where does the http server parse request headers","enough":"the parser is hydrated"}}`)
	for _, c := range []struct {
		name  string
		args  []string
		input string
		want  string // a line of the output, as a regular expression
		warn  string // in stderr
	}{
		{"a null id", nil, hello + req("null", "tools/list", ""), `^\{"jsonrpc":"2.0","id":null,"error":\{"code":-32600,"message":"stdin line 3: \\"id\\" must be a string or an integer, not null"\}\}$`, ""},
		{"a last line cut short", nil, hello + `{"jsonrpc":"2.0","id":2,"method":"tools/li`, `^\{"jsonrpc":"2.0","id":2,"error":\{"code":-32700,"message":"stdin line 3: not JSON: unexpected end of JSON input`, ""},
		{"a call outlasting --eof-wait", []string{"--root", filepath.Join(goroot(t), "src"), "--no-index", "--eof-wait", "100ms"}, hello + slow + "\n", `^\{"jsonrpc":"2.0","id":1,"result"`,
			"rtch-mcp: warning: end of input: 1 call(s) still running after 100ms (--eof-wait); cancelled without a reply"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if args == nil {
				args = []string{"--root", root, "--index", filepath.Join(t.TempDir(), "index")}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Stdin = strings.NewReader(c.input)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if ctx.Err() != nil {
				t.Fatalf("still running two minutes after the end of input; output:\n%s", out)
			}
			if err != nil {
				t.Fatalf("%v; stderr:\n%s", err, stderr.String())
			}
			if !regexp.MustCompile(`(?m)` + c.want).Match(out) {
				t.Fatalf("no line %s in:\n%.2000s", c.want, out)
			}
			if !strings.Contains(stderr.String(), c.warn) {
				t.Fatalf("stderr %q, want %q", stderr.String(), c.warn)
			}
		})
	}
}

// The same messages as bodies posted to --http in a session: each gets a
// client error (the guard's JSON-RPC error where the guard answers), never
// a server error, and the session goes on serving.
func TestMalformedBodiesOverHTTP(t *testing.T) {
	url, _ := startHTTP(t)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range malformedCases() {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(c.line))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", cs.ID())
		req.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode >= 500:
			t.Errorf("%s: %d %.300s", c.name, resp.StatusCode, body)
		case !c.want.sdk && !c.want.none:
			want := http.StatusBadRequest
			if len(c.line) > defaultMaxMessage {
				want = http.StatusRequestEntityTooLarge
			}
			if resp.StatusCode != want {
				t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, want)
			}
			if err := c.want.match(body); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rtch_reenter", Arguments: map[string]any{"range": "stream/writer.go:L3-L4"}})
		if err != nil || res.IsError {
			t.Fatalf("%s: the session after it: %v %v", c.name, err, res)
		}
	}
}
