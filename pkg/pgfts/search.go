package pgfts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/wiki"
)

// candidateSQL picks the sections Rerank orders: those matching the tsquery
// ($2), best first by the idf of the query terms they hold ($7 one-term
// tsqueries, $8 their idf) — the evidence BM25 weighs most — then by
// ts_rank_cd (normalisation 1: divided by 1 + log length) for how often and
// how close together they occur. The importance gate and the category are
// applied before the limit.
const candidateSQL = `SELECT p.path, p.page, s.heading, s.start_line, s.end_line, s.text,
	(SELECT coalesce(sum(x.w), 0) FROM unnest($7::tsquery[], $8::float8[]) AS x(tq, w) WHERE s.terms @@ x.tq) AS cov,
	ts_rank_cd(s.terms, q.q, 1) AS r
FROM guild_sections s
JOIN guild_pages p ON p.id = s.page_id
CROSS JOIN (SELECT $2::tsquery AS q) q
WHERE s.wiki = $1 AND s.terms @@ q.q
	AND (CASE WHEN p.importance = 0 THEN $3 ELSE p.importance END) >= $4
	AND ($5::text[] IS NULL OR p.cat_key = ANY($5))
ORDER BY cov DESC, r DESC, p.path COLLATE "C", s.ord
LIMIT $6`

// Search returns up to limit sections matching the query's terms, best
// first by BM25 as in-memory recall scores them (fts.Rerank over this
// wiki's statistics; ties by path and line). The candidates are up to
// 2 × fts.Candidates(limit) sections holding every term when at least limit
// do, else sections holding any term (candidateSQL) — the same two steps
// as fts.Index.Search.
func (ix *Index) Search(ctx context.Context, query string, f fts.Filter, limit int) ([]fts.Hit, error) {
	terms := bm25.Unique(bm25.Terms(query))
	if len(terms) == 0 {
		return nil, nil
	}
	c, err := ix.corpus(ctx, terms)
	if err != nil {
		return nil, err
	}
	var cats []string
	for _, c := range f.Categories {
		cats = append(cats, fts.CategoryToken(c))
	}
	one := make([]string, len(terms))
	idf := make([]float64, len(terms))
	for i, t := range terms {
		one[i] = Query([]string{t}, "&")
		idf[i] = bm25.IDF(c.DF[i], c.Sections)
	}
	// Twice the candidates FTS5 takes: ordering by the idf of the terms held,
	// then ts_rank_cd, is further from BM25 than FTS5's bm25() is (with
	// fts.Candidates(limit) alone the evaluation's postgres MRR fell from
	// 0.387 to 0.379, docs/decisions/guild-recall-terms.md).
	n := 2 * fts.Candidates(limit)
	var hits []fts.Hit
	if len(terms) > 1 {
		hits, err = ix.search(ctx, Query(terms, "&"), f, cats, one, idf, n)
	}
	if err == nil && len(hits) < limit {
		hits, err = ix.search(ctx, Query(terms, "|"), f, cats, one, idf, n)
	}
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	fts.Rerank(hits, terms, c)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

func (ix *Index) search(ctx context.Context, q string, f fts.Filter, cats, one []string, idf []float64, limit int) ([]fts.Hit, error) {
	rows, err := ix.tx.Query(ctx, candidateSQL, ix.wiki, q, f.DefaultImportance, f.MinImportance, cats, limit, one, idf)
	if err != nil {
		return nil, ix.wrap("search", err)
	}
	defer rows.Close()
	var out []fts.Hit
	for rows.Next() {
		var h fts.Hit
		var meta string
		var start, end int32
		var cov float64
		var rank float32
		if err := rows.Scan(&h.Path, &meta, &h.Heading, &start, &end, &h.Text, &cov, &rank); err != nil {
			return nil, ix.wrap("search", err)
		}
		h.StartLine, h.EndLine = int(start), int(end)
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

// corpus reads the wiki's statistics for the query terms from the read
// snapshot.
func (ix *Index) corpus(ctx context.Context, terms []string) (fts.Corpus, error) {
	var c fts.Corpus
	err := ix.tx.QueryRow(ctx, `SELECT sections, length FROM guild_wikis WHERE wiki = $1`, ix.wiki).Scan(&c.Sections, &c.Length)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return c, ix.wrap("statistics", err)
	}
	c.DF = make([]int, len(terms))
	rows, err := ix.tx.Query(ctx, `SELECT term, df FROM guild_terms WHERE wiki = $1 AND term = ANY($2)`, ix.wiki, terms)
	if err != nil {
		return c, ix.wrap("statistics", err)
	}
	defer rows.Close()
	pos := make(map[string]int, len(terms))
	for i, t := range terms {
		pos[t] = i
	}
	for rows.Next() {
		var t string
		var df int32
		if err := rows.Scan(&t, &df); err != nil {
			return c, ix.wrap("statistics", err)
		}
		c.DF[pos[t]] = int(df)
	}
	return c, rows.Err()
}

// Supersessions returns every page's supersedes targets with the page
// naming them (fts.Supersession), in path and list order.
func (ix *Index) Supersessions(ctx context.Context) ([]fts.Supersession, error) {
	rows, err := ix.tx.Query(ctx, `SELECT t.target, p.path, p.page
FROM guild_pages p, unnest(p.supersedes) WITH ORDINALITY AS t(target, n)
WHERE p.wiki = $1 ORDER BY p.path COLLATE "C", t.n`, ix.wiki)
	if err != nil {
		return nil, ix.wrap("supersedes", err)
	}
	defer rows.Close()
	var out []fts.Supersession
	for rows.Next() {
		var s fts.Supersession
		var meta string
		if err := rows.Scan(&s.Target, &s.By, &meta); err != nil {
			return nil, ix.wrap("supersedes", err)
		}
		if err := json.Unmarshal([]byte(meta), &s.Page); err != nil {
			return nil, ix.wrap("stored page "+s.By, err)
		}
		out = append(out, s)
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
