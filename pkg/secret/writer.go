package secret

import (
	"bytes"
	"io"
)

// Writer is the output boundary: it redacts what passes through it line by
// line and writes each line whole. A line that is a JSON document (an NDJSON
// record) has its strings redacted with JSON; any other line is redacted as
// text. A partial last line waits for Flush. Text redacted at its source
// passes unchanged (Redact is idempotent), so sizes computed upstream hold.
type Writer struct {
	w       io.Writer
	partial []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write redacts and writes every complete line of p; it reports len(p)
// written when every line was written.
func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		line := p[:i+1]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = w.partial[:0]
		}
		if _, err := w.w.Write(Line(line)); err != nil {
			return 0, err
		}
		p = p[i+1:]
	}
	return n, nil
}

// Passed returns the writer for lines an upstream boundary already
// redacted (the records a stage passes through): each Write of whole lines
// goes out as is, after whatever this Writer holds, so the order of lines
// is kept. A pass while a partial line is pending goes through the redactor
// with it.
func (w *Writer) Passed() io.Writer { return passed{w} }

type passed struct{ w *Writer }

func (p passed) Write(b []byte) (int, error) {
	if len(p.w.partial) > 0 || !bytes.HasSuffix(b, []byte("\n")) {
		return p.w.Write(b)
	}
	if _, err := p.w.w.Write(b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Flush redacts and writes a partial last line, if any, then flushes the
// writer beneath when it buffers (has a Flush method): a caller that flushes
// the boundary to hand a reply over at once (rtch-mcp's replies) must see it
// leave the process, not wait in a buffer under the redactor.
func (w *Writer) Flush() error {
	if len(w.partial) > 0 {
		_, err := w.w.Write(Line(w.partial))
		w.partial = w.partial[:0]
		if err != nil {
			return err
		}
	}
	if f, ok := w.w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// Line redacts one output line (its terminator included, if any).
func Line(line []byte) []byte {
	body := bytes.TrimRight(line, "\r\n")
	if len(body) < minSecretLen || !enabled {
		return line
	}
	if t := bytes.TrimLeft(body, " \t"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		if out, ok := JSON(line); ok {
			return out
		}
	}
	s := string(line)
	if red := String(s); red != s {
		return []byte(red)
	}
	return line
}
