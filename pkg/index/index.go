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
// entries, the dictionary (dict.go: the distinct words of every entry, each
// with the list of the entries and word numbers that hold it), the table
// of paths, and a footer with the offsets of the dictionary and the table.
// Each section has its own CRC-32C, checked when it is first used: the
// header and table's (in the footer) at open, the dictionary's (in the
// footer) by the first Words or Candidates, an entry's (in its table row)
// by the Lookup that decodes it; so a warm run touches only what it reads.
// An index of another version, or one whose header, table or dictionary
// fails its checksum or its decoding, is rebuilt with one warning; an entry
// that fails its checksum is read as missing (its file is read and stored
// afresh) with the same one warning. Save
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
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/walk"
)

// Version is the format version; an index of another version is rebuilt.
// (6: no entry is kept for a file whose path holds a secret, names.go.)
const Version = 6

const (
	magic     = "RTCHIDX\x00"
	footMagic = "RTCHEND\x00"
	fileName  = "index"
	lockName  = "lock"
	headerLen = len(magic) + 4 + sha256.Size
	footerLen = 5*8 + 4*4 + len(footMagic)
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
	skip     bool   // the blob is a walk.Skip (EncodeSkip), not facts
	unindex  bool   // the file is read on every run (PutUnindexable)
	phrases  uint64 // PhraseMask of the facts' phrase hits
	off, len int64
	crc      uint32 // CRC-32C of the entry's bytes
	tally    []byte // Facts.Tally, kept in the table
}

// Index is one tree's index as a run sees it: the entries of the file on
// disk (mapped), and the entries the run has read afresh, which Save
// writes together with the unchanged old ones.
type Index struct {
	dir    string
	anchor string // dir is reached from here without a symlink (Where.anchor); "" means dir itself
	inTree bool   // dir is inside the tree (Where.Root)
	root   string // the tree's root, recorded beside the index by Save
	fp     [sha256.Size]byte
	data   []byte   // the mapped file, nil when there is none
	file   *os.File // the same file, to copy entries without mapping their pages (nil where there is no mmap)
	unmap  func()
	table  []entry // sorted by path
	fresh  bool    // table is of this fingerprint
	mu     sync.Mutex
	puts   map[string]put
	// spill holds the bytes of the puts' entries until Save copies them
	// (under mu).
	spill   *tape
	changed bool
	damage  bool // this run found a section damaged (Repair)
	// words and names are the dictionary sections (of the entries' words
	// and of their names), each checked by its first use; nil without an
	// index file.
	words, names, seps *dictSection
	// checks remembers which entries passed or failed their checksum in
	// this mapping (shared by a Keeper's views, so an entry is checked
	// once per mapping, not once per run); warn, when set, is told once of
	// the first damaged section.
	checks   *entryChecks
	warn     func(string)
	warnOnce sync.Once
}

// entryChecks is the outcome of each table row's checksum in one mapping:
// 0 not checked yet, checkedGood, checkedBad. The mapping is read-only and
// never rewritten in place (a save renames a new file in), so an entry
// that passed once stays good for the mapping's life.
type entryChecks struct {
	state []atomic.Uint32
	// read counts the entry bytes read since the mapping's entry pages
	// were last handed back (passed).
	read atomic.Int64
}

// entryPagesKept is how many bytes of entries the reads of one mapping
// leave resident before the pages before the entry being read are handed
// back: a question whose terms are in most files reads most entries, and
// without it its resident size would be the index's.
var entryPagesKept int64 = 64 << 20

// faultAround is what one read of a mapping may make resident at least:
// the kernel maps the pages around a faulting one that the page cache
// holds (fault_around_bytes, 64 KiB by default), and entries are smaller.
const faultAround = 64 << 10

