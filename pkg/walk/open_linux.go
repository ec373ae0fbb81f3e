//go:build linux

package walk

import (
	"io"
	"io/fs"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/rtch/rtch/pkg/internal/statmode"
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
	return rhandle{fd}, st.Size, statmode.Type(st.Mode), nil
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

// beneath opens files by their root-relative path with openat2, refusing
// a symlink in any component (RESOLVE_NO_SYMLINKS) and any way out of the
// root (RESOLVE_BENEATH): a directory swapped for a symlink after the walk
// cannot lead a read outside the root. Kernels without openat2 (before
// 5.6, or a seccomp filter) fall back to O_NOFOLLOW on the last component.
type beneath struct{ fd int }

var noOpenat2 atomic.Bool

func openBeneath(root string) beneath {
	if root == "" || noOpenat2.Load() {
		return beneath{-1}
	}
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return beneath{-1}
	}
	return beneath{fd}
}

func (b beneath) close() {
	if b.fd >= 0 {
		unix.Close(b.fd)
	}
}

// open opens rel (root-relative) beneath the root, or abs the plain way
// when that is not possible.
func (b beneath) open(abs, rel string) (rhandle, int64, fs.FileMode, error) {
	if b.fd < 0 || noOpenat2.Load() {
		return openRead(abs)
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat2(b.fd, rel, &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			break
		}
	}
	if err == unix.ENOSYS || err == unix.EPERM {
		noOpenat2.Store(true)
		return openRead(abs)
	}
	if err != nil {
		return rhandle{-1}, 0, 0, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return rhandle{-1}, 0, 0, &fs.PathError{Op: "fstat", Path: abs, Err: err}
	}
	return rhandle{fd}, st.Size, statmode.Type(st.Mode), nil
}
