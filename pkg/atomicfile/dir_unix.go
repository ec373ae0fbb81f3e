//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Dir is a directory opened beneath a root with no symlink on the way.
// Every file operation goes through its handle, so it stays in this very
// directory whatever the tree's paths do meanwhile.
type Dir struct {
	f    *os.File
	name string // root joined with rel, for messages and for SQLite
}

// OpenDir opens root/rel, every component of rel reached from the one
// before without following a symlink (ErrSymlink) and never through ".."
// (ErrEscapes). With perm other than 0, missing components are created
// with mode perm (less the umask), each inside its already-opened parent.
func OpenDir(root, rel string, perm os.FileMode) (*Dir, error) {
	rel, err := local(rel)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	cur := os.NewFile(uintptr(fd), root)
	if rel == "." {
		return &Dir{f: cur, name: root}, nil
	}
	done := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		done = filepath.Join(done, part)
		next, err := openChild(cur, part, perm)
		cur.Close()
		if errors.Is(err, ErrSymlink) {
			return nil, fmt.Errorf("%s: %w", done, err)
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: done, Err: err}
		}
		cur = next
	}
	return &Dir{f: cur, name: done}, nil
}

// openChild opens directory name inside d without following a link,
// creating it first when it is missing and perm is set.
func openChild(d *os.File, name string, perm os.FileMode) (*os.File, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(int(d.Fd()), name, flags, 0)
	if errors.Is(err, unix.ENOENT) && perm != 0 {
		if err = unix.Mkdirat(int(d.Fd()), name, uint32(perm.Perm())); err == nil || errors.Is(err, unix.EEXIST) {
			fd, err = unix.Openat(int(d.Fd()), name, flags, 0)
		}
	}
	if err != nil {
		if isLink(d, name) {
			return nil, ErrSymlink
		}
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// isLink reports whether name in d is a symlink.
func isLink(d *os.File, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

// Name is the directory's path (the root joined with rel); Name(file) is
// the path of a file in it.
func (d *Dir) Name(file ...string) string { return filepath.Join(append([]string{d.name}, file...)...) }

// Close releases the handle.
func (d *Dir) Close() error { return d.f.Close() }

// Create starts replacing name in d atomically (see Pending).
func (d *Dir) Create(name string, perm os.FileMode) (*Pending, error) {
	if err := plain(name); err != nil {
		return nil, err
	}
	fd, err := unix.Dup(int(d.f.Fd()))
	if err != nil {
		return nil, err
	}
	unix.CloseOnExec(fd)
	own := os.NewFile(uintptr(fd), d.name)
	p, err := create(own, d.Name(name), name, perm)
	if err != nil {
		own.Close()
	}
	return p, err
}

// CreateTemp creates an empty temporary for name in d (mode perm less the
// umask) and returns its name in d, for a writer that fills it by path
// (SQLite) and then renames it; removeStale cleans it up after a kill.
func (d *Dir) CreateTemp(name string, perm os.FileMode) (string, error) {
	if err := plain(name); err != nil {
		return "", err
	}
	removeStale(d.f)
	fd, tmp, err := openTemp(d.f, name, uint32(perm.Perm()))
	if err != nil {
		return "", &os.PathError{Op: "create", Path: d.Name(name), Err: err}
	}
	unix.Close(fd)
	return tmp, nil
}

// Append appends data to name in d with one write, under an exclusive
// flock held on the file, creating it with mode perm (less the umask)
// when it is missing. The file must be a regular file with one link (a
// hard link could lead anywhere); nothing is written otherwise.
func (d *Dir) Append(name string, data []byte, perm os.FileMode) error {
	f, err := d.openRegular(name, unix.O_WRONLY|unix.O_APPEND, perm)
	if err != nil {
		return err
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return &os.PathError{Op: "stat", Path: d.Name(name), Err: err}
	}
	if st.Nlink != 1 {
		return fmt.Errorf("%s: has %d hard links (%w)", d.Name(name), st.Nlink, ErrEscapes)
	}
	if err := flock(f, unix.LOCK_EX); err != nil {
		return &os.PathError{Op: "lock", Path: d.Name(name), Err: err}
	}
	_, err = f.Write(data)
	if uerr := flock(f, unix.LOCK_UN); err == nil && uerr != nil {
		err = uerr
	}
	if err != nil {
		return &os.PathError{Op: "write", Path: d.Name(name), Err: err}
	}
	return nil
}

// OpenLock opens (creating it with mode perm when missing) the lock file
// name in d for flock; it must be a regular file.
func (d *Dir) OpenLock(name string, perm os.FileMode) (*os.File, error) {
	return d.openRegular(name, unix.O_RDWR, perm)
}

// openRegular opens name in d without following a link and without
// blocking on a FIFO, and refuses anything but a regular file.
func (d *Dir) openRegular(name string, flags int, perm os.FileMode) (*os.File, error) {
	if err := plain(name); err != nil {
		return nil, err
	}
	fd, err := unix.Openat(int(d.f.Fd()), name, flags|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		if cerr := d.Check(name); cerr != nil {
			return nil, cerr
		}
		return nil, &os.PathError{Op: "open", Path: d.Name(name), Err: err}
	}
	f := os.NewFile(uintptr(fd), d.Name(name))
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		f.Close()
		if err != nil {
			return nil, &os.PathError{Op: "stat", Path: d.Name(name), Err: err}
		}
		return nil, fmt.Errorf("%s: %w", d.Name(name), ErrNotRegular)
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Check reports an error unless each of names in d is missing or a
// regular file (not a symlink): for a writer that opens files by path
// (SQLite, its journals), right before it does.
func (d *Dir) Check(names ...string) error {
	for _, name := range names {
		var st unix.Stat_t
		err := unix.Fstatat(int(d.f.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
		switch {
		case errors.Is(err, unix.ENOENT):
		case err != nil:
			return &os.PathError{Op: "stat", Path: d.Name(name), Err: err}
		case st.Mode&unix.S_IFMT == unix.S_IFLNK:
			return fmt.Errorf("%s: %w", d.Name(name), ErrSymlink)
		case st.Mode&unix.S_IFMT != unix.S_IFREG:
			return fmt.Errorf("%s: %w", d.Name(name), ErrNotRegular)
		}
	}
	return nil
}

// Rename renames oldName to newName inside d (a link at newName is
// replaced, not followed).
func (d *Dir) Rename(oldName, newName string) error {
	if err := unix.Renameat(int(d.f.Fd()), oldName, int(d.f.Fd()), newName); err != nil {
		return &os.LinkError{Op: "rename", Old: d.Name(oldName), New: d.Name(newName), Err: err}
	}
	return nil
}

// Remove removes the file name from d (a link itself, never its target);
// a missing file is not an error.
func (d *Dir) Remove(name string) error {
	if err := unix.Unlinkat(int(d.f.Fd()), name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return &os.PathError{Op: "remove", Path: d.Name(name), Err: err}
	}
	return nil
}

// Private makes d mode 0700 when it is the user's and grants anyone else
// anything, and refuses a directory another user owns.
func (d *Dir) Private() error {
	var st unix.Stat_t
	if err := unix.Fstat(int(d.f.Fd()), &st); err != nil {
		return &os.PathError{Op: "stat", Path: d.name, Err: err}
	}
	if int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s: owned by uid %d, not by this user (uid %d)", d.name, st.Uid, os.Geteuid())
	}
	if st.Mode&0o077 == 0 {
		return nil
	}
	if err := unix.Fchmod(int(d.f.Fd()), 0o700); err != nil {
		return &os.PathError{Op: "chmod", Path: d.name, Err: err}
	}
	return nil
}

// plain refuses a file name that is not one component.
func plain(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return fmt.Errorf("%q: not a file name (%w)", name, ErrEscapes)
	}
	return nil
}

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
