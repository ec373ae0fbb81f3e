//go:build unix

// Package statmode converts the file-type bits of a Unix stat mode into
// io/fs mode bits, for the packages that call fstatat directly instead of
// going through os.Lstat (the walker and the wiki scanner).
package statmode

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// Type returns the fs type bits of a stat(2) st_mode (0 for a regular file,
// fs.ModeIrregular for a type io/fs has no name for). The argument is
// uint32 whatever the platform's st_mode width.
func Type(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
