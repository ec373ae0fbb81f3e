// Package index is the persistent per-tree index (issue 17): for each text
// file of a zone it keeps the file's identity (size, device, inode, mtime,
// ctime, from the walk's lstat), the facts of its bytes the probe needs to
// judge every occurrence of a term without reading the file (its words and
// where each occurs, its heading and definition lines, Facts) and the
// scout's record of its shape. A warm run reads only the files whose
// identity changed since, and answers for the others from the index, with
// output byte-identical to a run without it.
//
// Trust follows git's index: an entry is used only when the file's
// identity is what it was when the file was read, and an entry written
// while its file's mtime was less than two seconds old is "racily clean"
// and never trusted (the next run reads the file again). An entry without
// an identity (a platform without inodes) is never trusted either.
//
// Storage is one flat file, mapped read-only: a header (magic, format
// version, the fingerprint of the configuration the facts depend on), the
// entries, the table of paths, and a footer with the table's offset and a
// CRC-32C of everything before it. An index of another version, or one that
// fails its checksum or its decoding, is rebuilt with one warning. Save
// writes a new file whole through pkg/atomicfile (temporary, fsync, rename;
// a killed writer's temporary is removed by the next write) under an
// exclusive flock on a sibling lock file, so readers, which never lock,
// see the old index or the new one, never a part, and two writers never
// interleave. A writer that finds the lock taken leaves the write to the
// run holding it.
package index

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/walk"
)

// Version is the format version; an index of another version is rebuilt.
const Version = 1

