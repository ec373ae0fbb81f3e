package index

import (
	"bytes"
	"io"
	"os"
)

// tapeMem is how much of a tape stays in memory before the rest goes to a
// scratch file: a small tree's build never touches the disk for scratch,
// a large one's memory stays bounded.
var tapeMem = 16 << 20

// A tape is append-only scratch storage for what a write produces before
// it is copied into the index (the entries a run puts, a dictionary's
// postings in the making): its first tapeMem bytes in memory, the rest in
// a scratch file (Index.scratch) made when they do not fit.
type tape struct {
	scratch func() (*os.File, func(), error)
	mem     []byte
	f       *os.File
	release func()
	n       int64
	err     error
}

func newTape(scratch func() (*os.File, func(), error)) *tape { return &tape{scratch: scratch} }

// Write appends b.
func (t *tape) Write(b []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	if t.f == nil && len(t.mem)+len(b) <= tapeMem {
		t.mem = append(t.mem, b...)
		t.n += int64(len(b))
		return len(b), nil
	}
	if t.f == nil {
		if t.f, t.release, t.err = t.scratch(); t.err != nil {
			return 0, t.err
		}
	}
	n, err := t.f.WriteAt(b, t.n-int64(len(t.mem)))
	t.n += int64(n)
	t.err = err
	return n, err
}

// ReadAt reads len(p) bytes at off.
func (t *tape) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < int64(len(t.mem)) {
		n = copy(p, t.mem[off:])
	}
	if n == len(p) {
		return n, nil
	}
	if t.f == nil {
		return n, io.ErrUnexpectedEOF
	}
	m, err := t.f.ReadAt(p[n:], off+int64(n)-int64(len(t.mem)))
	return n + m, err
}

// reader reads the tape from its start.
func (t *tape) reader() io.Reader {
	r := io.Reader(bytes.NewReader(t.mem))
	if t.f != nil {
		r = io.MultiReader(r, io.NewSectionReader(t.f, 0, t.n-int64(len(t.mem))))
	}
	return r
}

// Len is the number of bytes written.
func (t *tape) Len() int64 { return t.n }

// Close frees the memory and removes the scratch file.
func (t *tape) Close() {
	t.mem = nil
	if t.f != nil {
		t.release()
		t.f = nil
	}
}
