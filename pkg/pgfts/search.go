package pgfts

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/wiki"
)

// rankNormalization is ts_rank_cd's normalization flag: 1 divides the rank
// by 1 + log(document length), so a long section needs proportionally more
// evidence — the length normalisation BM25 applies to the other mechanisms
// (docs/decisions/guild-recall-postgres.md compares the orders).
const rankNormalization = 1

var searchSQL = `SELECT p.path, p.page, s.heading, s.start_line, s.end_line, s.text,
	ts_rank_cd(s.terms, q.q, ` + strconv.Itoa(rankNormalization) + `) AS r
FROM guild_sections s
JOIN guild_pages p ON p.id = s.page_id
CROSS JOIN (SELECT $2::tsquery AS q) q
WHERE s.wiki = $1 AND s.terms @@ q.q
	AND (CASE WHEN p.importance = 0 THEN $3 ELSE p.importance END) >= $4
	AND ($5::text[] IS NULL OR p.cat_key = ANY($5))
ORDER BY r DESC, p.path COLLATE "C", s.ord
LIMIT $6`

// Search returns up to limit sections matching the query's terms, best
// first by ts_rank_cd (ties by path and section order): sections holding
// every term when there are limit of them, else sections holding any term
// — the same two steps as fts.Index.Search. The importance gate and the
// category are applied in the query, before the limit.
func (ix *Index) Search(ctx context.Context, query string, f fts.Filter, limit int) ([]fts.Hit, error) {
	terms := bm25.Unique(bm25.Terms(query))
	if len(terms) == 0 {
		return nil, nil
	}
	var cats []string
	for _, c := range f.Categories {
		cats = append(cats, fts.CategoryToken(c))
	}
	if len(terms) > 1 {
		hits, err := ix.search(ctx, Query(terms, "&"), f, cats, limit)
		if err != nil || len(hits) >= limit {
			return hits, err
		}
	}
	return ix.search(ctx, Query(terms, "|"), f, cats, limit)
}

func (ix *Index) search(ctx context.Context, q string, f fts.Filter, cats []string, limit int) ([]fts.Hit, error) {
	rows, err := ix.tx.Query(ctx, searchSQL, ix.wiki, q, f.DefaultImportance, f.MinImportance, cats, limit)
	if err != nil {
		return nil, ix.wrap("search", err)
	}
	defer rows.Close()
	var out []fts.Hit
	for rows.Next() {
		var h fts.Hit
		var meta string
		var start, end int32
		var rank float32
		if err := rows.Scan(&h.Path, &meta, &h.Heading, &start, &end, &h.Text, &rank); err != nil {
			return nil, ix.wrap("search", err)
		}
		h.StartLine, h.EndLine, h.Rank = int(start), int(end), float64(rank)
		if err := json.Unmarshal([]byte(meta), &h.Page); err != nil {
			return nil, ix.wrap("stored page "+h.Path, err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, ix.wrap("search", err)
	}
	return out, nil
}

// Superseded returns the targets named by any page's supersedes field, as
// written (paths or slugs).
func (ix *Index) Superseded(ctx context.Context) (map[string]bool, error) {
	rows, err := ix.tx.Query(ctx, `SELECT DISTINCT unnest(supersedes) FROM guild_pages WHERE wiki = $1`, ix.wiki)
	if err != nil {
		return nil, ix.wrap("supersedes", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, ix.wrap("supersedes", err)
		}
		out[t] = true
	}
	return out, rows.Err()
}

// pageDiags are the stored wiki diagnostics of the indexed pages, in path
// order.
func (ix *Index) pageDiags(ctx context.Context) ([]wiki.Diagnostic, error) {
	rows, err := ix.tx.Query(ctx, `SELECT path, diags FROM guild_pages WHERE wiki = $1 AND diags IS NOT NULL ORDER BY path COLLATE "C"`, ix.wiki)
	if err != nil {
		return nil, ix.wrap("diagnostics", err)
	}
	defer rows.Close()
	var out []wiki.Diagnostic
	for rows.Next() {
		var p, s string
		if err := rows.Scan(&p, &s); err != nil {
			return nil, ix.wrap("diagnostics", err)
		}
		var d []wiki.Diagnostic
		if err := json.Unmarshal([]byte(s), &d); err != nil {
			return nil, fmt.Errorf("postgres %s: stored diagnostics of %s: %w", ix.host, p, err)
		}
		out = append(out, d...)
	}
	return out, rows.Err()
}

// Pages is the number of pages of the wiki in the read snapshot.
func (ix *Index) Pages(ctx context.Context) (int, error) {
	var n int
	err := ix.tx.QueryRow(ctx, `SELECT count(*) FROM guild_pages WHERE wiki = $1`, ix.wiki).Scan(&n)
	return n, err
}

// Verify checks the snapshot's invariants: every page path once, as many
// pages as the last refresh recorded, no section without its page. It
// returns the number of pages.
func (ix *Index) Verify(ctx context.Context) (int, error) {
	var pages, paths, recorded, orphans int
	err := ix.tx.QueryRow(ctx, `SELECT
	(SELECT count(*) FROM guild_pages WHERE wiki = $1),
	(SELECT count(DISTINCT path) FROM guild_pages WHERE wiki = $1),
	(SELECT pages FROM guild_wikis WHERE wiki = $1),
	(SELECT count(*) FROM guild_sections s WHERE s.wiki = $1 AND NOT EXISTS (SELECT 1 FROM guild_pages p WHERE p.id = s.page_id))`,
		ix.wiki).Scan(&pages, &paths, &recorded, &orphans)
	if err != nil {
		return 0, ix.wrap("verify", err)
	}
	if pages != paths || pages != recorded || orphans != 0 {
		return pages, fmt.Errorf("postgres %s: wiki %s is inconsistent: %d page rows, %d paths, %d recorded, %d orphan sections",
			ix.host, ix.wiki, pages, paths, recorded, orphans)
	}
	return pages, nil
}

// Hashes returns the content hash of every stored page by path.
func (ix *Index) Hashes(ctx context.Context) (map[string]string, error) {
	rows, err := ix.tx.Query(ctx, `SELECT path, hash FROM guild_pages WHERE wiki = $1`, ix.wiki)
	if err != nil {
		return nil, ix.wrap("hashes", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var p, h string
		if err := rows.Scan(&p, &h); err != nil {
			return nil, ix.wrap("hashes", err)
		}
		out[p] = h
	}
	return out, rows.Err()
}
