package pgfts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/internal/parallel"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/wiki"
)

// wikiLockClass is the first key of a wiki's advisory lock (the second is
// hashtext of its name): "gw" in ASCII.
const wikiLockClass = 0x6777

// batchPages is how many page inserts go to the server in one round trip.
const batchPages = 128

// localPage is a readable page of the checkout: its content hash, and the
// parsed page when it was read on this run (nil when the hash came from the
// stat cache).
type localPage struct {
	hash  string
	page  *wiki.Page
	diags []wiki.Diagnostic
}

// refresh brings the named wiki in line with the pages under root.
func (ix *Index) refresh(ctx context.Context, root string, opt Options) (fts.Stats, []wiki.Diagnostic, error) {
	var st fts.Stats
	diags := append([]wiki.Diagnostic(nil), opt.ListDiags...)
	cache := loadState(root)
	now := opt.Now().UnixNano()
	pages, hashed, nread, rdiags := hashPages(root, opt.Files, cache, now)
	diags = append(diags, rdiags...)
	digest := digestOf(hashesOf(pages))
	var stored string
	var tree *string
	var n int
	err := ix.conn.QueryRow(ctx, `SELECT digest, pages, tree FROM guild_wikis WHERE wiki = $1`, ix.wiki).Scan(&stored, &n, &tree)
	switch {
	case err == nil && stored == digest && tree != nil && *tree == ix.tree && !ix.claim:
		st.Unchanged, st.Pages = len(pages), n
	case err == nil || errors.Is(err, pgx.ErrNoRows):
		var dead int64
		if st, dead, err = ix.write(ctx, root, byStoredName(pages, fts.StoredNames(opt.Files)), opt.Progress); err != nil {
			return st, nil, err
		}
		if err := ix.vacuum(ctx, dead); err != nil {
			if ctx.Err() != nil {
				return st, nil, ctx.Err()
			}
			diags = append(diags, wiki.Diagnostic{Path: "postgres " + ix.host, Message: "index tables not vacuumed: " + reason(err)})
		}
	default:
		return st, nil, err
	}
	// The cache is rewritten only when it would change: a recall of an
	// unchanged checkout writes nothing locally.
	if nread > 0 || len(hashed) != len(cache) {
		if err := saveState(root, opt.Files, hashed); err != nil {
			diags = append(diags, wiki.Diagnostic{Path: StatePath, Message: "stat cache not written: " + err.Error()})
		}
	}
	return st, diags, nil
}

// hashPages finds the content hash of every listed page, from the stat
// cache when it can be trusted, else by reading the page (on GOMAXPROCS
// goroutines). Unreadable pages become diagnostics and are not part of the
// wiki. It also returns the new cache and how many of its pages were read.
// The cache keeps no page whose path holds a secret: such a page is read
// on every refresh, as the tree index reads such a file.
func hashPages(root string, files []wiki.File, cache map[string]seen, now int64) (map[string]*localPage, map[string]seen, int, []wiki.Diagnostic) {
	type read struct {
		lp  *localPage
		err error
	}
	reads := make([]read, len(files))
	parallel.For(len(files), func(i int) {
		f := files[i]
		if s, ok := cache[f.Path]; ok && s.trusted(f) {
			reads[i].lp = &localPage{hash: s.hash}
			return
		}
		p, d, err := wiki.Read(root, f)
		if err != nil {
			reads[i].err = err
			return
		}
		reads[i].lp = &localPage{hash: p.Hash, page: p, diags: d}
	})
	pages := make(map[string]*localPage, len(files))
	hashed := make(map[string]seen, len(files))
	var diags []wiki.Diagnostic
	nread := 0
	for i, r := range reads {
		f := files[i]
		if r.err != nil {
			diags = append(diags, wiki.ReadError(f.Path, r.err))
			continue
		}
		pages[f.Path] = r.lp
		if r.lp.page != nil {
			if secret.InPath(f.Path) {
				continue
			}
			nread++
		}
		s := seen{size: f.Size, mtime: f.ModTime, ctime: f.ChangeTime, ino: int64(f.Inode), hashedAt: now, hash: r.lp.hash}
		if c, ok := cache[f.Path]; ok && r.lp.page == nil {
			s.hashedAt = c.hashedAt // trusted: keep when it was really hashed
		}
		hashed[f.Path] = s
	}
	return pages, hashed, nread, diags
}

