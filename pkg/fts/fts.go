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
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
// (10: frontmatter values and keys redacted where they are read, pkg/wiki:
// an index written before may hold one in a page's stored metadata.)
// (11: the index records the file it was built in, checkFileID.)
// (12: no sections, title or aliases of a page whose sensitivity is
// secret, StoredSections.)
const schemaVersion = "guild-wiki-fts-12"

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
	if err := checkFileID(ctx, db, ix.path); err != nil {
		db.Close()
		return err
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
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('schema', ?), ('file', ?)`, schemaVersion, fileID(tmpPath)); err != nil {
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

// checkFileID refuses an index that was not built in the file it is read
// from. An index is only ever written in place or built in a temporary
// file renamed over it, so its file keeps the inode it was built with; a
// copy (a wiki.sqlite committed to the repository, or unpacked with it)
// has another. Such an index is a hostile tree's if anyone's: its rows
// carry a page's hash with text and provenance that need not be the
// page's (a refresh keeps the rows of a page whose hash is unchanged), so
// it is rebuilt from the wiki, never read.
func checkFileID(ctx context.Context, q reader, path string) error {
	var stored string
	if err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key='file'`).Scan(&stored); err != nil {
		return fmt.Errorf("unreadable index: no file identity: %v", err)
	}
	if id := fileID(path); stored != "" && id != "" && id != stored {
		return errors.New("index built in another file (copied, or shipped with the tree)")
	}
	return nil
}

func isCorrupt(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "malformed") || strings.Contains(s, "corrupt") ||
		strings.Contains(s, "not a database") || strings.Contains(s, "no such table") ||
		strings.Contains(s, "fts5")
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
