//go:build windows

package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Dir is a directory under a root with no symlink (reparse point) on the
// way. Without openat, operations go by path: each component was checked
// when the Dir was opened.
type Dir struct{ name string }

// OpenDir opens root/rel, refusing a symlink on the way (ErrSymlink) or a
// ".." (ErrEscapes); with perm other than 0, missing components are
// created.
func OpenDir(root, rel string, perm os.FileMode) (*Dir, error) {
	rel, err := local(rel)
	if err != nil {
		return nil, err
	}
	done := root
	if rel == "." {
		return &Dir{name: root}, nil
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		done = filepath.Join(done, part)
		fi, err := os.Lstat(done)
		if os.IsNotExist(err) && perm != 0 {
			if err = os.Mkdir(done, perm); err == nil || os.IsExist(err) {
				fi, err = os.Lstat(done)
			}
		}
		switch {
		case err != nil:
			return nil, err
		case fi.Mode()&os.ModeSymlink != 0 || fi.Mode()&os.ModeIrregular != 0:
			return nil, fmt.Errorf("%s: %w", done, ErrSymlink)
		case !fi.IsDir():
			return nil, &os.PathError{Op: "open", Path: done, Err: fmt.Errorf("not a directory")}
		}
	}
	return &Dir{name: done}, nil
}

// Name is the directory's path; Name(file) the path of a file in it.
func (d *Dir) Name(file ...string) string { return filepath.Join(append([]string{d.name}, file...)...) }

// Close does nothing (there is no handle).
func (d *Dir) Close() error { return nil }

// Create starts replacing name in d.
func (d *Dir) Create(name string, perm os.FileMode) (*Pending, error) {
	f, err := os.CreateTemp(d.name, "."+name+".tmp*")
	if err != nil {
		return nil, err
	}
	return &Pending{f: f, target: d.Name(name)}, nil
}

// CreateTemp creates an empty temporary for name in d and returns its name.
func (d *Dir) CreateTemp(name string, perm os.FileMode) (string, error) {
	f, err := os.CreateTemp(d.name, "."+name+".tmp*")
	if err != nil {
		return "", err
	}
	f.Close()
	return filepath.Base(f.Name()), nil
}

var appendMu sync.Mutex

// Append appends data to name in d with one write (serialised within the
// process only: there is no flock).
func (d *Dir) Append(name string, data []byte, perm os.FileMode) error {
	if err := d.Check(name); err != nil {
		return err
	}
	appendMu.Lock()
	defer appendMu.Unlock()
	f, err := os.OpenFile(d.Name(name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenLock opens (creating it when missing) the lock file name in d.
func (d *Dir) OpenLock(name string, perm os.FileMode) (*os.File, error) {
	if err := d.Check(name); err != nil {
		return nil, err
	}
	return os.OpenFile(d.Name(name), os.O_RDWR|os.O_CREATE, perm)
}

// Check reports an error unless each of names in d is missing or a
// regular file.
func (d *Dir) Check(names ...string) error {
	for _, name := range names {
		fi, err := os.Lstat(d.Name(name))
		switch {
		case os.IsNotExist(err):
		case err != nil:
			return err
		case fi.Mode()&os.ModeSymlink != 0:
			return fmt.Errorf("%s: %w", d.Name(name), ErrSymlink)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s: %w", d.Name(name), ErrNotRegular)
		}
	}
	return nil
}

// Rename renames oldName to newName inside d.
func (d *Dir) Rename(oldName, newName string) error {
	return os.Rename(d.Name(oldName), d.Name(newName))
}

// Remove removes name from d; a missing file is not an error.
func (d *Dir) Remove(name string) error {
	if err := os.Remove(d.Name(name)); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// Private does nothing: Windows directories are private by their ACL.
func (d *Dir) Private() error { return nil }

// Pending is a file being written; Commit puts it in place, Cleanup (always
// safe to call, also after Commit) removes what a failed write left.
type Pending struct {
	f      *os.File
	target string
	done   bool
}

func (p *Pending) Write(b []byte) (int, error) { return p.f.Write(b) }

// Commit syncs the file and renames it over the target.
func (p *Pending) Commit() error {
	if err := p.f.Sync(); err != nil {
		return err
	}
	if err := p.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(p.f.Name(), p.target); err != nil {
		return err
	}
	p.done = true
	return nil
}

// Cleanup removes the temporary file if it was not committed.
func (p *Pending) Cleanup() error {
	if p.done {
		return nil
	}
	p.f.Close()
	return os.Remove(p.f.Name())
}
