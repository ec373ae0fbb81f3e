package codegraph

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/walk"
)

// FactsCache keeps every file's Facts between builds of one tree, so a
// build extracts again only the files whose bytes changed; the builder then
// resolves the whole set as before, so the graph is byte-identical to a
// build without the cache. An entry is keyed by the file's path and the
// SHA-256 of its bytes, so no edit can leave it stale; the cache as a whole
// is stamped with the SHA-256 of the running executable, so a build by
// another extractor starts afresh. Like the tree index, it also keeps each
// file's size and identity (walk.Ident) when it was read: a file whose
// size and identity are unchanged is not read again (Known), unless its
// mtime was then too young to tell a later edit in the same tick from none
// (racy), when its bytes are read and hashed. It lives beside the tree
// index (rtch-scout writes <index dir>/graph-facts).
type FactsCache struct {
	file  string
	under string // file is written reached from here without a symlink
	stamp [sha256.Size]byte
	old   map[string]cachedFacts // as read, by path
	mu    sync.Mutex
	now   map[string]cachedFacts // what this build used, by path
	hits  int
	// dirty is set when what this build used differs from what was read
	// in more than the set of paths (an extraction, a new identity).
	dirty bool
	// opened is when the cache was opened, before the build's walk: the
	// start against which a file's identity is racy (walk.File.Racy).
	opened time.Time
}

type cachedFacts struct {
	Sum   [sha256.Size]byte
	Size  int64
	ID    walk.Ident
	Racy  bool
	Facts Facts
}

const cacheMagic = "RTCHGFC1"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// executableStamp is the SHA-256 of the running program, read once.
var executableStamp = sync.OnceValues(func() ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	exe, err := os.Executable()
	if err != nil {
		return sum, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
})

// OpenFactsCache reads the cache in file, which Save writes reached from
// the directory under without following a symlink (atomicfile). A missing
// file, or one another executable wrote, opens empty; a damaged one opens
// empty with a warning that says why (the build then rewrites it). The
// error is for a cache that cannot be used at all (the executable cannot be
// read, the file cannot be read).
func OpenFactsCache(under, file string) (c *FactsCache, warning string, err error) {
	stamp, err := executableStamp()
	if err != nil {
		return nil, "", fmt.Errorf("graph facts cache: the executable: %v", err)
	}
	c = &FactsCache{file: file, under: under, stamp: stamp, old: map[string]cachedFacts{}, now: map[string]cachedFacts{}, opened: time.Now()}
	data, err := os.ReadFile(file)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return c, "", nil
	case err != nil:
		return nil, "", fmt.Errorf("graph facts cache: %v", err)
	}
	old, same, err := decodeCache(data, stamp)
	if err != nil {
		return c, fmt.Sprintf("the graph facts cache %s is damaged (%v); it is rebuilt", file, err), nil
	}
	if same {
		c.old = old
	}
	return c, "", nil
}

// decodeCache reads a cache file: magic, stamp, payload (gob of the
// entries in path order), CRC-32C of the payload. same is false for a cache
// of another executable.
func decodeCache(data []byte, stamp [sha256.Size]byte) (m map[string]cachedFacts, same bool, err error) {
	head := len(cacheMagic) + sha256.Size
	if len(data) < head+4 || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, false, errors.New("not a graph facts cache")
	}
	if !bytes.Equal(data[len(cacheMagic):head], stamp[:]) {
		return nil, false, nil
	}
	payload, sum := data[head:len(data)-4], data[len(data)-4:]
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(sum) {
		return nil, false, errors.New("checksum mismatch")
	}
	var entries []cachedFacts
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&entries); err != nil {
		return nil, false, err
	}
	m = make(map[string]cachedFacts, len(entries))
	for _, e := range entries {
		m[e.Facts.Path] = e
	}
	return m, true, nil
}

// Known is the stored Facts of f, without reading it, when its size and
// identity are the ones stored and the entry was not racy. Safe for
// concurrent use.
func (c *FactsCache) Known(f walk.File) (Facts, bool) {
	e, ok := c.old[f.Path]
	if !ok || e.Racy || !f.Unchanged(e.Size, e.ID) {
		return Facts{}, false
	}
	c.mu.Lock()
	c.now[f.Path] = e
	c.hits++
	c.mu.Unlock()
	return e.Facts, true
}

// Extract is Extract through the cache: the stored Facts when f's bytes
// are the ones stored, a fresh extraction otherwise; either way the entry
// takes f's size and identity. Safe for concurrent use.
func (c *FactsCache) Extract(f walk.File, data []byte) Facts {
	sum := sha256.Sum256(data)
	racy := f.Racy(c.opened)
	e, ok := c.old[f.Path]
	hit := ok && e.Sum == sum
	if !hit {
		e = cachedFacts{Sum: sum, Facts: Extract(f.Path, data)}
	}
	if !hit && !storable(e.Facts) {
		return e.Facts
	}
	moved := e.Size != f.Size || e.ID != f.ID || e.Racy != racy
	e.Size, e.ID, e.Racy = f.Size, f.ID, racy
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now[f.Path] = e
	if hit {
		c.hits++
	}
	c.dirty = c.dirty || !hit || moved
	return e.Facts
}

// storable reports whether a file's facts may be written into the cache:
// the cache keeps nothing the redactor would mask, so not the facts of a
// file whose path holds a secret (config/ghp_….go), nor of one whose
// imports or syntax error quote one (a module URL with a token in it).
// Signatures are redacted when extracted; names are identifiers. Such a
// file is extracted on every build, as a file the cache does not hold is.
func storable(f Facts) bool {
	if secret.InPath(f.Path) {
		return false
	}
	var b strings.Builder
	b.WriteString(f.Problem)
	for _, im := range f.Imports {
		b.WriteString("\n")
		b.WriteString(im.Spec)
	}
	return len(secret.Find(b.String())) == 0
}

// Hits is how many files the build took from the cache; Misses how many it
// extracted.
func (c *FactsCache) Hits() int { return c.hits }

// Misses is how many files the build extracted afresh.
func (c *FactsCache) Misses() int { return len(c.now) - c.hits }

// Save writes what this build used (so files gone from the tree leave the
// cache) atomically: a reader sees the old cache or the new one. It writes
// nothing when the build used exactly what was read, identities included.
func (c *FactsCache) Save() error {
	if !c.dirty && len(c.now) == len(c.old) {
		return nil
	}
	paths := make([]string, 0, len(c.now))
	for p := range c.now {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	entries := make([]cachedFacts, len(paths))
	for i, p := range paths {
		entries[i] = c.now[p]
	}
	if err := c.write(entries); err != nil {
		return fmt.Errorf("graph facts cache %s: %v", c.file, err)
	}
	return nil
}

// write streams the cache file through an atomic replacement: the payload
// goes to the file and its checksum at once, and the checksum follows it.
func (c *FactsCache) write(entries []cachedFacts) error {
	rel, err := filepath.Rel(c.under, c.file)
	if err != nil {
		return err
	}
	p, err := atomicfile.CreateBeneath(c.under, rel, 0o600, true)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(p, 1<<20)
	crc := crc32.New(castagnoli)
	w.WriteString(cacheMagic)
	w.Write(c.stamp[:])
	if err := gob.NewEncoder(io.MultiWriter(w, crc)).Encode(entries); err != nil {
		p.Cleanup()
		return err
	}
	w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	if err := w.Flush(); err != nil {
		p.Cleanup()
		return err
	}
	return p.Commit()
}
