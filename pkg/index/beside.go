package index

import (
	"fmt"
)

// Beside is the path of a file called name kept in root's index directory
// where w says, or "" when the index is off: a cache of another build over
// the same tree (the code graph's facts) then shares the index's location
// and is pruned with it. The directory is created and records its root, as
// the index's own save does. anchor is the directory the file's path is
// to be reached from without a symlink (atomicfile.CreateBeneath).
func Beside(root string, w Where, name string) (anchor, file string, err error) {
	if w.Off || w.Default && !cacheUsable() {
		return "", "", nil
	}
	dir, err := Dir(root, w.Dir)
	if err == nil {
		anchor, err = w.anchor(dir)
	}
	if err != nil {
		return "", "", err
	}
	d, err := openPrivate(anchor, dir, w.Root != "")
	if err != nil {
		return "", "", err
	}
	defer d.Close()
	if err := writeRoot(d, root); err != nil {
		return "", "", fmt.Errorf("index directory %s: %v", dir, err)
	}
	return anchor, d.Name(name), nil
}
