package fts

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/bm25"
)

// Hit is one matching section.
type Hit struct {
	// Path is the page, relative to the root.
	Path string
	// Page is the stored page metadata.
	Page PageMeta
	// Heading is the section's heading path (" > "-joined).
	Heading string
	// StartLine and EndLine are the section's file lines.
	StartLine, EndLine int
	// Text is the section text.
	Text string
	// Rank is the section's BM25 score (Rerank): larger is better,
	// unbounded, only comparable within one query.
	Rank float64
}

// Filter narrows a search at the page level.
type Filter struct {
	// MinImportance drops pages whose importance is set and below it; pages
	// without importance count as DefaultImportance.
	MinImportance int
	// DefaultImportance is the importance of pages that give none.
	DefaultImportance int
	// Categories keeps only pages of these types (any when empty).
	Categories []string
}

// Search returns up to limit sections matching the query's terms, best
// first by BM25 as in-memory recall scores them (Rerank; ties by path and
// line). FTS5 picks the candidates by its own bm25(): up to Candidates(limit)
// sections holding every term when at least limit do, else sections
// holding any term.
func (ix *Index) Search(ctx context.Context, query string, f Filter, limit int) ([]Hit, error) {
	terms := bm25.Unique(bm25.Terms(query))
	if len(terms) == 0 {
		return nil, nil
	}
	quoted := make([]string, len(terms))
	// The terms are looked up in the terms column. The column filter makes
	// FTS5 decode every position list to check the column (about a sixth of
	// a search); it is only needed when a term could be a meta token, since
	// the meta column holds nothing else (and has weight 0 in the rank).
	col := ""
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
		if strings.HasPrefix(t, "cat_") || strings.HasPrefix(t, "imp_") {
			col = "terms : "
		}
	}
	// The category is part of the FTS5 expression (the meta column), so only
	// sections of that category are ranked. The importance gate is checked
	// on the ranked hits instead: it passes most sections, and intersecting
	// with its long posting list costs more than it saves.
	var filter string
	if len(f.Categories) > 0 {
		alts := make([]string, len(f.Categories))
		for i, c := range f.Categories {
			alts[i] = `"` + CategoryToken(c) + `"`
		}
		filter = " AND meta : (" + strings.Join(alts, " OR ") + ")"
	}
	// Conjunctive first: the sections holding every term are few and they
	// are the best BM25 candidates. Only when fewer than limit hold every
	// term is the disjunctive query (every section holding any term, all of
	// them scored by FTS5, the costly case on a large wiki) run.
	n := Candidates(limit)
	var hits []Hit
	var err error
	if len(quoted) > 1 {
		hits, err = ix.search(ctx, col+"("+strings.Join(quoted, " AND ")+")"+filter, f, n)
	}
	if err == nil && len(hits) < limit {
		hits, err = ix.search(ctx, col+"("+strings.Join(quoted, " OR ")+")"+filter, f, n)
	}
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	c, err := ix.corpus(ctx, terms)
	if err != nil {
		return nil, fmt.Errorf("%s: search: %w", RelPath, err)
	}
	Rerank(hits, terms, c)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// search returns the best limit sections matching an FTS5 expression whose
// page passes the importance gate, widening the ranked set until enough
// pass or the matches run out. Only the sections kept are read whole: the
// ranked set is larger (for the gate), and reading a section's text and
// page record costs more than ranking it.
func (ix *Index) search(ctx context.Context, match string, f Filter, limit int) ([]Hit, error) {
	for n := limit*2 + 16; ; n *= 8 {
		ids, ranked, err := ix.rankN(ctx, match, f, n)
		if err != nil {
			return nil, err
		}
		if len(ids) >= limit || ranked < n {
			if len(ids) > limit {
				ids = ids[:limit]
			}
			return ix.sections(ctx, ids)
		}
	}
}

