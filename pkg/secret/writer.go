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

// Flush redacts and writes a partial last line, if any.
func (w *Writer) Flush() error {
	if len(w.partial) == 0 {
		return nil
	}
	_, err := w.w.Write(Line(w.partial))
	w.partial = w.partial[:0]
	return err
}

// Line redacts one output line (its terminator included, if any).
func Line(line []byte) []byte {
	body := bytes.TrimRight(line, "\r\n")
	if len(body) < minSecretLen {
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
