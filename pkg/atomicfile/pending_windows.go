//go:build windows

package atomicfile

import (
	"os"
	"path/filepath"
)

// Pending is a file being written; Commit puts it in place, Cleanup (always
// safe to call, also after Commit) removes what a failed write left.
type Pending struct {
	f      *os.File
	target string
	done   bool
}

// Create starts writing path in a temporary file beside it.
func Create(path string, perm os.FileMode) (*Pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
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
