//go:build !unix

package walk

import (
	"io/fs"
	"os"
)

// rhandle is a file open for reading.
type rhandle struct{ f *os.File }

// openRead opens a file for reading and stats it. Without O_NOFOLLOW the
// symlink check relies on the walk's Lstat.
func openRead(path string) (rhandle, int64, fs.FileMode, error) {
	f, err := os.Open(path)
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
