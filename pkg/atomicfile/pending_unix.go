//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Pending is a file being written; Commit puts it in place, Cleanup (always
// safe to call, also after Commit) removes what a failed write left.
type Pending struct{ f *renameio.PendingFile }

// Create starts writing path. An existing file's permissions are kept; a new
// file gets perm less the umask.
func Create(path string, perm os.FileMode) (*Pending, error) {
	f, err := renameio.NewPendingFile(path,
		renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithPermissions(perm),
		renameio.WithExistingPermissions())
	if err != nil {
		return nil, err
	}
	return &Pending{f}, nil
}

func (p *Pending) Write(b []byte) (int, error) { return p.f.Write(b) }

// Commit syncs the file and renames it over the target.
func (p *Pending) Commit() error { return p.f.CloseAtomicallyReplace() }

// Cleanup removes the temporary file if it was not committed.
func (p *Pending) Cleanup() error { return p.f.Cleanup() }