// passed counts an entry read, n bytes long; when the mapping's reads
// have made about entryPagesKept bytes resident, the entries' pages leave
// the resident set (the page cache keeps them): an entry still being
// decoded by another reader is read again from the page cache. The
// dictionaries, which every question looks up, stay.
func (ix *Index) passed(n int64) {
	c := ix.checks
	if c.read.Add(max(n, faultAround)) < entryPagesKept || ix.words == nil {
		return
	}
	c.read.Store(0)
	if end := len(ix.data) - cap(ix.words.b); end > 0 {
		dropPages(ix.data[:end])
	}
}

const (
	checkedGood = 1
	checkedBad  = 2
)

func newEntryChecks(n int) *entryChecks { return &entryChecks{state: make([]atomic.Uint32, n)} }

// bad reports whether row failed its checksum.
func (c *entryChecks) bad(row int) bool { return c.state[row].Load() == checkedBad }

type put struct {
	size          int64
	id            walk.Ident
	racy          bool
	skip, unindex bool
	phrases       uint64
	tally         []byte
	off, len      int64 // the entry's bytes on the spill
	crc           uint32
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
	ix = &Index{dir: dir, fp: fp, puts: map[string]put{}, checks: newEntryChecks(0)}
	p := filepath.Join(dir, fileName)
	data, file, unmap, err := mapFile(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		ix.changed = true
		return ix, "", nil
	case err != nil:
		return nil, "", fmt.Errorf("index %s: %v", p, err)
	}
	ix.data, ix.file, ix.unmap = data, file, unmap
	sec, err := parse(data, fp)
	if err != nil {
		ix.Close()
		ix.data, ix.file, ix.unmap, ix.changed = nil, nil, nil, true
		return ix, fmt.Sprintf("index %s: %v: rebuilding it", p, err), nil
	}
	ix.table, ix.fresh = sec.table, sec.sameFP
	ix.words = &dictSection{what: "the dictionary", b: sec.dict, crc: sec.dictCRC}
	ix.names = &dictSection{what: "the names dictionary", b: sec.names, crc: sec.namesCRC}
	ix.seps = &dictSection{what: "the separators dictionary", b: sec.seps, crc: sec.sepsCRC}
	ix.changed = !sec.sameFP
	ix.checks = newEntryChecks(len(ix.table))
	return ix, "", nil
}

// damaged records that a section failed its check when first used: the
// run goes on without it, Save rewrites the index, and warn is told once.
func (ix *Index) damaged(what string) {
	ix.mu.Lock()
	ix.changed, ix.damage = true, true
	ix.mu.Unlock()
	ix.warnOnce.Do(func() {
		if ix.warn != nil {
			ix.warn(fmt.Sprintf("index %s: %s: checksum mismatch (corrupt): rebuilding it", filepath.Join(ix.dir, fileName), what))
		}
	})
}

// Close unmaps the index and drops what the run put and did not save;
// Files handed out before are invalid after it.
func (ix *Index) Close() {
	if ix == nil {
		return
	}
	if ix.unmap != nil {
		ix.unmap()
		ix.unmap = nil
	}
	ix.mu.Lock()
	if ix.spill != nil {
		ix.spill.Close()
		ix.spill = nil
	}
	ix.mu.Unlock()
}

// Lookup returns the stored facts of f when they can be trusted: the entry
// is of this fingerprint, not racy, and f's size and identity are the
// stored ones. A corrupt entry reads as missing.
func (ix *Index) Lookup(f walk.File) (*File, bool) {
	st, ok := ix.Stat(f)
	if !ok {
		return nil, false
	}
	return ix.Read(st)
}

// Read decodes the entry Stat found trusted, checking its checksum the
// first time this mapping's entry is read. A corrupt entry reads as
// missing.
func (ix *Index) Read(st Stat) (*File, bool) {
	e := &ix.table[st.Row]
	blob := ix.data[e.off : e.off+e.len]
	ix.passed(e.len)
	if !ix.checkEntry(st.Row, blob) {
		return nil, false
	}
	if e.skip {
		sk, err := decodeSkip(e.path, blob)
		return &File{Skip: sk}, err == nil
	}
	fl, err := decodeFile(blob)
	if err != nil {
		return nil, false
	}
	fl.entry = st.Row
	return fl, true
}

