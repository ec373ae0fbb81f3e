//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Pending is a file being written; Commit puts it in place, Cleanup (always
// safe to call, also after Commit) removes what a failed write left.
type Pending struct {
	dir        *os.File // the target's directory, resolved beneath the root
	f          *os.File
	tmp, name  string
	committed  bool
	cleanedUp  bool
	targetPath string
}

func create(root, dir, name string, perm os.FileMode, mkdir bool) (*Pending, error) {
	d, err := openDirBeneath(root, dir, mkdir)
	if err != nil {
		return nil, err
	}
	removeStale(d, name)
	mode := uint32(perm.Perm())
	var st unix.Stat_t
	if err := unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		mode = uint32(st.Mode) & 0o777 // keep an existing file's permissions
	}
	for range 16 {
		tmp := tempName(name, rand.Uint64())
		fd, err := unix.Openat(int(d.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC|unix.O_NOFOLLOW, mode)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			d.Close()
			return nil, &os.PathError{Op: "create", Path: filepath.Join(root, dir, name), Err: err}
		}
		if perm.Perm() != 0 && mode != uint32(perm.Perm()) {
			unix.Fchmod(fd, mode) // umask must not narrow a kept mode
		}
		return &Pending{dir: d, f: os.NewFile(uintptr(fd), tmp), tmp: tmp, name: name, targetPath: filepath.Join(root, dir, name)}, nil
	}
	d.Close()
	return nil, fmt.Errorf("%s: no free temporary name", filepath.Join(root, dir, name))
}

// removeStale removes temporaries for name left by processes that are gone.
func removeStale(d *os.File, name string) {
	ents, err := d.ReadDir(-1)
	d.Seek(0, 0)
	if err != nil {
		return
	}
	for _, e := range ents {
		pid := staleOwner(e.Name(), name)
		if pid == 0 || pid == os.Getpid() {
			continue
		}
		if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
			unix.Unlinkat(int(d.Fd()), e.Name(), 0)
		}
	}
}

func (p *Pending) Write(b []byte) (int, error) { return p.f.Write(b) }

// Commit syncs the file, renames it over the target (a symlink there is
// replaced, not followed) and syncs the directory.
func (p *Pending) Commit() error {
	if err := p.f.Sync(); err != nil {
		return err
	}
	if err := p.f.Close(); err != nil {
		return err
	}
	if err := unix.Renameat(int(p.dir.Fd()), p.tmp, int(p.dir.Fd()), p.name); err != nil {
		return &os.PathError{Op: "rename", Path: p.targetPath, Err: err}
	}
	p.committed = true
	if err := p.dir.Sync(); err != nil {
		return &os.PathError{Op: "fsync directory of", Path: p.targetPath, Err: err}
	}
	return nil
}

// Cleanup removes the temporary file if it was not committed.
func (p *Pending) Cleanup() error {
	if p.cleanedUp {
		return nil
	}
	p.cleanedUp = true
	defer p.dir.Close()
	if p.committed {
		return nil
	}
	p.f.Close()
	return unix.Unlinkat(int(p.dir.Fd()), p.tmp, 0)
}

// openDirBeneath opens root/dir as a directory, every component resolved
// beneath root; with mkdir, missing components are created one at a time
// inside the already-resolved parent, so no mkdir follows a symlink.
func openDirBeneath(root, dir string, mkdir bool) (*os.File, error) {
	r, err := os.Open(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if dir == "." {
		return dupDir(r)
	}
	parts := strings.Split(dir, string(filepath.Separator))
	for i := range parts {
		prefix := filepath.Join(parts[:i+1]...)
		d, err := openBeneath(r, prefix)
		if errors.Is(err, unix.ENOENT) && mkdir {
			parent, perr := openParent(r, parts[:i])
			if perr != nil {
				return nil, perr
			}
			err = unix.Mkdirat(int(parent.Fd()), parts[i], 0o755)
			parent.Close()
			if err != nil && !errors.Is(err, unix.EEXIST) {
				return nil, &os.PathError{Op: "mkdir", Path: filepath.Join(root, prefix), Err: err}
			}
			d, err = openBeneath(r, prefix)
		}
		if err != nil {
			if errors.Is(err, unix.EXDEV) {
				return nil, fmt.Errorf("%s: %w", filepath.Join(root, prefix), ErrEscapes)
			}
			return nil, &os.PathError{Op: "open", Path: filepath.Join(root, prefix), Err: err}
		}
		if i == len(parts)-1 {
			return d, nil
		}
		d.Close()
	}
	return nil, errors.New("unreachable")
}

func openParent(r *os.File, parts []string) (*os.File, error) {
	if len(parts) == 0 {
		return dupDir(r)
	}
	return openBeneath(r, filepath.Join(parts...))
}

func dupDir(r *os.File) (*os.File, error) {
	fd, err := unix.Dup(int(r.Fd()))
	if err != nil {
		return nil, err
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), r.Name()), nil
}
