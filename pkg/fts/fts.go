// Package fts is the persistent wiki index: an SQLite FTS5 database (pure Go,
// modernc.org/sqlite) at .guild/indexes/wiki.sqlite holding every section of
// every wiki page, refreshed incrementally by content hash.
//
// Consistency rules:
//
//   - A refresh compares each page's size, modification time, change time
//     (ctime) and inode number with the stored ones and re-reads only pages
//     that differ (or were modified or changed within racyWindow of being
//     indexed, as git does for racy entries); a re-read page whose SHA-256 is
//     unchanged is not re-indexed. The ctime makes an edit that keeps the
//     size and sets the mtime back (touch -d, os.Chtimes) visible: no
//     program can set the ctime. Where the platform reports no ctime or
//     inode (not unix) the check rests on size and mtime alone.
//   - Each write also stores the listing digest: a SHA-256 over every indexed
//     page's path, size, mtime, ctime and inode, written only when no page is
//     racy. A refresh whose own listing has the same digest is a no-op
//     without reading the stored per-page manifest; any other listing is
//     compared page by page as above. A file must still be stat'ed on every
//     refresh: an edit in place changes only the file's own times, not its
//     directory's. Additions, changes
//     and deletions are applied in one IMMEDIATE transaction, so a concurrent
//     reader sees the old index or the new one, never a mixture, and two
//     refreshing processes serialise on SQLite's lock (busy timeout).
//   - A first build, and the rebuild of an index that cannot be trusted, is
//     written to a temporary file in the same directory and renamed over the
//     old one: the path holds a whole index or none.
//   - An index that fails to open, has another schema version, or reports
//     corruption while being read is never trusted: it is rebuilt from the
//     wiki and the caller is told why (Stats.Rebuilt), so it can warn.
//
// Documents are sections (a heading and its text); their terms come from
// pkg/bm25's identifier-aware tokenizer and are stored space-separated in a
// contentless FTS5 column whose tokenizer keeps '.', '_' and '-' inside
// tokens, so the index matches exactly what the in-memory BM25 would.
package fts

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtch/rtch/pkg/wiki"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// RelPath is where the index lives under a project root.
const RelPath = ".guild/indexes/wiki.sqlite"

// schemaVersion changes whenever the tables or the tokenizer change; an index
// with another version is rebuilt.
// (8: a page whose path holds a secret is stored under its redacted path,
// names.go.)
// (9: heading path terms counted twice.)
const schemaVersion = "guild-wiki-fts-9"

// racyWindow: a page modified this close to the moment it was indexed is
// re-hashed on the next refresh, because a second write inside the file
// system's timestamp granularity would leave size and mtime unchanged.
const racyWindow = int64(2 * time.Second)

