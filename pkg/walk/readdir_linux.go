//go:build linux

package walk

import (
	"io/fs"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rtch/rtch/pkg/internal/statmode"
)

// dirent is one directory entry as listed: its absolute path (directory
// prefix + name, one allocation; name is its tail) and its type bits
// (typeUnknown when the file system did not say).
type dirent struct {
	abs  string
	name string
	typ  fs.FileMode
}

const typeUnknown fs.FileMode = 1<<32 - 1

// dirHandle is an open directory: entries are stat'ed relative to it
// (fstatat), which spares the kernel a walk down the whole path per file.
type dirHandle struct{ fd int }

// openDir opens a directory without following a symlink in its place
// (it may have been swapped for one since its parent was listed; only the
// root itself may be reached through a link) and reads all its entries
// with getdents, keeping the d_type the kernel reports. buf is scratch
// space reused across calls; prefix (the directory's path and a
// separator) is put in front of each name.
func openDir(abs, prefix string, follow bool, buf []byte) (dirHandle, []dirent, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(abs, flags, 0)
	if err != nil {
		return dirHandle{-1}, nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	var ents []dirent
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return dirHandle{fd}, ents, &fs.PathError{Op: "readdirent", Path: abs, Err: err}
		}
		if n <= 0 {
			break
		}
		ents = parseDirents(buf[:n], prefix, ents)
	}
	return dirHandle{fd}, ents, nil
}

// parseDirents decodes linux_dirent64 records: ino u64, off s64,
// reclen u16, type u8, then the NUL-terminated name.
func parseDirents(b []byte, prefix string, ents []dirent) []dirent {
	for len(b) >= 19 {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
		if reclen < 19 || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		if *(*uint64)(unsafe.Pointer(&rec[0])) == 0 {
			continue // deleted entry
		}
		name := rec[19:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || (len(name) == 1 && name[0] == '.') || (len(name) == 2 && name[0] == '.' && name[1] == '.') {
			continue
		}
		var typ fs.FileMode
		switch rec[18] {
		case unix.DT_REG:
			typ = 0
		case unix.DT_DIR:
			typ = fs.ModeDir
		case unix.DT_LNK:
			typ = fs.ModeSymlink
		case unix.DT_FIFO:
			typ = fs.ModeNamedPipe
		case unix.DT_SOCK:
			typ = fs.ModeSocket
		case unix.DT_CHR:
			typ = fs.ModeDevice | fs.ModeCharDevice
		case unix.DT_BLK:
			typ = fs.ModeDevice
		default:
			typ = typeUnknown
		}
		abs := prefix + string(name) // the conversion makes no copy of its own
		ents = append(ents, dirent{abs: abs, name: abs[len(prefix):], typ: typ})
	}
	return ents
}

// lstat returns the size, type bits and identity of an entry of the
// directory, without following a symlink.
func (h dirHandle) lstat(abs, name string) (int64, fs.FileMode, Ident, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(h.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, 0, Ident{}, &fs.PathError{Op: "lstat", Path: abs, Err: err}
		}
		break
	}
	id := Ident{Dev: uint64(st.Dev), Ino: uint64(st.Ino), MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano()}
	return st.Size, statmode.Type(st.Mode), id, nil
}

func (h dirHandle) close() {
	if h.fd >= 0 {
		unix.Close(h.fd)
	}
}