// checkEntry reports whether row's bytes pass their checksum, computing
// it only the first time the mapping's row is read.
func (ix *Index) checkEntry(row int, blob []byte) bool {
	c := &ix.checks.state[row]
	switch c.Load() {
	case checkedGood:
		return true
	case checkedBad:
		ix.markBad(row)
		return false
	}
	if crc32.Checksum(blob, castagnoli) != ix.table[row].crc {
		c.Store(checkedBad)
		ix.markBad(row)
		return false
	}
	c.Store(checkedGood)
	return true
}

// markBad sets aside an entry that failed its checksum: it is not trusted
// again while this mapping is used, so its file is read and stored afresh,
// and the run's Save rewrites the index.
func (ix *Index) markBad(row int) {
	ix.checks.state[row].Store(checkedBad)
	ix.damaged("the entry of " + ix.table[row].path)
}

// Stat is what the table says of a file without decoding its entry.
type Stat struct {
	// Row is the entry's number in the table, for Words, Candidates and
	// Read.
	Row int
	// Skip says the entry is a skip verdict.
	Skip bool
	// Phrases is the PhraseMask of the phrase hits its facts hold.
	Phrases uint64
	// Tally is the entry's Facts.Tally, a view of the mapped index.
	Tally []byte
}

// Stat reports f's entry when Lookup would trust it (without checking the
// entry's checksum, which Read does).
func (ix *Index) Stat(f walk.File) (Stat, bool) {
	row := ix.trusted(f)
	if row < 0 || ix.table[row].unindex {
		return Stat{}, false
	}
	e := &ix.table[row]
	return Stat{Row: row, Skip: e.skip, Phrases: e.phrases, Tally: e.tally}, true
}

// trusted is the row of f's entry when it can be trusted, -1 otherwise.
func (ix *Index) trusted(f walk.File) int {
	row := ix.find(f.Path)
	if row < 0 {
		return -1
	}
	e := &ix.table[row]
	if !ix.fresh || e.racy || !f.Unchanged(e.size, e.id) {
		return -1
	}
	if ix.checks.bad(row) {
		ix.markBad(row) // found by another run of this mapping: this run rewrites too
		return -1
	}
	return row
}

// Holds reports whether the index has a trusted entry for f (facts, a skip
// verdict or an unindexable mark): a caller that read f anyway need not
// store it again.
func (ix *Index) Holds(f walk.File) bool { return ix.trusted(f) >= 0 }

// PutUnindexable records that f cannot be indexed (Extract refused it), so
// that later runs read it without extracting its facts again.
func (ix *Index) PutUnindexable(f walk.File, readStart time.Time) {
	if !nameStorable(f) {
		return
	}
	ix.put(f, readStart, false, nil)
	ix.mu.Lock()
	p := ix.puts[f.Path]
	p.unindex = true
	ix.puts[f.Path] = p
	ix.mu.Unlock()
}

// find is the row of path p, -1 when the table has none.
func (ix *Index) find(p string) int {
	i := sort.Search(len(ix.table), func(i int) bool { return ix.table[i].path >= p })
	if i < len(ix.table) && ix.table[i].path == p {
		return i
	}
	return -1
}

// Put records the facts of f as read at readStart (the time the run
// started reading, against which a young mtime makes the entry racy). It is
// safe for concurrent use.
// Facts whose names cannot be stored (one holds a line break) make the
// file unindexable.
func (ix *Index) Put(f walk.File, readStart time.Time, facts *Facts) {
	if !nameStorable(f) {
		facts.Release()
		return
	}
	if !facts.namesStorable() {
		facts.Release()
		ix.PutUnindexable(f, readStart)
		return
	}
	ix.put(f, readStart, false, facts.Encode())
	ix.mu.Lock()
	p := ix.puts[f.Path]
	p.phrases, p.tally = PhraseMask(facts.Phrases), facts.Tally
	ix.puts[f.Path] = p
	ix.mu.Unlock()
	facts.Release()
}

