package record

import (
	"io"
	"sync"
)

// Filter decides whether a record this stage emits is written (the --jq filter).
// It sees the encoded record and returns false to drop it.
type Filter func(raw []byte) (bool, error)

// Writer writes records one per Write call, safe for concurrent use. Records the
// stage passes through are written as read; records it emits go through the
// optional filter first.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	pass   io.Writer // where passed-through records go (w when nil)
	filter Filter
	buf    []byte
	n      int
}

// NewWriter writes to w; filter may be nil.
func NewWriter(w io.Writer, filter Filter) *Writer { return &Writer{w: w, filter: filter} }

// PassTo sends passed-through records to p instead of the writer's own
// stream (the cli passes them around the secret redactor, which only the
// records a stage emits need). p must be the stream the writer's own
// stream ends in, so the order of lines is kept.
func (w *Writer) PassTo(p io.Writer) { w.pass = p }

// Pass writes an upstream record through unchanged.
func (w *Writer) Pass(l Line) error { return w.writeTo(w.passWriter(), l.Raw) }

// PassRaw writes raw record bytes through unchanged.
func (w *Writer) PassRaw(raw []byte) error { return w.writeTo(w.passWriter(), raw) }

func (w *Writer) passWriter() io.Writer {
	if w.pass != nil {
		return w.pass
	}
	return w.w
}

// Emit encodes v and writes it unless the filter drops it.
func (w *Writer) Emit(v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	if w.filter != nil {
		keep, err := w.filter(b)
		if err != nil {
			return err
		}
		if !keep {
			return nil
		}
	}
	return w.write(b)
}

// Count is the number of records written so far.
func (w *Writer) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

func (w *Writer) write(b []byte) error { return w.writeTo(w.w, b) }

func (w *Writer) writeTo(out io.Writer, b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(append(w.buf[:0], b...), '\n')
	_, err := out.Write(w.buf)
	w.n++
	return err
}
