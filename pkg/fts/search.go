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
	// Rank is FTS5's bm25() negated: larger is better, unbounded, only
	// comparable within one query.
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

// Search returns up to limit sections matching any of the query's terms,
// best first by FTS5's BM25 (ties by path and section order).
func (ix *Index) Search(ctx context.Context, query string, f Filter, limit int) ([]Hit, error) {
	terms := bm25.Unique(bm25.Terms(query))
	if len(terms) == 0 {
		return nil, nil
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	q := `SELECT p.path, p.page, s.heading, s.start_line, s.end_line, s.text, -bm25(sections_fts) AS r
FROM sections_fts JOIN sections s ON s.id = sections_fts.rowid JOIN pages p ON p.id = s.page_id
WHERE sections_fts MATCH ? AND (CASE WHEN p.importance = 0 THEN ? ELSE p.importance END) >= ?`
	args := []any{strings.Join(quoted, " OR "), f.DefaultImportance, f.MinImportance}
	if len(f.Categories) > 0 {
		q += ` AND p.category IN (` + strings.TrimSuffix(strings.Repeat("?,", len(f.Categories)), ",") + `)`
		for _, c := range f.Categories {
			args = append(args, c)
		}
	}
	q += ` ORDER BY r DESC, p.path, s.ord LIMIT ?`
	args = append(args, limit)
	rows, err := ix.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: search: %w", RelPath, err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		var meta string
		if err := rows.Scan(&h.Path, &meta, &h.Heading, &h.StartLine, &h.EndLine, &h.Text, &h.Rank); err != nil {
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

// Superseded returns the targets named by any page's supersedes field, as
// written (paths or slugs).
func (ix *Index) Superseded(ctx context.Context) (map[string]bool, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT target FROM supersedes`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out[t] = true
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
