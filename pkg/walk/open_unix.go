//go:build unix && !linux

package walk

import (
	"io/fs"
	"os"
	"syscall"
)

// rhandle is a file open for reading.
type rhandle struct{ f *os.File }

// openRead opens a file for reading without following a final symlink
// and without blocking should it have become a FIFO, and fstats the open
// descriptor.
func openRead(path string) (rhandle, int64, fs.FileMode, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return rhandle{}, 0, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return rhandle{}, 0, 0, err
	}
	return rhandle{f}, st.Size(), st.Mode(), nil
}

func (h rhandle) read(p []byte) (int, error) { return h.f.Read(p) }

func (h rhandle) close() { h.f.Close() }

// beneath is the portable fallback: files are opened by absolute path,
// with O_NOFOLLOW on the last component where the system has it.
type beneath struct{}

func openBeneath(string) beneath { return beneath{} }

func (beneath) close() {}

func (beneath) open(abs, _ string) (rhandle, int64, fs.FileMode, error) { return openRead(abs) }