func hashesOf(pages map[string]*localPage) map[string]string {
	out := make(map[string]string, len(pages))
	for p, lp := range pages {
		out[p] = lp.hash
	}
	return out
}

// digestOf is the listing digest: SHA-256 over the pages' paths and
// content hashes in byte order of the paths.
func digestOf(hashes map[string]string) string {
	paths := make([]string, 0, len(hashes))
	for p := range hashes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		h.Write([]byte(p))
		h.Write([]byte{0})
		h.Write([]byte(hashes[p]))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// named is a readable page of the checkout under the name it is stored
// under (fts.StoredNames): its path and what hashPages found.
type named struct {
	path string
	*localPage
}

func byStoredName(pages map[string]*localPage, names fts.Names) map[string]named {
	out := make(map[string]named, len(pages))
	for p, lp := range pages {
		out[names.Of(p)] = named{p, lp}
	}
	return out
}

// write applies the checkout (its pages by stored name) to the stored wiki
// in one transaction under the wiki's advisory lock, comparing with the
// rows as they are once the lock is held.
//
// It also returns how many rows it left dead (the sections and pages of
// every page deleted or rewritten, and the document frequencies it
// updated), for vacuum.
func (ix *Index) write(ctx context.Context, root string, pages map[string]named, progress func(done, total int)) (fts.Stats, int64, error) {
	var st fts.Stats
	var dead int64
	err := pgx.BeginFunc(ctx, ix.conn, func(tx pgx.Tx) error {
		st, dead = fts.Stats{}, 0
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, int32(wikiLockClass), ix.wiki); err != nil {
			return err
		}
		if err := ix.bind(ctx, tx); err != nil {
			return err
		}
		have, err := storedHashes(ctx, tx, ix.wiki)
		if err != nil {
			return err
		}
		var drop []int64
		var put []string
		for p, s := range have {
			if lp, ok := pages[p]; !ok {
				drop = append(drop, s.id)
				st.Deleted++
			} else if lp.hash != s.hash {
				drop = append(drop, s.id)
			}
		}
		for p, lp := range pages {
			s, ok := have[p]
			switch {
			case !ok:
				put = append(put, p)
				st.Added++
			case s.hash != lp.hash:
				put = append(put, p)
				st.Changed++
			default:
				st.Unchanged++
			}
		}
		sort.Strings(put)
		for _, q := range []string{forgetSQL, `DELETE FROM guild_sections WHERE wiki = $1 AND page_id = ANY($2)`,
			`DELETE FROM guild_pages WHERE wiki = $1 AND id = ANY($2)`} {
			tag, err := tx.Exec(ctx, q, ix.wiki, drop)
			if err != nil {
				return err
			}
			dead += tag.RowsAffected()
		}
		final, err := ix.insert(ctx, tx, root, put, pages, progress)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, countSQL, ix.wiki, put)
		if err != nil {
			return err
		}
		dead += tag.RowsAffected() // an upsert of an existing term leaves its old version
		if _, err := tx.Exec(ctx, `DELETE FROM guild_terms WHERE wiki = $1 AND df <= 0`, ix.wiki); err != nil {
			return err
		}
		for p, s := range have {
			if _, ok := pages[p]; ok && final[p] == "" {
				final[p] = s.hash // unchanged rows
			}
		}
		// The digest is over the checkout's own paths, as refresh computes it.
		digest := make(map[string]string, len(final))
		for p, h := range final {
			digest[pages[p].path] = h
		}
		st.Pages = len(final)
		_, err = tx.Exec(ctx, `UPDATE guild_wikis SET digest = $2, pages = $3, generation = generation + 1, updated_at = now(),
	sections = (SELECT count(*) FROM guild_sections WHERE wiki = $1),
	length = (SELECT coalesce(sum(len), 0) FROM guild_sections WHERE wiki = $1)
WHERE wiki = $1`, ix.wiki, digestOf(digest), len(final))
		return err
	})
	return st, dead, err
}

