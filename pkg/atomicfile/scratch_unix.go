//go:build unix

package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// Scratch creates a scratch file for name in d, open for reading and
// writing, for data a writer sets aside until it copies it into the file
// it writes (the tree index's entries while it is built). Its name is
// removed at once (a temporary's, which removeStale cleans up after a
// kill should the removal fail), so nothing is left behind; release
// closes it.
func (d *Dir) Scratch(name string) (f *os.File, release func(), err error) {
	if err := plain(name); err != nil {
		return nil, nil, err
	}
	fd, tmp, err := openTemp(d.f, name, 0o600)
	if err != nil {
		return nil, nil, &os.PathError{Op: "create", Path: d.Name(name), Err: err}
	}
	unix.Unlinkat(int(d.f.Fd()), tmp, 0)
	f = os.NewFile(uintptr(fd), d.Name(tmp))
	return f, func() { f.Close() }, nil
}
