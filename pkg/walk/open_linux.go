//go:build linux

package walk

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// rhandle is a file open for reading: a bare descriptor, which spares the
// poller registration and cleanup bookkeeping of an *os.File per file.
type rhandle struct{ fd int }

// openRead opens a file for reading without following a final symlink
// and without blocking should it have become a FIFO, and fstats the open
// descriptor.
func openRead(path string) (rhandle, int64, fs.FileMode, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return rhandle{-1}, 0, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return rhandle{-1}, 0, 0, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	return rhandle{fd}, st.Size, modeType(st.Mode), nil
}

func (h rhandle) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(h.fd, p)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (h rhandle) close() { unix.Close(h.fd) }
