package fts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rtch/rtch/pkg/wiki"
)

// Snapshot is a read-only view of an existing index inside one read
// transaction, opened without listing the wiki: a caller can search it while
// it lists the wiki, then keep the results only if Matches says the listing
// is the one the index was written for (and otherwise Open the index, which
// refreshes it, and search again). Every read of a Snapshot sees the same
// committed state, whatever other processes write meanwhile.
type Snapshot struct {
	ix     *Index
	digest string
	pages  int
}

// ErrNoSnapshot means the index cannot be read as a Snapshot: it is missing,
// of another schema, unreadable, or its last write left a racy page (no
// listing digest). Open handles each of these cases.
var ErrNoSnapshot = errors.New("no usable index snapshot")

// OpenSnapshot opens the index under root for reading. The caller must Close
// the Snapshot.
func OpenSnapshot(ctx context.Context, root string) (*Snapshot, error) {
	path := filepath.Join(root, filepath.FromSlash(RelPath))
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSnapshot, err)
	}
	if err := checkIndexFiles(root); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSnapshot, err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSnapshot, err)
	}
	ix := &Index{db: db, root: root, path: path}
	fail := func(err error) (*Snapshot, error) {
		ix.Close()
		return nil, fmt.Errorf("%w: %v", ErrNoSnapshot, err)
	}
	if ix.conn, err = db.Conn(ctx); err != nil {
		return fail(err)
	}
	if _, err := ix.conn.ExecContext(ctx, `BEGIN`); err != nil {
		return fail(err)
	}
	var v string
	if err := ix.conn.QueryRowContext(ctx, `SELECT value FROM meta WHERE key='schema'`).Scan(&v); err != nil {
		return fail(err)
	}
	if v != schemaVersion {
		return fail(fmt.Errorf("index schema %q", v))
	}
	if err := checkFileID(ctx, ix.conn, path); err != nil {
		return fail(err)
	}
	digest, pages, ok, err := ix.listing(ctx)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return fail(errors.New("no listing digest"))
	}
	return &Snapshot{ix: ix, digest: digest, pages: pages}, nil
}

// Pages is the number of pages in the snapshot.
func (s *Snapshot) Pages() int { return s.pages }

// Matches reports whether files (a wiki.List of the root) is the listing
// the snapshot was written for, so that a refresh would change nothing.
func (s *Snapshot) Matches(files []wiki.File) bool { return listingDigest(files) == s.digest }

// Stats are what Open would report for a matching listing of files pages.
func (s *Snapshot) Stats(files int) Stats { return Stats{Pages: s.pages, Unchanged: files} }

// Diagnostics are the stored wiki diagnostics of the indexed pages.
func (s *Snapshot) Diagnostics(ctx context.Context) ([]wiki.Diagnostic, error) {
	return s.ix.pageDiags(ctx)
}

// Search is Index.Search on the snapshot.
func (s *Snapshot) Search(ctx context.Context, query string, f Filter, limit int) ([]Hit, error) {
	return s.ix.Search(ctx, query, f, limit)
}

// Supersessions is Index.Supersessions on the snapshot.
func (s *Snapshot) Supersessions(ctx context.Context) ([]Supersession, error) {
	return s.ix.Supersessions(ctx)
}

// Close ends the read transaction and closes the database.
func (s *Snapshot) Close() error { return s.ix.Close() }