// bind creates the wiki's row bound to this tree, or checks that the
// existing row is bound to it, under the wiki's lock: a row bound to
// another tree is a *TreeError unless the caller claims the name; an
// unbound row (written before the binding existed) is bound now.
func (ix *Index) bind(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `INSERT INTO guild_wikis(wiki, digest, pages, generation, updated_at, tree)
VALUES ($1, '', 0, 0, now(), $2) ON CONFLICT (wiki) DO NOTHING`, ix.wiki, ix.tree); err != nil {
		return err
	}
	var bound *string
	err := tx.QueryRow(ctx, `SELECT tree FROM guild_wikis WHERE wiki = $1`, ix.wiki).Scan(&bound)
	switch {
	case err != nil:
		return err
	case bound != nil && *bound == ix.tree:
		return nil
	case bound != nil && !ix.claim:
		return &TreeError{Host: ix.host, Wiki: ix.wiki, Bound: *bound, Tree: ix.tree}
	}
	_, err = tx.Exec(ctx, `UPDATE guild_wikis SET tree = $2 WHERE wiki = $1`, ix.wiki, ix.tree)
	return err
}

// vacuumTables are the tables a refresh rewrites.
var vacuumTables = []string{"guild_sections", "guild_pages", "guild_terms", "guild_wikis"}

// vacuum reclaims the rows a refresh left dead, with the server's own
// rule for when that is worth it: once the dead rows of the index's tables
// (those the server's statistics count, from earlier refreshes of any
// wiki, and the dead this refresh just left, which the statistics may not
// show yet) reach 50 plus a fifth of the live ones, the tables are
// vacuumed and analysed, skipping any another session is vacuuming. So a
// wiki indexed again and again keeps a bounded size without waiting for
// autovacuum (which may be off, or a minute away while a loop of
// refreshes runs), and a refresh that changed a few pages costs one query.
// For a role that does not own the tables the server skips them (a
// notice, not an error); autovacuum remains.
func (ix *Index) vacuum(ctx context.Context, dead int64) error {
	if dead == 0 {
		return nil
	}
	var statDead, live int64
	if err := ix.conn.QueryRow(ctx, `SELECT coalesce(sum(n_dead_tup), 0), coalesce(sum(n_live_tup), 0)
FROM pg_stat_user_tables WHERE relid = ANY($1::regclass[])`, vacuumTables).Scan(&statDead, &live); err != nil {
		return err
	}
	if statDead+dead < 50+live/5 {
		return nil
	}
	_, err := ix.conn.Exec(ctx, `VACUUM (ANALYZE, SKIP_LOCKED) `+strings.Join(vacuumTables, ", "))
	return err
}

type storedPage struct {
	id   int64
	hash string
}

func storedHashes(ctx context.Context, tx pgx.Tx, name string) (map[string]storedPage, error) {
	rows, err := tx.Query(ctx, `SELECT path, hash, id FROM guild_pages WHERE wiki = $1`, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]storedPage{}
	for rows.Next() {
		var p string
		var s storedPage
		if err := rows.Scan(&p, &s.hash, &s.id); err != nil {
			return nil, err
		}
		have[p] = s
	}
	return have, rows.Err()
}