// rankN ranks the best n sections matching an FTS5 expression inside FTS5
// (its ORDER BY rank path: bm25 over the terms column) and returns the ids
// of those whose page passes the importance gate, best first (ties by path
// and section order), with how many were ranked.
func (ix *Index) rankN(ctx context.Context, match string, f Filter, n int) ([]int64, int, error) {
	q := `SELECT s.id, (CASE WHEN p.importance = 0 THEN ? ELSE p.importance END) AS imp
FROM (SELECT rowid AS id, rank AS r FROM sections_fts WHERE sections_fts MATCH ? ORDER BY rank LIMIT ?) m
JOIN sections s ON s.id = m.id JOIN pages p ON p.id = s.page_id
ORDER BY m.r, p.path, s.ord`
	rows, err := ix.reader().QueryContext(ctx, q, f.DefaultImportance, match, n)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: search: %w", RelPath, err)
	}
	defer rows.Close()
	var ids []int64
	ranked := 0
	for rows.Next() {
		var id int64
		var imp int
		if err := rows.Scan(&id, &imp); err != nil {
			return nil, 0, fmt.Errorf("%s: search: %w", RelPath, err)
		}
		ranked++
		if imp >= f.MinImportance {
			ids = append(ids, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: search: %w", RelPath, err)
	}
	return ids, ranked, nil
}

// sections reads the sections with these ids, in no particular order
// (Search reranks them). A section deleted since it was ranked (a writer
// between the two statements, when the index is read outside a snapshot) is
// left out.
func (ix *Index) sections(ctx context.Context, ids []int64) ([]Hit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	q := `SELECT p.path, p.page, s.heading, s.start_line, s.end_line, s.text
FROM sections s JOIN pages p ON p.id = s.page_id
WHERE s.id IN (?` + strings.Repeat(",?", len(ids)-1) + `)`
	rows, err := ix.reader().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: search: %w", RelPath, err)
	}
	defer rows.Close()
	out := make([]Hit, 0, len(ids))
	for rows.Next() {
		var h Hit
		var meta string
		if err := rows.Scan(&h.Path, &meta, &h.Heading, &h.StartLine, &h.EndLine, &h.Text); err != nil {
			return nil, fmt.Errorf("%s: search: %w", RelPath, err)
		}
		if err := json.Unmarshal([]byte(meta), &h.Page); err != nil {
			return nil, fmt.Errorf("%s: stored page %s: %w", RelPath, h.Path, err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: search: %w", RelPath, err)
	}
	return out, nil
}

// Supersession is one target of one page's supersedes list with the page
// that names it: a claim to retire another page is weighed by the trust of
// the page making it (pkg/recall), and that trust follows from the naming
// page's path and stored metadata, as a hit's does.
type Supersession struct {
	// Target is the name as written (a path, file name or slug), masked as
	// stored.
	Target string
	// By is the stored path of the page whose supersedes list names Target.
	By string
	// Page is that page's stored metadata.
	Page PageMeta
}

// Supersessions returns every page's supersedes targets with the page
// naming them, in page and list order.
func (ix *Index) Supersessions(ctx context.Context) ([]Supersession, error) {
	rows, err := ix.reader().QueryContext(ctx, `SELECT s.target, p.path, p.page FROM supersedes s JOIN pages p ON p.id = s.page_id ORDER BY s.page_id, s.rowid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Supersession
	for rows.Next() {
		var s Supersession
		var meta string
		if err := rows.Scan(&s.Target, &s.By, &meta); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(meta), &s.Page); err != nil {
			return nil, fmt.Errorf("%s: stored page %s: %w", RelPath, s.By, err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Rebuild discards the index and builds it again from the wiki (after a
// search reported corruption).
func (ix *Index) Rebuild(ctx context.Context, opt Options) error {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return ix.rebuild(ctx, opt)
}

// IsCorrupt reports whether an error from this package means the index file
// cannot be trusted (the caller should Rebuild).
func IsCorrupt(err error) bool { return err != nil && isCorrupt(err) }
