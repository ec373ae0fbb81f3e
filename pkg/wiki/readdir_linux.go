//go:build linux

package wiki

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readDir lists the open directory d with getdents, keeping the type the
// kernel reports: one string allocation per getdents block (the names are
// substrings of it) instead of a DirEntry per name. An entry whose type
// the file system does not report is lstat'ed, as os.ReadDir does.
func readDir(d *os.File) ([]dirEntry, error) {
	fd := dirFD(d)
	buf := make([]byte, 32<<10)
	var ents []dirEntry
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "readdirent", Path: d.Name(), Err: err}
		}
		if n <= 0 {
			return ents, nil
		}
		block := string(buf[:n])
		for len(block) >= 19 {
			// linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
			reclen := int(*(*uint16)(unsafe.Pointer(unsafe.StringData(block[16:]))))
			if reclen < 19 || reclen > len(block) {
				break
			}
			rec := block[:reclen]
			block = block[reclen:]
			if *(*uint64)(unsafe.Pointer(unsafe.StringData(rec))) == 0 {
				continue // a deleted entry
			}
			name := rec[19:]
			for i := 0; i < len(name); i++ {
				if name[i] == 0 {
					name = name[:i]
					break
				}
			}
			if name == "" || name == "." || name == ".." {
				continue
			}
			var dir bool
			switch rec[18] {
			case unix.DT_DIR:
				dir = true
			case unix.DT_UNKNOWN:
				fi, err := statAt(fd, d.Name(), name)
				if err != nil {
					return nil, err
				}
				dir = fi.mode.IsDir()
			}
			ents = append(ents, dirEntry{name: name, dir: dir})
		}
	}
}