const schemaSQL = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE pages(
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	hash TEXT NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	ctime INTEGER NOT NULL,
	ino INTEGER NOT NULL,
	indexed_at INTEGER NOT NULL,
	category TEXT NOT NULL,
	importance INTEGER NOT NULL,
	page TEXT NOT NULL,
	diags TEXT NOT NULL
);
CREATE TABLE sections(
	id INTEGER PRIMARY KEY,
	page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
	ord INTEGER NOT NULL,
	heading TEXT NOT NULL,
	start_line INTEGER NOT NULL,
	end_line INTEGER NOT NULL,
	text TEXT NOT NULL,
	len INTEGER NOT NULL
);
CREATE TABLE terms(term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX sections_page ON sections(page_id);
CREATE INDEX pages_with_diags ON pages(path) WHERE diags != 'null';
CREATE TABLE supersedes(page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE, target TEXT NOT NULL);
CREATE INDEX supersedes_page ON supersedes(page_id);
CREATE VIRTUAL TABLE sections_fts USING fts5(
	terms, meta, content='', contentless_delete=1,
	tokenize="unicode61 remove_diacritics 0 tokenchars '._-'"
);
INSERT INTO sections_fts(sections_fts, rank) VALUES('rank', 'bm25(1.0, 0.0)');
`

// MetaTokens is the meta column of a section: its page's category and
// importance as tokens ("cat_decision imp_ge1 imp_ge2 imp_ge3", or
// "imp_unset"), so Search can filter inside FTS5 and rank only sections that
// can be returned (it does for the category). The column has weight 0 in
// the rank: it never changes a score.
func MetaTokens(category string, importance int) string {
	var b strings.Builder
	b.WriteString(CategoryToken(category))
	if importance <= 0 {
		b.WriteString(" imp_unset")
	}
	for i := 1; i <= importance && i <= 5; i++ {
		fmt.Fprintf(&b, " imp_ge%d", i)
	}
	return b.String()
}

// CategoryToken is the key a page category is filtered by: "cat_" and the
// lowercased category with anything but letters and digits made "_"
// ("cat_none" when empty). The postgres backend stores the same key.
func CategoryToken(c string) string {
	c = strings.ToLower(c)
	if c == "" {
		return "cat_none"
	}
	return "cat_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, c)
}

// PageMeta is what the index keeps about a page besides its sections: enough
// to classify its chunks without reading the file again.
type PageMeta struct {
	// Category is the page type (frontmatter type or folder).
	Category string `json:"category"`
	// Title is the page title.
	Title string `json:"title"`
	// Front is the accepted frontmatter (zero when absent or rejected).
	Front wiki.Frontmatter `json:"front"`
	// HasFront reports accepted frontmatter.
	HasFront bool `json:"has_front"`
}

// Stats count what one Open/Refresh did.
type Stats struct {
	// Pages is the number of pages in the index afterwards.
	Pages int
	// Added, Changed and Deleted pages were (re)indexed or removed.
	Added, Changed, Deleted int
	// Unchanged pages kept their rows (Rehashed of them were re-read and
	// found byte-identical).
	Unchanged, Rehashed int
	// Rebuilt is non-empty when the whole index was rebuilt, and says why.
	Rebuilt string
}

// Reindexed is the number of pages whose sections were written.
func (s Stats) Reindexed() int { return s.Added + s.Changed }

// Index is an open wiki index.
type Index struct {
	db   *sql.DB
	root string
	path string
	max  int64
	// fi identifies the file db was opened on, to notice a rebuild by
	// another process (the path then names a new file).
	fi os.FileInfo
	// locked is true while this process holds the writers' lock.
	locked bool
	// conn, when set, is a connection inside a read transaction that every
	// read goes to (a Snapshot); db is then only its pool.
	conn *sql.Conn
}

// reader is what the read queries run on: the snapshot's connection, or the
// database.
type reader interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func (ix *Index) reader() reader {
	if ix.conn != nil {
		return ix.conn
	}
	return ix.db
}

// lock takes the writers' lock, a flock on wiki.sqlite.lock beside the index:
// every write to the index (a refresh transaction, a rebuild and its rename)
// happens under it, so a rebuild never replaces the file under a live writer
// and a journal beside the index can only be a crashed writer's.
func (ix *Index) lock(ctx context.Context) (func(), error) {
	if ix.locked {
		return func() {}, nil
	}
	d, err := openIndexDir(ix.root, true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := d.OpenLock(dbName+".lock", 0o644)
	if err != nil {
		return nil, err
	}
	unlock, err := lockPath(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("lock %s.lock: %w", RelPath, err)
	}
	ix.locked = true
	return func() { ix.locked = false; unlock() }, nil
}

// current reopens the index when another process replaced the file since it
// was opened. Call it under the lock.
func (ix *Index) current(ctx context.Context) error {
	fi, err := os.Stat(ix.path)
	if err == nil && ix.fi != nil && os.SameFile(fi, ix.fi) {
		return nil
	}
	ix.Close()
	return ix.open(ctx)
}

// Options configure Open.
type Options struct {
	// MaxPageBytes skips larger pages (wiki.DefaultMaxFileBytes when zero).
	MaxPageBytes int64
	// Now stamps indexed_at (time.Now when nil).
	Now func() time.Time
	// Files, when not nil, is the caller's wiki.List of the root (with its
	// diagnostics in ListDiags), so the tree is not walked twice.
	Files     []wiki.File
	ListDiags []wiki.Diagnostic
	// Progress, when set, is called as pages are (re)indexed with the
	// number done and the number to do, and once more with done == total.
	Progress func(done, total int)
}

// Open opens (building or rebuilding as needed) the index of the wiki under
// root, refreshes it, and returns it with what the refresh did and the wiki
// diagnostics of every indexed page. The caller must Close it.
func Open(ctx context.Context, root string, opt Options) (*Index, Stats, []wiki.Diagnostic, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	ix := &Index{root: root, path: filepath.Join(root, filepath.FromSlash(RelPath)), max: opt.MaxPageBytes}
	var st Stats
	if err := checkIndexFiles(root); err != nil {
		return nil, st, nil, err
	}
	if opt.Files == nil {
		// One walk serves the build and the refresh of this Open.
		var err error
		if opt.Files, opt.ListDiags, err = wiki.List(root, opt.MaxPageBytes); err != nil {
			return nil, st, nil, err
		}
	}
	var reason string
	if _, err := os.Stat(ix.path); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return nil, st, nil, err
		}
		reason = "-"
	} else if err := ix.open(ctx); err != nil {
		reason = err.Error()
	}
	built := false
	if reason != "" {
		unlock, err := ix.lock(ctx)
		if err != nil {
			return nil, st, nil, err
		}
		// Another process may have built or repaired the index while this
		// one waited for the lock.
		if _, serr := os.Stat(ix.path); serr == nil && ix.open(ctx) == nil {
			reason = ""
		} else if err := ix.rebuild(ctx, opt); err != nil {
			unlock()
			return nil, st, nil, err
		} else {
			built = true
			if reason != "-" {
				st.Rebuilt = reason
			}
		}
		unlock()
	}
	s, diags, err := ix.refresh(ctx, opt)
	if err != nil && isCorrupt(err) && st.Rebuilt == "" {
		ix.Close()
		if err := ix.rebuild(ctx, opt); err != nil {
			return nil, st, nil, err
		}
		st.Rebuilt = err.Error()
		s, diags, err = ix.refresh(ctx, opt)
	}
	if err != nil {
		ix.Close()
		return nil, st, nil, fmt.Errorf("%s: %w", RelPath, err)
	}
	s.Rebuilt = st.Rebuilt
	if built || st.Rebuilt != "" {
		// A fresh build counts every page as added, whatever refresh saw.
		s.Added, s.Changed, s.Unchanged, s.Rehashed = s.Pages, 0, 0, 0
	}
	return ix, s, diags, nil
}

// Close releases the database.
func (ix *Index) Close() error {
	if ix.db == nil {
		return nil
	}
	if ix.conn != nil {
		// The snapshot only read: end its transaction either way.
		ix.conn.ExecContext(context.Background(), `ROLLBACK`)
		ix.conn.Close()
		ix.conn = nil
	}
	err := ix.db.Close()
	ix.db = nil
	return err
}

func dsn(path string) string {
	return "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(DELETE)&_txlock=immediate"
}

// open opens the existing file and checks it is an index of this schema.
func (ix *Index) open(ctx context.Context) error {
	if err := checkIndexFiles(ix.root); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", dsn(ix.path))
	if err != nil {
		return err
	}
	var v string
	if err := db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key='schema'`).Scan(&v); err != nil {
		db.Close()
		return fmt.Errorf("unreadable index: %v", err)
	}
	if v != schemaVersion {
		db.Close()
		return fmt.Errorf("index schema %q, want %q", v, schemaVersion)
	}
	ix.db = db
	ix.fi, _ = os.Stat(ix.path)
	return nil
}

