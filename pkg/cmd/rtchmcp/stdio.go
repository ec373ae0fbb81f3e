package rtchmcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioOptions is how the server reads stdin.
type stdioOptions struct {
	// maxMessage is the longest line taken, in bytes (--max-message).
	maxMessage int
	// eofWait is how long the end of input waits for the calls still
	// running before they are cancelled (--eof-wait).
	eofWait time.Duration
	// warn hears what the server drops unanswered.
	warn func(string)
}

// stopGrace is how long the session may take to end once its calls are
// cancelled, before the server ends without them.
const stopGrace = 5 * time.Second

// serveStdio serves one session on r and w until the end of input (after
// the calls in flight are answered, or cancelled once o.eofWait has
// passed) or until ctx ends.
func serveStdio(ctx context.Context, srv *mcp.Server, r io.Reader, w io.Writer, o stdioOptions) error {
	c := newStdioConn(ctx, r, w, o)
	ss, err := srv.Connect(ctx, transport{c}, nil)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		go ss.Close()
	case <-c.ended:
	}
	select {
	case err := <-done:
		return err
	case <-time.After(stopGrace):
		return fmt.Errorf("calls still running %v after they were cancelled; ended without their replies", stopGrace)
	}
}

// transport hands the SDK a connection made here.
type transport struct{ c mcp.Connection }

func (t transport) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// stdioConn is the server's connection on stdin and stdout, in place of
// the SDK's: it reads one message per line, at most maxMessage bytes, lets
// the guard answer what the SDK could not decode (guard.go), and keeps the
// end of input back until the calls read before it are answered.
type stdioConn struct {
	o       stdioOptions
	in      chan jsonrpc.Message // closed after the last message, with readErr set
	readErr error
	out     *lineWriter
	l       *ledger

	closeOnce, endOnce sync.Once
	closed, ended      chan struct{}
}

func newStdioConn(ctx context.Context, r io.Reader, w io.Writer, o stdioOptions) *stdioConn {
	c := &stdioConn{o: o, in: make(chan jsonrpc.Message), out: &lineWriter{w: w}, l: newLedger(),
		closed: make(chan struct{}), ended: make(chan struct{})}
	go c.readLoop(ctx, r)
	return c
}

func (c *stdioConn) readLoop(ctx context.Context, r io.Reader) {
	defer close(c.in)
	f := &framer{r: bufio.NewReaderSize(r, 64<<10), limit: c.o.maxMessage}
	for {
		line, over, err := f.next()
		v := inspect(line, over, c.o.maxMessage, fmt.Sprintf("stdin line %d: ", f.lineNo))
		switch {
		case v.answer != nil:
			c.out.writeLine(v.answer)
		case v.drop != "":
			c.o.warn(v.drop + "; dropped")
		case v.msg != nil:
			c.l.read(v.msg)
			select {
			case c.in <- v.msg:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.drain(ctx)
			}
			c.readErr = err
			return
		}
	}
}

// drain holds the end of input back until the calls read before it are
// answered, or --eof-wait has passed (the SDK then cancels them).
func (c *stdioConn) drain(ctx context.Context) {
	if n := c.l.wait(ctx, c.o.eofWait); n > 0 {
		c.o.warn(fmt.Sprintf("end of input: %d call(s) still running after %v (--eof-wait); cancelled without a reply", n, c.o.eofWait))
	}
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m, ok := <-c.in:
		if ok {
			return m, nil
		}
		c.endOnce.Do(func() { close(c.ended) })
		return nil, c.readErr
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %v", err)
	}
	if err := c.out.writeLine(b); err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.l.answered(r.ID)
	}
	return nil
}

func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *stdioConn) SessionID() string { return "" }

// lineWriter writes whole lines, one at a time, and flushes each at once:
// the framework buffers stdout, and a client waits for each message.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (l *lineWriter) writeLine(b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(append(l.buf[:0], b...), '\n')
	_, err := l.w.Write(l.buf)
	if f, ok := l.w.(interface{ Flush() error }); ok && err == nil {
		err = f.Flush()
	}
	return err
}

// framer cuts a stream into lines of at most limit bytes (a CR before the
// newline not counted).
type framer struct {
	r      *bufio.Reader
	limit  int
	lineNo int
}

// headSize is how much of an over-long line is kept, for the guard to find
// its id in.
const headSize = 4 << 10

// next returns the next line without its newline. over says it was longer
// than the limit; line then holds its first headSize bytes, the rest having
// been read and dropped. err is io.EOF at the end of input (a last line
// without a newline comes with it) or the read error.
func (f *framer) next() (line []byte, over bool, err error) {
	f.lineNo++
	for {
		chunk, err := f.r.ReadSlice('\n')
		if !over {
			line = append(line, chunk...)
			if len(line) > f.limit+2 { // + "\r\n"
				line, over = line[:min(len(line), headSize):min(len(line), headSize)], true
			}
		}
		if err != bufio.ErrBufferFull {
			if !over {
				line = bytes.TrimSuffix(line, []byte("\n"))
				if len(bytes.TrimSuffix(line, []byte("\r"))) > f.limit {
					line, over = line[:min(len(line), headSize)], true
				}
			}
			return line, over, err
		}
	}
}

// ledger keeps the ids of the requests read that have no reply yet, so
// that the end of input waits for their replies before the session ends:
// `printf '…' | rtch-mcp` answers every request it was sent, as a pipe user
// expects, where the SDK alone would close the session at the end of input
// with the calls still running. A request the client cancels is struck off.
type ledger struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	changed chan struct{}
}

func newLedger() *ledger {
	return &ledger{pending: map[jsonrpc.ID]bool{}, changed: make(chan struct{})}
}

// read notes a message read from the client.
func (l *ledger) read(m jsonrpc.Message) {
	req, ok := m.(*jsonrpc.Request)
	switch {
	case !ok:
	case req.IsCall():
		l.update(func() { l.pending[req.ID] = true })
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := parseID(p.RequestID); err == nil {
				l.answered(id)
			}
		}
	}
}

// answered strikes id off.
func (l *ledger) answered(id jsonrpc.ID) { l.update(func() { delete(l.pending, id) }) }

func (l *ledger) update(fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fn()
	close(l.changed)
	l.changed = make(chan struct{})
}

// wait returns once no request is pending, ctx ends or limit has passed,
// with the number still pending.
func (l *ledger) wait(ctx context.Context, limit time.Duration) int {
	timeout := time.After(limit)
	for {
		l.mu.Lock()
		n, ch := len(l.pending), l.changed
		l.mu.Unlock()
		if n == 0 {
			return 0
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return n
		case <-timeout:
			return n
		}
	}
}
