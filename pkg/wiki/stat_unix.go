//go:build unix

package wiki

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// statAt lstat's name inside the open directory d.
func statAt(d *os.File, _ string, name string) (fileInfo, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileInfo{}, &fs.PathError{Op: "lstat", Path: name, Err: err}
		}
		break
	}
	var mode fs.FileMode
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		mode = fs.ModeDir
	case unix.S_IFLNK:
		mode = fs.ModeSymlink
	case unix.S_IFIFO:
		mode = fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode = fs.ModeSocket
	case unix.S_IFCHR:
		mode = fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode = fs.ModeDevice
	default:
		mode = fs.ModeIrregular
	}
	return fileInfo{mode: mode, size: st.Size, mtime: st.Mtim.Nano()}, nil
}
