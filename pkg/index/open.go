package index

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
)

// Where is where the flags and the configuration put a tree's index.
type Where struct {
	// Dir is --index (or the configuration's [index] dir); "" means the
	// user cache directory.
	Dir string
	// Off is --no-index, or [index] enabled = false.
	Off bool
	// Default says the index is on because nothing turned it on or off:
	// when the user cache directory cannot be made, the run goes without
	// it and says nothing.
	Default bool
	// Root, when set, is the tree's root and Dir a directory inside it
	// (a configuration's [index] dir): it is reached from Root without a
	// symlink.
	Root string
}

const rootFile = "root"

// OpenFor opens root's index where w says, or returns nil when it is off.
// A directory the user named that cannot be used is an error; the cache
// directory failing only warns (asked for by [index] enabled, or by a
// host) or goes unsaid (on by default), and the run goes on without an
// index. A corrupt or foreign index warns and opens empty. Opening the
// default location also removes the indexes of roots that no longer exist.
func OpenFor(root string, w Where, fp [sha256.Size]byte, warn func(string)) (*Index, error) {
	if w.Off || w.Default && !cacheUsable() {
		return nil, nil
	}
	dir, err := Dir(root, w.Dir)
	var ix *Index
	if err == nil {
		var warning string
		if ix, warning, err = Open(dir, fp); err == nil {
			if warning != "" {
				warn(warning)
			}
			ix.root, ix.warn, ix.inTree = root, warn, w.Root != ""
			if ix.anchor, err = w.anchor(dir); err != nil {
				return nil, err
			}
			if w.Dir == "" {
				pruneGone(filepath.Dir(dir), dir)
			}
			return ix, nil
		}
	}
	if w.Dir != "" {
		return nil, fmt.Errorf("--index / [index] dir: %v", err)
	}
	warn(fmt.Sprintf("running without the tree index: %v", err))
	return nil, nil
}

// cacheUsable reports whether the user cache directory's index directory
// exists or can be made (private to the user).
func cacheUsable() bool {
	cache, err := os.UserCacheDir()
	return err == nil && os.MkdirAll(filepath.Join(cache, "rtch", "index"), 0o700) == nil
}

// writeRoot records in d, an index directory, which tree the index
// belongs to, so pruneGone can tell an index whose tree is gone.
func writeRoot(d *atomicfile.Dir, root string) error {
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if b, err := os.ReadFile(d.Name(rootFile)); err == nil && string(b) == abs+"\n" {
		return nil
	}
	return d.WriteFile(rootFile, []byte(abs+"\n"), 0o600)
}

// pruneGone removes the sibling index directories (those Dir names) whose
// recorded root no longer exists: temporary trees leave none behind.
func pruneGone(parent, keep string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		d := filepath.Join(parent, e.Name())
		if !e.IsDir() || d == keep || len(e.Name()) != 16 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, rootFile))
		if err != nil {
			continue
		}
		root := strings.TrimSuffix(string(b), "\n")
		if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) && filepath.IsAbs(root) {
			os.RemoveAll(d)
		}
	}
}
