//go:build windows

package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Pending is a file being written; Commit puts it in place, Cleanup (always
// safe to call, also after Commit) removes what a failed write left.
type Pending struct {
	f      *os.File
	target string
	done   bool
}

// create starts writing root/dir/name in a temporary file beside it, after
// checking that the resolved directory lies under root.
func create(root, dir, name string, perm os.FileMode, mkdir bool) (*Pending, error) {
	full := filepath.Join(root, dir)
	if mkdir {
		if err := os.MkdirAll(full, 0o755); err != nil {
			return nil, err
		}
	}
	base, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.Rel(base, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s: %w", full, ErrEscapes)
	}
	path := filepath.Join(real, name)
	f, err := os.CreateTemp(real, "."+name+".tmp*")
	if err != nil {
		return nil, err
	}
	return &Pending{f: f, target: path}, nil
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
