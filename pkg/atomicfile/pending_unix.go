//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"

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

// create starts writing name in d (which the Pending then owns): a new
// temporary, with the mode of the file it replaces when there is one.
func create(d *os.File, target, name string, perm os.FileMode) (*Pending, error) {
	removeStale(d)
	mode := uint32(perm.Perm())
	var st unix.Stat_t
	if err := unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		mode = uint32(st.Mode) & 0o777 // keep an existing file's permissions
	}
	fd, tmp, err := openTemp(d, name, mode)
	if err != nil {
		return nil, &os.PathError{Op: "create", Path: target, Err: err}
	}
	if perm.Perm() != 0 && mode != uint32(perm.Perm()) {
		unix.Fchmod(fd, mode) // umask must not narrow a kept mode
	}
	return &Pending{dir: d, f: os.NewFile(uintptr(fd), tmp), tmp: tmp, name: name, targetPath: target}, nil
}

// openTemp creates a new temporary for name in d.
func openTemp(d *os.File, name string, mode uint32) (int, string, error) {
	for range 16 {
		tmp := tempName(name, rand.Uint64())
		fd, err := unix.Openat(int(d.Fd()), tmp, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC|unix.O_NOFOLLOW, mode)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		return fd, tmp, err
	}
	return -1, "", fmt.Errorf("no free temporary name for %s", name)
}

// removeStale removes the temporaries in d left by processes that are
// gone.
func removeStale(d *os.File) {
	ents, err := d.ReadDir(-1)
	d.Seek(0, 0)
	if err != nil {
		return
	}
	for _, e := range ents {
		pid := staleOwner(e.Name())
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
	p.committed, p.cleanedUp = true, true
	err := p.dir.Sync()
	p.dir.Close()
	if err != nil {
		return &os.PathError{Op: "fsync directory of", Path: p.targetPath, Err: err}
	}
	return nil
}

// Cleanup removes the temporary file if it was not committed; Commit
// releases everything itself.
func (p *Pending) Cleanup() error {
	if p.cleanedUp {
		return nil
	}
	p.cleanedUp = true
	defer p.dir.Close()
	p.f.Close()
	return unix.Unlinkat(int(p.dir.Fd()), p.tmp, 0)
}
