//go:build unix

package index

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapFile maps path read-only and keeps it open, so that a write copies
// entries from it with reads rather than through the mapping. The mapping
// outlives a rename over the path: a reader keeps the index it opened
// while a writer replaces it.
func mapFile(path string) ([]byte, *os.File, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	if st.Size() == 0 {
		return []byte{}, f, func() { f.Close() }, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	return data, f, func() { syscall.Munmap(data); f.Close() }, nil
}

// dropPages hands a mapping's pages back: they leave the process's
// resident set (the page cache keeps them, so the next read finds them
// there).
func dropPages(data []byte) {
	if len(data) > 0 {
		unix.Madvise(data, unix.MADV_DONTNEED)
	}
}