const (
	magic      = "RTCHIDX\x00"
	footMagic  = "RTCHEND\x00"
	fileName   = "index"
	lockName   = "lock"
	headerLen  = len(magic) + 4 + sha256.Size
	footerLen  = 8 + 8 + 4 + len(footMagic)
	racyWindow = 2 * time.Second
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Dir is the directory of root's index: override when set, otherwise
// <user cache dir>/rtch/index/<16 hex digits of SHA-256(absolute root)>.
func Dir(root, override string) (string, error) {
	if override != "" {
		return override, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory for the index (%v); use --index DIR or --no-index", err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "rtch", "index", fmt.Sprintf("%x", sum[:8])), nil
}

// entry is one row of the table.
type entry struct {
	path     string
	size     int64
	id       walk.Ident
	racy     bool
	skip     bool // the blob is a walk.Skip (EncodeSkip), not facts
	unindex  bool // the file is read on every run (PutUnindexable)
	off, len int64
}

// Index is one tree's index as a run sees it: the entries of the file on
// disk (mapped), and the entries the run has read afresh, which Save
// writes together with the unchanged old ones.
type Index struct {
	dir     string
	root    string // the tree's root, recorded beside the index by Save
	fp      [sha256.Size]byte
	data    []byte // the mapped file, nil when there is none
	unmap   func()
	table   []entry // sorted by path
	fresh   bool    // table is of this fingerprint
	mu      sync.Mutex
	puts    map[string]put
	changed bool
}

type put struct {
	size          int64
	id            walk.Ident
	racy          bool
	skip, unindex bool
	blob          []byte
}

// Fingerprint is what the stored facts depend on besides a file's bytes:
// the caller's configuration (the scout's handle patterns). An index of
// another fingerprint is rebuilt without a warning.
func Fingerprint(parts ...string) [sha256.Size]byte {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	var out [sha256.Size]byte
	copy(out[:], h.Sum(nil))
	return out
}

// Open maps the index in dir. A missing index opens empty. One that cannot
// be used (another version, a bad checksum, a torn or corrupt file) opens
// empty too, and warning says why: the run rebuilds it. The error is for a
// directory that cannot be read at all.
func Open(dir string, fp [sha256.Size]byte) (ix *Index, warning string, err error) {
	ix = &Index{dir: dir, fp: fp, puts: map[string]put{}}
	p := filepath.Join(dir, fileName)
	data, unmap, err := mapFile(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		ix.changed = true
		return ix, "", nil
	case err != nil:
		return nil, "", fmt.Errorf("index %s: %v", p, err)
	}
	ix.data, ix.unmap = data, unmap
	table, sameFP, err := parse(data, fp)
	if err != nil {
		ix.Close()
		ix.data, ix.unmap, ix.changed = nil, nil, true
		return ix, fmt.Sprintf("index %s: %v: rebuilding it", p, err), nil
	}
	ix.table, ix.fresh = table, sameFP
	ix.changed = !sameFP
	return ix, "", nil
}

// Close unmaps the index; Files handed out before are invalid after it.
func (ix *Index) Close() {
	if ix != nil && ix.unmap != nil {
		ix.unmap()
		ix.unmap = nil
	}
}

// Lookup returns the stored facts of f when they can be trusted: the entry
// is of this fingerprint, not racy, and f's size and identity are the
// stored ones. A corrupt entry reads as missing.
func (ix *Index) Lookup(f walk.File) (*File, bool) {
	e := ix.trusted(f)
	if e == nil || e.unindex {
		return nil, false
	}
	blob := ix.data[e.off : e.off+e.len]
	if e.skip {
		sk, err := decodeSkip(f.Path, blob)
		return &File{Skip: sk}, err == nil
	}
	fl, err := decodeFile(blob)
	if err != nil {
		return nil, false
	}
	return fl, true
}

// trusted is f's entry when it can be trusted.
func (ix *Index) trusted(f walk.File) *entry {
	e := ix.find(f.Path)
	if e == nil || !ix.fresh || e.racy || e.size != f.Size || e.id != f.ID || f.ID == (walk.Ident{}) {
		return nil
	}
	return e
}

// Holds reports whether the index has a trusted entry for f (facts, a skip
// verdict or an unindexable mark): a caller that read f anyway need not
// store it again.
func (ix *Index) Holds(f walk.File) bool { return ix.trusted(f) != nil }

// PutUnindexable records that f cannot be indexed (Extract refused it), so
// that later runs read it without extracting its facts again.
func (ix *Index) PutUnindexable(f walk.File, readStart time.Time) {
	ix.put(f, readStart, false, nil)
	ix.mu.Lock()
	p := ix.puts[f.Path]
	p.unindex = true
	ix.puts[f.Path] = p
	ix.mu.Unlock()
}

func (ix *Index) find(p string) *entry {
	i := sort.Search(len(ix.table), func(i int) bool { return ix.table[i].path >= p })
	if i < len(ix.table) && ix.table[i].path == p {
		return &ix.table[i]
	}
	return nil
}

// Put records the facts of f as read at readStart (the time the run
// started reading, against which a young mtime makes the entry racy). It is
// safe for concurrent use.
func (ix *Index) Put(f walk.File, readStart time.Time, facts *Facts) {
	ix.put(f, readStart, false, facts.Encode())
	facts.Release()
}

// PutSkip records that reading f gave skip s. Only verdicts that depend on
// the bytes alone are kept (binary, Git LFS pointer); others are ignored.
func (ix *Index) PutSkip(f walk.File, readStart time.Time, s walk.Skip) {
	if s.Reason != walk.ReasonBinary && s.Reason != walk.ReasonLFSPointer {
		return
	}
	ix.put(f, readStart, true, encodeSkip(s))
}

func (ix *Index) put(f walk.File, readStart time.Time, skip bool, blob []byte) {
	racy := f.ID == (walk.Ident{}) || f.ID.MtimeNs >= readStart.Add(-racyWindow).UnixNano()
	ix.mu.Lock()
	ix.puts[f.Path] = put{size: f.Size, id: f.ID, racy: racy, skip: skip, blob: blob}
	ix.changed = true
	ix.mu.Unlock()
}

// Save writes the index for the walked files: each one's new entry, or its
// old one when that is still good; files no longer walked drop out. It
// writes nothing when nothing changed, and leaves the write to another
// run that holds the lock. wrote reports whether a new index was written.
func (ix *Index) Save(files []walk.File) (wrote bool, err error) {
	kept := 0
	for _, f := range files {
		if _, ok := ix.puts[f.Path]; ok {
			continue
		}
		if e := ix.find(f.Path); e != nil && ix.fresh && e.size == f.Size && e.id == f.ID {
			kept++
		}
	}
	if !ix.changed && kept == len(ix.table) {
		return false, nil
	}
	if err := os.MkdirAll(ix.dir, 0o700); err != nil {
		return false, err
	}
	unlock, ok, err := lock(filepath.Join(ix.dir, lockName))
	if err != nil || !ok {
		return false, err
	}
	defer unlock()
	if err := ix.write(files); err != nil {
		return false, err
	}
	if ix.root != "" {
		if err := writeRoot(ix.dir, ix.root); err != nil {
			return true, err
		}
	}
	return true, nil
}

// write streams the new index through a temporary and renames it in.
func (ix *Index) write(files []walk.File) error {
	pf, err := atomicfile.Create(filepath.Join(ix.dir, fileName), 0o600)
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	crc := crc32.New(castagnoli)
	w := &countWriter{w: bufio.NewWriterSize(io.MultiWriter(pf, crc), 1<<20)}
	w.write([]byte(magic))
	w.write(binary.LittleEndian.AppendUint32(nil, Version))
	w.write(ix.fp[:])
	var table []entry
	for _, f := range files {
		e := entry{path: f.Path}
		var blob []byte
		if p, ok := ix.puts[f.Path]; ok {
			e.size, e.id, e.racy, e.skip, e.unindex, blob = p.size, p.id, p.racy, p.skip, p.unindex, p.blob
		} else if old := ix.find(f.Path); old != nil && ix.fresh && old.size == f.Size && old.id == f.ID {
			e.size, e.id, e.racy, e.skip, e.unindex, blob = old.size, old.id, old.racy, old.skip, old.unindex, ix.data[old.off:old.off+old.len]
		} else {
			continue
		}
		e.off, e.len = w.n, int64(len(blob))
		w.write(blob)
		table = append(table, e)
	}
	tableOff := w.n
	w.write(encodeTable(table))
	foot := binary.LittleEndian.AppendUint64(nil, uint64(tableOff))
	foot = binary.LittleEndian.AppendUint64(foot, uint64(len(table)))
	w.write(foot)
	if w.err == nil {
		w.err = w.w.(*bufio.Writer).Flush()
	}
	if w.err != nil {
		return w.err
	}
	tail := binary.LittleEndian.AppendUint32(nil, crc.Sum32())
	tail = append(tail, footMagic...)
	if _, err := pf.Write(tail); err != nil {
		return err
	}
	return pf.Commit()
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) write(b []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
}

func encodeTable(t []entry) []byte {
	var b []byte
	for _, e := range t {
		b = binary.AppendUvarint(b, uint64(len(e.path)))
		b = append(b, e.path...)
		b = binary.AppendUvarint(b, uint64(e.size))
		b = binary.AppendUvarint(b, e.id.Dev)
		b = binary.AppendUvarint(b, e.id.Ino)
		b = binary.AppendVarint(b, e.id.MtimeNs)
		b = binary.AppendVarint(b, e.id.CtimeNs)
		flags := uint64(0)
		if e.racy {
			flags |= 1
		}
		if e.skip {
			flags |= 2
		}
		if e.unindex {
			flags |= 4
		}
		b = binary.AppendUvarint(b, flags)
		b = binary.AppendUvarint(b, uint64(e.off))
		b = binary.AppendUvarint(b, uint64(e.len))
	}
	return b
}

// parse checks an index file and reads its table.
func parse(data []byte, fp [sha256.Size]byte) (table []entry, sameFP bool, err error) {
	if len(data) < headerLen+footerLen || string(data[:len(magic)]) != magic {
		return nil, false, errors.New("not an rtch index (torn or foreign file)")
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != Version {
		return nil, false, fmt.Errorf("format version %d, this build reads %d", v, Version)
	}
	foot := data[len(data)-footerLen:]
	if string(foot[20:]) != footMagic {
		return nil, false, errors.New("truncated (no footer)")
	}
	body := data[:len(data)-len(footMagic)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(foot[16:]) {
		return nil, false, errors.New("checksum mismatch (corrupt)")
	}
	tableOff, n := binary.LittleEndian.Uint64(foot), binary.LittleEndian.Uint64(foot[8:])
	if tableOff < uint64(headerLen) || tableOff > uint64(len(data)-footerLen) {
		return nil, false, errors.New("bad table offset (corrupt)")
	}
	d := decoder{b: data[tableOff : len(data)-footerLen]}
	for i := uint64(0); i < n && d.err == nil; i++ {
		e := entry{path: string(d.bytes(d.count()))}
		e.size = int64(d.uv())
		e.id.Dev, e.id.Ino = d.uv(), d.uv()
		e.id.MtimeNs, e.id.CtimeNs = d.v(), d.v()
		flags := d.uv()
		e.racy, e.skip, e.unindex = flags&1 != 0, flags&2 != 0, flags&4 != 0
		e.off, e.len = int64(d.uv()), int64(d.uv())
		if e.off < int64(headerLen) || e.off+e.len > int64(tableOff) || (len(table) > 0 && table[len(table)-1].path >= e.path) {
			return nil, false, errors.New("bad entry (corrupt)")
		}
		table = append(table, e)
	}
	if d.err != nil {
		return nil, false, fmt.Errorf("table: %v (corrupt)", d.err)
	}
	return table, bytes.Equal(data[len(magic)+4:headerLen], fp[:]), nil
}