// rebuild writes an empty index of the current schema to a temporary file
// and renames it over the old one; refresh then fills it. The pages are
// indexed into the temporary file first so the rename publishes a complete
// index.
func (ix *Index) rebuild(ctx context.Context, opt Options) error {
	unlock, err := ix.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	ix.Close()
	d, err := openIndexDir(ix.root, true)
	if err != nil {
		return err
	}
	defer d.Close()
	tmp, err := d.CreateTemp(dbName, 0o644)
	if err != nil {
		return err
	}
	tmpPath := d.Name(tmp)
	ok := false
	defer func() {
		if !ok {
			d.Remove(tmp)
			d.Remove(tmp + "-journal")
		}
	}()
	db, err := sql.Open("sqlite", dsn(tmpPath))
	if err != nil {
		return err
	}
	t := &Index{db: db, root: ix.root, path: tmpPath, max: ix.max, locked: true}
	// One transaction for the whole schema: one journal and sync instead of
	// one per statement.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		return err
	}
	if _, err := tx.ExecContext(ctx, schemaSQL); err != nil {
		tx.Rollback()
		db.Close()
		return fmt.Errorf("create index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('schema', ?)`, schemaVersion); err != nil {
		tx.Rollback()
		db.Close()
		return err
	}
	if err := tx.Commit(); err != nil {
		db.Close()
		return err
	}
	if _, _, err := t.refresh(ctx, opt); err != nil {
		db.Close()
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	// Under the writers' lock a journal beside the index can only be a
	// crashed writer's; it must not be replayed into the new file.
	if err := d.Remove(dbName + "-journal"); err != nil {
		return err
	}
	if err := d.Rename(tmp, dbName); err != nil {
		return err
	}
	ok = true
	return ix.open(ctx)
}

func isCorrupt(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "malformed") || strings.Contains(s, "corrupt") ||
		strings.Contains(s, "not a database") || strings.Contains(s, "no such table") ||
		strings.Contains(s, "fts5")
}

