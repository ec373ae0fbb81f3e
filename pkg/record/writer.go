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
	filter Filter
	buf    []byte
	n      int
}

// NewWriter writes to w; filter may be nil.
func NewWriter(w io.Writer, filter Filter) *Writer { return &Writer{w: w, filter: filter} }

// Pass writes an upstream record through unchanged.
func (w *Writer) Pass(l Line) error { return w.write(l.Raw) }

// PassRaw writes raw record bytes through unchanged.
func (w *Writer) PassRaw(raw []byte) error { return w.write(raw) }

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

func (w *Writer) write(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(append(w.buf[:0], b...), '\n')
	_, err := w.w.Write(w.buf)
	w.n++
	return err
}