// PutSkip records that reading f gave skip s. Only verdicts that depend on
// the bytes alone are kept (binary, Git LFS pointer); others are ignored,
// as is a file the index already holds a trusted entry for (a run that
// reads every file for a term the words cannot answer leaves the index
// as it was).
func (ix *Index) PutSkip(f walk.File, readStart time.Time, s walk.Skip) {
	if s.Reason != walk.ReasonBinary && s.Reason != walk.ReasonLFSPointer || ix.Holds(f) || !nameStorable(f) {
		return
	}
	ix.put(f, readStart, true, encodeSkip(s))
}

// put records an entry, its bytes on the spill: a build holds no entry
// in memory.
func (ix *Index) put(f walk.File, readStart time.Time, skip bool, blob []byte) {
	racy := f.Racy(readStart)
	crc := crc32.Checksum(blob, castagnoli)
	ix.mu.Lock()
	if ix.spill == nil {
		ix.spill = newTape(ix.scratch)
	}
	off := ix.spill.Len()
	ix.spill.Write(blob)
	ix.puts[f.Path] = put{size: f.Size, id: f.ID, racy: racy, skip: skip, off: off, len: int64(len(blob)), crc: crc}
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
		if ix.reusable(f) >= 0 {
			kept++
		}
	}
	if !ix.changed && kept == len(ix.table) {
		return false, nil
	}
	anchor := ix.anchor
	if anchor == "" {
		anchor = ix.dir
	}
	d, err := openPrivate(anchor, ix.dir, ix.inTree)
	if err != nil {
		return false, err
	}
	defer d.Close()
	unlock, ok, err := lock(d)
	if err != nil || !ok {
		return false, err
	}
	defer unlock()
	if err := ix.write(d, files); err != nil {
		return false, err
	}
	if ix.root != "" {
		if err := writeRoot(d, ix.root); err != nil {
			return true, err
		}
	}
	return true, nil
}

// reusable is the row of f's old entry when Save may copy it: of this
// fingerprint, of f's identity, and not found damaged; -1 otherwise.
func (ix *Index) reusable(f walk.File) int {
	row := ix.find(f.Path)
	if row < 0 {
		return -1
	}
	e := &ix.table[row]
	if !ix.fresh || e.size != f.Size || e.id != f.ID || ix.checks.bad(row) {
		return -1
	}
	return row
}

