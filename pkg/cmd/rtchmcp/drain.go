package rtchmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

// ledger keeps the ids of the requests read on stdin that have no reply yet,
// so that the end of input waits for their replies before the session ends:
// `printf '…' | rtch-mcp` answers every request it was sent, as a pipe user
// expects, where the SDK alone would close the session at EOF with the calls
// still running. A request the client cancels is struck off: it gets no reply.
type ledger struct {
	mu      sync.Mutex
	pending map[string]bool
	changed chan struct{}
}

func newLedger() *ledger {
	return &ledger{pending: map[string]bool{}, changed: make(chan struct{})}
}

// message is the part of a JSON-RPC message the ledger reads.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

func (l *ledger) saw(line []byte, incoming bool) {
	var m message
	switch {
	case incoming:
		if json.Unmarshal(line, &m) != nil {
			return
		}
	default:
		m.ID = replyID(line)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case incoming && m.Method == "notifications/cancelled" && m.Params.RequestID != nil:
		delete(l.pending, string(m.Params.RequestID))
	case incoming && m.Method != "" && m.ID != nil:
		l.pending[string(m.ID)] = true
	case !incoming && m.Method == "" && m.ID != nil:
		delete(l.pending, string(m.ID))
	default:
		return
	}
	close(l.changed)
	l.changed = make(chan struct{})
}

// replyID is the id of a reply the server writes, nil for another message
// (a notification, a request of its own). It reads the top-level members
// in order and stops at the result or error once it has the id: a reply
// carries the whole packet, which needs no second reading here.
func replyID(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var id json.RawMessage
	reply := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		switch key {
		case "method":
			return nil
		case "result", "error":
			reply = true
		}
		if reply && id != nil {
			return id
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			id = v
		}
	}
	if reply {
		return id
	}
	return nil
}

// wait returns once no request is pending or ctx ends.
func (l *ledger) wait(ctx context.Context) {
	for {
		l.mu.Lock()
		n, ch := len(l.pending), l.changed
		l.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}

// lines calls fn for each complete line written through it.
type lines struct {
	buf []byte
	fn  func([]byte)
}

func (s *lines) feed(p []byte) {
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			return
		}
		s.fn(s.buf[:i])
		s.buf = s.buf[i+1:]
	}
}

// drainReader notes every request it reads and holds back the end of input
// until the ledger is empty.
type drainReader struct {
	ctx context.Context
	r   io.Reader
	l   *ledger
	in  lines
}

func newDrainReader(ctx context.Context, r io.Reader, l *ledger) *drainReader {
	d := &drainReader{ctx: ctx, r: r, l: l}
	d.in.fn = func(b []byte) { l.saw(b, true) }
	return d
}

func (d *drainReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.in.feed(p[:n])
	if err == io.EOF {
		if len(bytes.TrimSpace(d.in.buf)) > 0 {
			d.in.feed([]byte("\n")) // a last request without its newline
		}
		if n > 0 {
			return n, nil
		}
		d.l.wait(d.ctx)
	}
	return n, err
}

func (d *drainReader) Close() error { return nil }

// replyWriter strikes off each reply it writes and flushes it at once: the
// framework buffers stdout, and a client waits for each message.
type replyWriter struct {
	mu  sync.Mutex
	w   io.Writer
	out lines
}

func newReplyWriter(w io.Writer, l *ledger) *replyWriter {
	rw := &replyWriter{w: w}
	rw.out.fn = func(b []byte) { l.saw(b, false) }
	return rw
}

func (r *replyWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, err := r.w.Write(p)
	if f, ok := r.w.(interface{ Flush() error }); ok && err == nil {
		err = f.Flush()
	}
	r.out.feed(p[:n])
	return n, err
}

func (r *replyWriter) Close() error { return nil }
