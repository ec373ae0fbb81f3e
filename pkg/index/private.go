package index

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rtch/rtch/pkg/atomicfile"
)

// anchor is the directory dir, the index directory w names for root, is
// reached from without a symlink: the tree's root for a directory a
// configuration put inside the tree (Where.Root), the user cache directory
// for the default one, and for a directory the user named (--index DIR)
// the directory itself, whose own path is the user's choice.
func (w Where) anchor(dir string) (string, error) {
	switch {
	case w.Root != "":
		return w.Root, nil
	case w.Dir == "":
		return os.UserCacheDir()
	}
	return dir, nil
}

// openPrivate opens the index directory dir for writing, reached from
// anchor with no symlink on the way, created 0700 when missing and made
// 0700 when it is open to others (one another user owns is refused). An
// anchor outside the tree (the user's cache, a directory the user named)
// is created first when missing.
func openPrivate(anchor, dir string, inTree bool) (*atomicfile.Dir, error) {
	if !inTree {
		if err := os.MkdirAll(anchor, 0o700); err != nil {
			return nil, err
		}
	}
	rel, err := filepath.Rel(anchor, dir)
	if err != nil {
		return nil, err
	}
	d, err := atomicfile.OpenDir(anchor, rel, 0o700)
	if err != nil {
		return nil, err
	}
	if err := d.Private(); err != nil {
		d.Close()
		return nil, fmt.Errorf("index directory %v", err)
	}
	return d, nil
}
