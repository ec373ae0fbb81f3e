//go:build !unix

package wiki

import (
	"os"
	"path/filepath"
)

// statAt lstat's name inside the directory dir.
func statAt(_ *os.File, dir, name string) (fileInfo, error) {
	info, err := os.Lstat(filepath.Join(dir, name))
	if err != nil {
		return fileInfo{}, err
	}
	return fileInfo{mode: info.Mode(), size: info.Size(), mtime: info.ModTime().UnixNano()}, nil
}