// write streams the new index through a temporary and renames it in: the
// header, the entries (new ones from the spill, and old ones copied as they
// are, read from the file rather than through the mapping, so their pages
// are not the run's), the dictionaries built as the entries go by, the
// table and the footer.
func (ix *Index) write(d *atomicfile.Dir, files []walk.File) error {
	if ix.spill != nil && ix.spill.err != nil {
		return ix.spill.err
	}
	pf, err := d.Create(fileName, 0o600)
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	w := &countWriter{w: bufio.NewWriterSize(pf, 1<<20)}
	head := append([]byte(magic), binary.LittleEndian.AppendUint32(nil, Version)...)
	head = append(head, ix.fp[:]...)
	w.write(head)
	table, srcs, oldRows := ix.plan(files)
	fresh := 0
	for _, r := range oldRows {
		if r < 0 {
			fresh++
		}
	}
	dicts := []dictBuilder{ix.newDictionary(ix.dict(), oldRows, fresh, wordText), ix.newDictionary(ix.nameDict(), oldRows, fresh, namesText),
		ix.newDictionary(ix.sepDict(), oldRows, fresh, sepsText)}
	defer func() {
		for _, d := range dicts {
			d.close()
		}
	}()
	var buf []byte
	for row := range table {
		e := &table[row]
		if cap(buf) < int(e.len) {
			buf = make([]byte, e.len)
		}
		blob := buf[:e.len]
		if err := ix.readEntry(srcs[row], blob); err != nil {
			return err
		}
		e.off = w.n
		w.write(blob)
		if !hasWords(e) || !slices.ContainsFunc(dicts, func(d dictBuilder) bool { return d.wants(oldRows[row]) }) {
			continue
		}
		fl, err := decodeFile(blob)
		if err != nil {
			continue // no words of it in the dictionaries: it is read as missing anyway
		}
		e.phrases = PhraseMask(fl.Phrases)
		for _, d := range dicts {
			if d.wants(oldRows[row]) {
				d.row(int32(row), fl)
			}
		}
	}
	var offs [3]int64
	var crcs [3]uint32
	for i, d := range dicts {
		offs[i] = w.n
		if crcs[i], err = d.write(w); err != nil {
			return err
		}
	}
	tableOff := w.n
	tb := encodeTable(table)
	w.write(tb)
	foot := binary.LittleEndian.AppendUint64(nil, uint64(tableOff))
	foot = binary.LittleEndian.AppendUint64(foot, uint64(len(table)))
	for _, off := range offs {
		foot = binary.LittleEndian.AppendUint64(foot, uint64(off))
	}
	foot = binary.LittleEndian.AppendUint32(foot, tableCRC(head, tb, foot))
	for _, crc := range crcs {
		foot = binary.LittleEndian.AppendUint32(foot, crc)
	}
	w.write(append(foot, footMagic...))
	if w.err == nil {
		w.err = w.w.(*bufio.Writer).Flush()
	}
	if w.err != nil {
		return w.err
	}
	return pf.Commit()
}

// scratch is a scratch file in the index directory, made by the confined
// writer, for a tape.
func (ix *Index) scratch() (*os.File, func(), error) {
	anchor := ix.anchor
	if anchor == "" {
		anchor = ix.dir
	}
	d, err := openPrivate(anchor, ix.dir, ix.inTree)
	if err != nil {
		return nil, nil, err
	}
	defer d.Close()
	return d.Scratch(fileName)
}

// source is where an entry's bytes are read from for a write: the spill
// (a new entry) or the index file.
type source struct {
	spill bool
	off   int64
}

// plan is the table of the index about to be written, where each row's
// bytes come from, and the row each is copied from in the old table (-1
// for a new entry).
func (ix *Index) plan(files []walk.File) (table []entry, srcs []source, oldRows []int) {
	for _, f := range files {
		e := entry{path: f.Path}
		if p, ok := ix.puts[f.Path]; ok {
			e.size, e.id, e.racy, e.skip, e.unindex, e.phrases, e.tally = p.size, p.id, p.racy, p.skip, p.unindex, p.phrases, p.tally
			e.len, e.crc = p.len, p.crc
			table, srcs, oldRows = append(table, e), append(srcs, source{spill: true, off: p.off}), append(oldRows, -1)
			continue
		}
		row := ix.reusable(f)
		if row < 0 {
			continue
		}
		table, srcs, oldRows = append(table, ix.table[row]), append(srcs, source{off: ix.table[row].off}), append(oldRows, row)
	}
	return table, srcs, oldRows
}

// readEntry reads an entry's bytes (len(b) of them) from src.
func (ix *Index) readEntry(src source, b []byte) error {
	switch {
	case len(b) == 0:
		return nil
	case src.spill:
		_, err := ix.spill.ReadAt(b, src.off)
		return err
	case ix.file != nil:
		_, err := ix.file.ReadAt(b, src.off)
		return err
	}
	copy(b, ix.data[src.off:])
	return nil
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
		flags |= e.phrases << 3
		b = binary.AppendUvarint(b, flags)
		b = binary.AppendUvarint(b, uint64(e.off))
		b = binary.AppendUvarint(b, uint64(e.len))
		b = binary.LittleEndian.AppendUint32(b, e.crc)
		b = binary.AppendUvarint(b, uint64(len(e.tally)))
		b = append(b, e.tally...)
	}
	return b
}