// forgetSQL takes the sections of the pages about to be deleted ($2) out
// of the wiki's document frequencies; countSQL adds those of the pages just
// inserted ($2, their paths). A lexeme of a section's tsvector is one of its
// distinct terms.
const (
	forgetSQL = `WITH gone AS (
	SELECT t AS term, count(*)::int AS n
	FROM guild_sections s, unnest(tsvector_to_array(s.terms)) AS t
	WHERE s.page_id = ANY($2) GROUP BY t
)
UPDATE guild_terms g SET df = g.df - gone.n FROM gone WHERE g.wiki = $1 AND g.term = gone.term`
	countSQL = `INSERT INTO guild_terms(wiki, term, df)
SELECT $1, t, count(*)::int
FROM guild_pages p JOIN guild_sections s ON s.page_id = p.id, unnest(tsvector_to_array(s.terms)) AS t
WHERE p.wiki = $1 AND p.path = ANY($2) GROUP BY t
ON CONFLICT (wiki, term) DO UPDATE SET df = guild_terms.df + excluded.df`
)

const insertSQL = `WITH p AS (
	INSERT INTO guild_pages(wiki, path, hash, category, cat_key, importance, page, diags, supersedes)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id
)
INSERT INTO guild_sections(page_id, wiki, ord, heading, start_line, end_line, text, terms, len)
SELECT p.id, $1, s.ord, s.heading, s.sl, s.el, s.text, s.terms::tsvector, s.len
FROM p, unnest($10::int[], $11::text[], $12::int[], $13::int[], $14::text[], $15::text[], $16::int[]) AS s(ord, heading, sl, el, text, terms, len)`

// row is one page's insert arguments.
type row []any

// insert writes the pages stored under names (sorted), reading those whose
// hash came from the stat cache, and returns the hash written for each.
func (ix *Index) insert(ctx context.Context, tx pgx.Tx, root string, names []string, pages map[string]named, progress func(done, total int)) (map[string]string, error) {
	final := make(map[string]string, len(pages))
	if progress != nil {
		defer func() { progress(len(names), len(names)) }()
	}
	for start := 0; start < len(names); start += batchPages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk := names[start:min(start+batchPages, len(names))]
		rows := make([]row, len(chunk))
		errs := make([]error, len(chunk))
		parallel.For(len(chunk), func(i int) {
			rows[i], errs[i] = ix.pageRow(root, chunk[i], pages[chunk[i]])
		})
		b := &pgx.Batch{}
		for i, r := range rows {
			if errs[i] != nil {
				return nil, errs[i]
			}
			b.Queue(insertSQL, r...)
			final[chunk[i]] = r[2].(string)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(start+len(chunk), len(names))
		}
	}
	return final, nil
}

// pageRow prepares the insert of one page under its stored name, reading it
// when only its hash is known.
func (ix *Index) pageRow(root, name string, lp named) (row, error) {
	p, diags := lp.page, lp.diags
	if p == nil {
		var err error
		if p, diags, err = wiki.Read(root, wiki.File{Path: lp.path}); err != nil {
			return nil, fmt.Errorf("%s: changed while indexing: %w", name, err)
		}
	}
	m := fts.StoredMeta(p)
	meta, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var dj *string
	if len(diags) > 0 {
		b, err := json.Marshal(fts.StoredDiags(diags, lp.path, name))
		if err != nil {
			return nil, err
		}
		s := string(b)
		dj = &s
	}
	secs := fts.StoredSections(p)
	n := len(secs)
	ords, starts, ends, lens := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	heads, texts, terms := make([]string, n), make([]string, n), make([]string, n)
	for i, s := range secs {
		var l int
		terms[i], l = SectionVector(fts.NameOf(p), s)
		ords[i], starts[i], ends[i], lens[i] = int32(i), int32(s.StartLine), int32(s.EndLine), int32(l)
		heads[i], texts[i] = s.HeadingPath(), s.Text
	}
	sup := m.Front.Supersedes
	if sup == nil {
		sup = []string{}
	}
	return row{ix.wiki, name, p.Hash, p.Category, fts.CategoryToken(p.Category), p.Front.Importance, string(meta), dj, sup,
		ords, heads, starts, ends, texts, terms, lens}, nil
}