type stored struct {
	id                                 int64
	hash                               string
	size, mtime, ctime, ino, indexedAt int64
}

// refresh brings the index in line with the wiki on disk.
func (ix *Index) refresh(ctx context.Context, opt Options) (Stats, []wiki.Diagnostic, error) {
	var st Stats
	files, diags := opt.Files, opt.ListDiags
	if files == nil {
		var err error
		if files, diags, err = wiki.List(ix.root, ix.max); err != nil {
			return st, nil, err
		}
	}
	diags = append([]wiki.Diagnostic(nil), diags...)
	digest, pages, ok, err := ix.listing(ctx)
	if err != nil {
		return st, nil, err
	}
	if ok && digest == listingDigest(files) {
		st.Unchanged, st.Pages = len(files), pages
		pd, err := ix.pageDiags(ctx)
		if err != nil {
			return st, nil, err
		}
		return st, append(diags, pd...), nil
	}
	names := StoredNames(files)
	have, err := ix.storedPages(ctx, ix.db)
	if err != nil {
		return st, nil, err
	}
	if needsWrite(files, names, have) {
		unlock, err := ix.lock(ctx)
		if err != nil {
			return st, nil, err
		}
		defer unlock()
		if err := ix.current(ctx); err != nil {
			return st, nil, err
		}
		tx, err := ix.db.BeginTx(ctx, nil)
		if err != nil {
			return st, nil, err
		}
		// BEGIN IMMEDIATE (the DSN's _txlock) holds the write lock from
		// here on; recompute against what is stored under the lock, so two
		// refreshing processes never apply the same change twice.
		have, err = ix.storedPages(ctx, tx)
		if err != nil {
			tx.Rollback()
			return st, nil, err
		}
		var rdiags []wiki.Diagnostic
		st, rdiags, err = ix.apply(ctx, tx, files, names, have, opt.Now().UnixNano(), opt.Progress)
		if err != nil {
			tx.Rollback()
			return st, nil, err
		}
		diags = append(diags, rdiags...)
		// apply left in have what the pages table now holds.
		if err := writeManifest(ctx, tx, files, names, have); err != nil {
			tx.Rollback()
			return st, nil, err
		}
		if err := tx.Commit(); err != nil {
			return st, nil, err
		}
	} else {
		st.Unchanged = len(files)
	}
	st.Pages = len(have) // the manifest lists exactly the pages table
	pd, err := ix.pageDiags(ctx)
	if err != nil {
		return st, nil, err
	}
	return st, append(diags, pd...), nil
}

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// storedPages reads the manifest: one meta row holding every page's id,
// size, mtime, indexed_at, hash and path, rewritten by each write
// transaction. Reading one value instead of a row per page keeps a no-change
// refresh of a large wiki cheap.
func (ix *Index) storedPages(ctx context.Context, q querier) (map[string]stored, error) {
	rows, err := q.QueryContext(ctx, `SELECT value FROM meta WHERE key='manifest'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]stored{}
	if !rows.Next() {
		return have, rows.Err()
	}
	var m string
	if err := rows.Scan(&m); err != nil {
		return nil, err
	}
	have = make(map[string]stored, strings.Count(m, "\n"))
	for len(m) > 0 {
		line := m
		if i := strings.IndexByte(m, '\n'); i >= 0 {
			line, m = m[:i], m[i+1:]
		} else {
			m = ""
		}
		var f [8]string
		for k := 0; k < 7; k++ {
			i := strings.IndexByte(line, '\t')
			if i < 0 {
				return nil, fmt.Errorf("index manifest is corrupt")
			}
			f[k], line = line[:i], line[i+1:]
		}
		f[7] = line
		var s stored
		var err error
		for i, dst := range []*int64{&s.id, &s.size, &s.mtime, &s.ctime, &s.ino, &s.indexedAt} {
			if *dst, err = strconv.ParseInt(f[i], 10, 64); err != nil {
				return nil, fmt.Errorf("index manifest is corrupt: %v", err)
			}
		}
		s.hash = f[6]
		p := f[7]
		if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' && strings.IndexByte(p, '\\') < 0 {
			p = p[1 : len(p)-1]
		} else if p, err = strconv.Unquote(p); err != nil {
			return nil, fmt.Errorf("index manifest is corrupt: %v", err)
		}
		have[p] = s
	}
	return have, rows.Err()
}

// writeManifest writes the manifest and the listing digest for the pages
// table as it now is (pages: what apply left, keyed by stored name; files
// the listing it applied). The digest is that of the listed files the table
// holds, and is stored only when no page is racy, so that a listing
// matching it is one refresh would find entirely fresh.
func writeManifest(ctx context.Context, tx *sql.Tx, files []wiki.File, names Names, pages map[string]stored) error {
	paths := make([]string, 0, len(pages))
	for p := range pages {
		paths = append(paths, p)
	}
	slices.Sort(paths) // byte order, as SQLite's BINARY collation
	b := make([]byte, 0, len(pages)*120)
	for _, path := range paths {
		s := pages[path]
		for _, n := range []int64{s.id, s.size, s.mtime, s.ctime, s.ino, s.indexedAt} {
			b = strconv.AppendInt(b, n, 10)
			b = append(b, '\t')
		}
		b = append(b, s.hash...)
		b = append(b, '\t')
		b = strconv.AppendQuote(b, path)
		b = append(b, '\n')
	}
	listed := make([]wiki.File, 0, len(pages))
	racy := false
	for _, f := range files {
		s, ok := pages[names.Of(f.Path)]
		if !ok {
			continue
		}
		f = wiki.File{Path: f.Path, Size: s.size, ModTime: s.mtime, ChangeTime: s.ctime, Inode: uint64(s.ino)}
		racy = racy || !fresh(f, s)
		listed = append(listed, f)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('manifest', ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value`, string(b)); err != nil {
		return err
	}
	if racy {
		_, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key='listing'`)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('listing', ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value`,
		listingDigest(listed)+"\t"+strconv.Itoa(len(listed)))
	return err
}