// tableCRC is the checksum of the header, the table and the footer's
// offsets.
func tableCRC(head, table, offsets []byte) uint32 {
	c := crc32.Checksum(head, castagnoli)
	c = crc32.Update(c, castagnoli, table)
	return crc32.Update(c, castagnoli, offsets)
}

// sections are what parse finds in an index file.
type sections struct {
	table             []entry
	sameFP            bool
	dict, names       []byte
	seps              []byte
	dictCRC, namesCRC uint32
	sepsCRC           uint32
}

// parse checks an index file's header, footer and table and reads the
// table; the dictionary and the entries are checked when first used.
func parse(data []byte, fp [sha256.Size]byte) (sections, error) {
	var sec sections
	if len(data) < headerLen+footerLen || string(data[:len(magic)]) != magic {
		return sec, errors.New("not an rtch index (torn or foreign file)")
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != Version {
		return sec, fmt.Errorf("format version %d, this build reads %d", v, Version)
	}
	foot := data[len(data)-footerLen:]
	if string(foot[footerLen-len(footMagic):]) != footMagic {
		return sec, errors.New("truncated (no footer)")
	}
	le := binary.LittleEndian
	tableOff, n, dictOff, namesOff, sepsOff := le.Uint64(foot), le.Uint64(foot[8:]), le.Uint64(foot[16:]), le.Uint64(foot[24:]), le.Uint64(foot[32:])
	if dictOff < uint64(headerLen) || namesOff < dictOff || sepsOff < namesOff || tableOff < sepsOff || tableOff > uint64(len(data)-footerLen) {
		return sec, errors.New("bad section offsets (corrupt)")
	}
	tb := data[tableOff : len(data)-footerLen]
	if tableCRC(data[:headerLen], tb, foot[:40]) != le.Uint32(foot[40:]) {
		return sec, errors.New("checksum mismatch in the table (corrupt)")
	}
	d := decoder{b: tb}
	// n is under the table's checksum; a row takes at least 11 bytes.
	sec.table = make([]entry, 0, min(n, uint64(len(tb))/11))
	for i := uint64(0); i < n && d.err == nil; i++ {
		e := entry{path: string(d.bytes(d.count()))}
		e.size = int64(d.uv())
		e.id.Dev, e.id.Ino = d.uv(), d.uv()
		e.id.MtimeNs, e.id.CtimeNs = d.v(), d.v()
		flags := d.uv()
		e.racy, e.skip, e.unindex, e.phrases = flags&1 != 0, flags&2 != 0, flags&4 != 0, flags>>3
		e.off, e.len = int64(d.uv()), int64(d.uv())
		if c := d.bytes(4); c != nil {
			e.crc = le.Uint32(c)
		}
		if t := d.bytes(d.count()); len(t) > 0 {
			e.tally = t
		}
		if d.err == nil && (e.off < int64(headerLen) || e.off+e.len > int64(dictOff) || (len(sec.table) > 0 && sec.table[len(sec.table)-1].path >= e.path)) {
			return sec, errors.New("bad entry (corrupt)")
		}
		sec.table = append(sec.table, e)
	}
	if d.err != nil {
		return sec, fmt.Errorf("table: %v (corrupt)", d.err)
	}
	sec.sameFP = bytes.Equal(data[len(magic)+4:headerLen], fp[:])
	sec.dict, sec.dictCRC = data[dictOff:namesOff], le.Uint32(foot[44:])
	sec.names, sec.namesCRC = data[namesOff:sepsOff], le.Uint32(foot[48:])
	sec.seps, sec.sepsCRC = data[sepsOff:tableOff], le.Uint32(foot[52:])
	return sec, nil
}
