package fts

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/wiki"
)

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
