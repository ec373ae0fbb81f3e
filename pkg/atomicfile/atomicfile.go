// Package atomicfile writes files so that a reader sees the old content or the
// new, never a part: every file the toolkit writes goes through it. On Unix it
// is renameio (temporary file in the same directory, fsync, rename); elsewhere
// a temporary file renamed over the target, which is as close as the platform
// allows.
package atomicfile

import "os"

// WriteFile replaces path with data atomically; on failure the old file is
// intact and no temporary file is left behind.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	p, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer p.Cleanup()
	if _, err := p.Write(data); err != nil {
		return err
	}
	return p.Commit()
}
