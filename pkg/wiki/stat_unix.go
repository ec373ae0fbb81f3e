//go:build unix

package wiki

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/rtch/rtch/pkg/internal/statmode"
)

// dirFD returns the descriptor statAt uses for the open directory d.
func dirFD(d *os.File) int { return int(d.Fd()) }

// statAt lstat's name inside the open directory whose descriptor is fd.
func statAt(fd int, _ string, name string) (fileInfo, error) {
	return fstatat(fd, name, name)
}

// lstat lstat's a path.
func lstat(path string) (fileInfo, error) {
	return fstatat(unix.AT_FDCWD, path, path)
}

func fstatat(dirfd int, name, errPath string) (fileInfo, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileInfo{}, &fs.PathError{Op: "lstat", Path: errPath, Err: err}
		}
		break
	}
	mode := statmode.Type(uint32(st.Mode))
	return fileInfo{mode: mode, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: uint64(st.Ino)}, nil
}
