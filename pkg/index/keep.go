package index

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sync"
)

// Keeper holds indexes open across runs in one long-lived process (rtch-mcp):
// the mapping and the parsed table of a tree's index are kept, and each run
// gets its own view of them, with its own puts, as if it had opened the file
// itself. A view is current: when the index file on disk is no longer the one
// mapped (a run saved a new one, another process rewrote it), the next
// OpenFor maps the new file, and the old mapping is released when its last
// view is closed. A Keeper is safe for concurrent use; its zero value is
// ready.
type Keeper struct {
	mu   sync.Mutex
	held map[string]*kept // by index directory
}

// kept is one mapped index file and the views that use it.
type kept struct {
	fp      [sha256.Size]byte
	file    os.FileInfo // the index file when it was mapped; nil when there was none
	base    *Index      // what Open gave: the mapping, the table, changed
	views   int
	retired bool // a newer mapping replaced it: unmap when the last view closes
}

// OpenFor is the package's OpenFor, through the keeper: the same index,
// warnings and errors, but the file is mapped and checked once, not on every
// run. Close the returned index as usual; that ends the view only.
func (k *Keeper) OpenFor(root string, w Where, fp [sha256.Size]byte, warn func(string)) (*Index, error) {
	if w.Off {
		return nil, nil
	}
	dir, err := Dir(root, w.Dir)
	if err != nil {
		return OpenFor(root, w, fp, warn)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	cur := k.held[dir]
	if cur == nil || cur.fp != fp || !sameIndexFile(cur.file, filepath.Join(dir, fileName)) {
		ix, err := OpenFor(root, w, fp, warn)
		if ix == nil || err != nil {
			return ix, err
		}
		// The file is stat'ed after it was mapped: a rewrite in between makes
		// the next run map it again, never trust an older mapping.
		st, _ := os.Stat(filepath.Join(dir, fileName))
		if cur != nil {
			k.retire(cur)
		}
		// The dictionaries are checked and decoded once, for every view; a
		// damaged one marks the base changed, so each view's Save repairs it.
		ix.dict()
		ix.nameDict()
		ix.sepDict()
		cur = &kept{fp: fp, file: st, base: ix}
		if k.held == nil {
			k.held = map[string]*kept{}
		}
		k.held[dir] = cur
	}
	return k.view(cur, warn), nil
}

// Close releases every mapping no view uses; views still open keep theirs
// until they are closed.
func (k *Keeper) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for dir, c := range k.held {
		k.retire(c)
		delete(k.held, dir)
	}
}

// Release hands the pages of every held mapping back to the system: a
// server calls it when no run is using them, so that what stays resident
// between runs is its own memory, not the index's size. The mappings stay;
// the next run reads its pages again from the page cache.
func (k *Keeper) Release() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, c := range k.held {
		dropPages(c.base.data)
	}
}

// view is a run's index over c's mapping: the table, the decoded
// dictionaries and the entries' checksum outcomes are shared (so an entry is
// checked once per mapping); the puts and the warnings (to warn, the run's
// own) belong to the run.
func (k *Keeper) view(c *kept, warn func(string)) *Index {
	c.views++
	b := c.base
	b.mu.Lock()
	changed := b.changed
	b.mu.Unlock()
	v := &Index{dir: b.dir, anchor: b.anchor, inTree: b.inTree, root: b.root, fp: b.fp, data: b.data, file: b.file, table: b.table, fresh: b.fresh,
		puts: map[string]put{}, changed: changed, words: b.words, names: b.names, seps: b.seps, checks: b.checks, warn: warn}
	v.unmap = func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		c.views--
		if c.retired && c.views == 0 {
			c.base.Close()
		}
	}
	return v
}

// retire marks c replaced, unmapping it now when no view uses it.
func (k *Keeper) retire(c *kept) {
	c.retired = true
	if c.views == 0 {
		c.base.Close()
	}
}

// sameIndexFile reports whether path is still the file old described (both
// absent counts as the same).
func sameIndexFile(old os.FileInfo, path string) bool {
	st, err := os.Stat(path)
	if old == nil || err != nil {
		return old == nil && err != nil
	}
	return os.SameFile(old, st) && old.Size() == st.Size() && old.ModTime().Equal(st.ModTime())
}
