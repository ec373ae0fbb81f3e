package index

import (
	"fmt"
	"os"
	"path/filepath"
)

// Beside is the path of a file called name kept in root's index directory
// where w says, or "" when the index is off: a cache of another build over
// the same tree (the code graph's facts) then shares the index's location
// and is pruned with it. The directory is created and records its root, as
// the index's own save does.
func Beside(root string, w Where, name string) (string, error) {
	if w.Off {
		return "", nil
	}
	dir, err := Dir(root, w.Dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("index directory %s: %v", dir, err)
	}
	if err := writeRoot(dir, root); err != nil {
		return "", fmt.Errorf("index directory %s: %v", dir, err)
	}
	return filepath.Join(dir, name), nil
}
