package secret

import "io"

// Diagnostics returns a writer for a tool's stderr: each Write is redacted
// as text, whole, and written at once. Diagnostics are written one line
// per call (a warning, an error, a progress line ending in \r with no
// newline), so nothing is held back waiting for a newline, as Writer would
// hold a progress line; a secret that a caller splits over two Writes is
// not seen whole.
func Diagnostics(w io.Writer) io.Writer { return diagWriter{w} }

type diagWriter struct{ w io.Writer }

func (d diagWriter) Write(p []byte) (int, error) {
	out := p
	if len(p) >= minSecretLen && enabled {
		s := string(p)
		if red := String(s); red != s {
			out = []byte(red)
		}
	}
	if _, err := d.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