// listingDigest is the SHA-256 of a sorted listing's paths, sizes, mtimes,
// ctimes and inode numbers.
func listingDigest(files []wiki.File) string {
	h := sha256.New()
	buf := make([]byte, 0, 256)
	for _, f := range files {
		buf = append(buf[:0], f.Path...)
		buf = append(buf, 0)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(f.Size))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(f.ModTime))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(f.ChangeTime))
		buf = binary.LittleEndian.AppendUint64(buf, f.Inode)
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// listing reads the stored listing digest and page count; ok is false when
// there is none (the last write left a racy page).
func (ix *Index) listing(ctx context.Context) (digest string, pages int, ok bool, err error) {
	var v string
	err = ix.reader().QueryRowContext(ctx, `SELECT value FROM meta WHERE key='listing'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, err
	}
	digest, n, found := strings.Cut(v, "\t")
	if pages, err = strconv.Atoi(n); !found || err != nil {
		return "", 0, false, fmt.Errorf("index listing digest is corrupt")
	}
	return digest, pages, true, nil
}

// fresh reports whether a stored page can be trusted without reading it.
func fresh(f wiki.File, s stored) bool {
	return f.Size == s.size && f.ModTime == s.mtime && f.ChangeTime == s.ctime && int64(f.Inode) == s.ino &&
		s.indexedAt-s.mtime > racyWindow && s.indexedAt-s.ctime > racyWindow
}

func needsWrite(files []wiki.File, names Names, have map[string]stored) bool {
	if len(files) != len(have) {
		return true
	}
	for _, f := range files {
		s, ok := have[names.Of(f.Path)]
		if !ok || !fresh(f, s) {
			return true
		}
	}
	return false
}

// apply brings the pages table in line with files and updates have (the
// stored rows by stored name) to match what it wrote.
func (ix *Index) apply(ctx context.Context, tx *sql.Tx, files []wiki.File, names Names, have map[string]stored, now int64, progress func(done, total int)) (Stats, []wiki.Diagnostic, error) {
	var st Stats
	var diags []wiki.Diagnostic
	var ins *stmts
	onDisk := map[string]bool{}
	var delta corpusDelta
	drop := func(id int64) error {
		if err := delta.forget(ctx, tx, id); err != nil {
			return err
		}
		return deletePage(ctx, tx, id)
	}
	if progress != nil {
		defer func() { progress(len(files), len(files)) }()
	}
	// The pages to re-read are read, parsed and tokenized ahead on other
	// goroutines (readAhead); this loop applies them in listing order.
	// The workers get their own copy of the stored rows they compare with:
	// this loop updates have as it goes.
	var stale []wiki.File
	var prior []*stored
	for _, f := range files {
		if s, ok := have[names.Of(f.Path)]; !ok || !fresh(f, s) {
			stale = append(stale, f)
			if ok {
				prior = append(prior, &s)
			} else {
				prior = append(prior, nil)
			}
		}
	}
	next, stop := readAhead(ix.root, stale, names, prior)
	defer stop()
	for i, f := range files {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return st, nil, err
			}
			if progress != nil && i > 0 {
				progress(i, len(files))
			}
		}
		name := names.Of(f.Path)
		onDisk[name] = true
		s, ok := have[name]
		if ok && fresh(f, s) {
			st.Unchanged++
			continue
		}
		pr := next()
		p, err := pr.page, pr.err
		if err != nil {
			diags = append(diags, wiki.ReadError(f.Path, err))
			if ok {
				if err := drop(s.id); err != nil {
					return st, nil, err
				}
				delete(have, name)
				st.Deleted++
			}
			continue
		}
		row := stored{hash: p.Hash, size: f.Size, mtime: f.ModTime, ctime: f.ChangeTime, ino: int64(f.Inode), indexedAt: now}
		if ok && p.Hash == s.hash {
			st.Unchanged++
			st.Rehashed++
			if _, err := tx.ExecContext(ctx, `UPDATE pages SET size=?, mtime=?, ctime=?, ino=?, indexed_at=? WHERE id=?`, f.Size, f.ModTime, f.ChangeTime, int64(f.Inode), now, s.id); err != nil {
				return st, nil, err
			}
			row.id = s.id
			have[name] = row
			continue
		}
		if ok {
			if err := drop(s.id); err != nil {
				return st, nil, err
			}
			st.Changed++
		} else {
			st.Added++
		}
		if ins == nil {
			var err error
			if ins, err = prepare(ctx, tx); err != nil {
				return st, nil, err
			}
		}
		if row.id, err = insertPage(ctx, ins, f, name, pr, now, &delta); err != nil {
			return st, nil, err
		}
		have[name] = row
	}
	for path, s := range have {
		if !onDisk[path] {
			if err := drop(s.id); err != nil {
				return st, nil, err
			}
			delete(have, path)
			st.Deleted++
		}
	}
	return st, diags, delta.write(ctx, tx)
}

func deletePage(ctx context.Context, tx *sql.Tx, id int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM sections_fts WHERE rowid IN (SELECT id FROM sections WHERE page_id=?)`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sections WHERE page_id=?`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM supersedes WHERE page_id=?`, id); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM pages WHERE id=?`, id)
	return err
}

// stmts are the inserts of one refresh, prepared once per transaction.
type stmts struct {
	page, section, fts, supersedes *sql.Stmt
}

func prepare(ctx context.Context, tx *sql.Tx) (*stmts, error) {
	var st stmts
	var err error
	for _, x := range []struct {
		dst **sql.Stmt
		q   string
	}{
		{&st.page, `INSERT INTO pages(path, hash, size, mtime, ctime, ino, indexed_at, category, importance, page, diags) VALUES(?,?,?,?,?,?,?,?,?,?,?)`},
		{&st.section, `INSERT INTO sections(page_id, ord, heading, start_line, end_line, text, len) VALUES(?,?,?,?,?,?,?)`},
		{&st.fts, `INSERT INTO sections_fts(rowid, terms, meta) VALUES(?, ?, ?)`},
		{&st.supersedes, `INSERT INTO supersedes(page_id, target) VALUES(?, ?)`},
	} {
		if *x.dst, err = tx.PrepareContext(ctx, x.q); err != nil {
			return nil, err
		}
	}
	return &st, nil
}

// readPage is a page read, parsed and prepared for insertion.
type readPage struct {
	page  *wiki.Page
	diags []wiki.Diagnostic
	err   error
	// terms are the FTS5 terms of each section, space-separated, and stats
	// its length and distinct terms; meta and diagsJSON the page's stored
	// columns. They are empty when the page's hash is the stored one
	// (nothing will be inserted).
	terms           []string
	stats           []sectionStats
	meta, diagsJSON string
	done            chan struct{}
}

// prepareRead reads f and, unless its content is the stored one, prepares its
// rows, for the page stored under name.
func prepareRead(root string, f wiki.File, name string, s stored, known bool) *readPage {
	r := &readPage{}
	r.page, r.diags, r.err = wiki.Read(root, f)
	if r.err != nil || known && r.page.Hash == s.hash {
		return r
	}
	p := r.page
	meta, err := json.Marshal(StoredMeta(p))
	if err != nil {
		r.err = err
		return r
	}
	dj, err := json.Marshal(StoredDiags(r.diags, f.Path, name))
	if err != nil {
		r.err = err
		return r
	}
	r.meta, r.diagsJSON = string(meta), string(dj)
	r.terms = make([]string, len(p.Sections))
	r.stats = make([]sectionStats, len(p.Sections))
	for i, sec := range p.Sections {
		r.terms[i], r.stats[i] = indexSection(NameOf(p), sec.HeadingPath(), sec.Text)
	}
	return r
}

// readAheadWindow bounds how many prepared pages wait to be applied.
const readAheadWindow = 64

// readAhead prepares the files (with their stored names and rows, nil when
// new) on GOMAXPROCS goroutines, at most readAheadWindow ahead of the
// consumer. next returns them in order (call
// it exactly once per file); stop releases the workers when the consumer
// quits early.
func readAhead(root string, files []wiki.File, names Names, prior []*stored) (next func() *readPage, stop func()) {
	slots := make([]*readPage, len(files))
	ready := make([]chan struct{}, len(files))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	window := make(chan struct{}, readAheadWindow)
	quit := make(chan struct{})
	var taken atomic.Int64
	for w := min(runtime.GOMAXPROCS(0), len(files)); w > 0; w-- {
		go func() {
			for {
				select {
				case window <- struct{}{}:
				case <-quit:
					return
				}
				i := int(taken.Add(1) - 1)
				if i >= len(files) {
					return
				}
				var s stored
				if prior[i] != nil {
					s = *prior[i]
				}
				slots[i] = prepareRead(root, files[i], names.Of(files[i].Path), s, prior[i] != nil)
				close(ready[i])
			}
		}()
	}
	k := 0
	next = func() *readPage {
		<-ready[k]
		r := slots[k]
		slots[k] = nil
		k++
		<-window
		return r
	}
	var once sync.Once
	return next, func() { once.Do(func() { close(quit) }) }
}

// insertPage inserts a prepared page under its stored name and returns its
// row id.
func insertPage(ctx context.Context, st *stmts, f wiki.File, name string, r *readPage, now int64, delta *corpusDelta) (int64, error) {
	p := r.page
	res, err := st.page.ExecContext(ctx, name, p.Hash, f.Size, f.ModTime, f.ChangeTime, int64(f.Inode), now, p.Category, p.Front.Importance, r.meta, r.diagsJSON)
	if err != nil {
		return 0, err
	}
	pid, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	for _, t := range storedTargets(p.Front.Supersedes) {
		if _, err := st.supersedes.ExecContext(ctx, pid, t); err != nil {
			return 0, err
		}
	}
	metaTok := MetaTokens(p.Category, p.Front.Importance)
	for i, s := range p.Sections {
		res, err := st.section.ExecContext(ctx, pid, i, s.HeadingPath(), s.StartLine, s.EndLine, s.Text, r.stats[i].len)
		if err != nil {
			return 0, err
		}
		sid, err := res.LastInsertId()
		if err != nil {
			return 0, err
		}
		if _, err := st.fts.ExecContext(ctx, sid, r.terms[i], metaTok); err != nil {
			return 0, err
		}
		delta.add(r.stats[i], 1)
	}
	return pid, nil
}

func (ix *Index) pageDiags(ctx context.Context) ([]wiki.Diagnostic, error) {
	rows, err := ix.reader().QueryContext(ctx, `SELECT diags FROM pages WHERE diags != 'null' ORDER BY path`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []wiki.Diagnostic
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		var d []wiki.Diagnostic
		if err := json.Unmarshal([]byte(s), &d); err != nil {
			return nil, fmt.Errorf("stored diagnostics: %w", err)
		}
		out = append(out, d...)
	}
	return out, rows.Err()
}
