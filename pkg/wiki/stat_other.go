//go:build !unix

package wiki

import (
	"os"
	"path/filepath"
)

// dirFD is a no-op here: statAt joins the directory path.
func dirFD(*os.File) int { return -1 }

// statAt lstat's name inside the directory dir.
func statAt(_ int, dir, name string) (fileInfo, error) {
	return lstat(filepath.Join(dir, name))
}

// lstat lstat's a path. The platform reports no change time or inode: the
// freshness check rests on size and modification time alone.
func lstat(path string) (fileInfo, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return fileInfo{}, err
	}
	return fileInfo{mode: info.Mode(), size: info.Size(), mtime: info.ModTime().UnixNano()}, nil
}
