package fts

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The index keeps what BM25 needs beside FTS5 (whose own bm25() has fixed
// parameters and another idf): each section's length in terms (sections.len),
// the number of sections and their total length (meta "corpus"), and each
// term's document frequency (terms). A refresh changes them in the same
// transaction as the sections, so every read sees statistics that match
// the sections it ranks.

// Corpus is the index's collection statistics for some query terms.
type Corpus struct {
	// Sections is the number of sections indexed.
	Sections int
	// Length is the sum of their lengths in terms.
	Length int64
	// DF is each query term's document frequency, in query-term order.
	DF []int
}

// sectionStats are the length and distinct terms of a section.
type sectionStats struct {
	len   int
	terms []string
}

// countSection measures a section the way it is indexed.
func countSection(name PageName, heading, text string) sectionStats {
	_, st := indexSection(name, heading, text)
	return st
}

// indexSection is SectionTermsText and the section's statistics, from one
// pass over its terms.
func indexSection(name PageName, heading, text string) (string, sectionStats) {
	var st sectionStats
	var b strings.Builder
	b.Grow(len(name.Title) + len(heading) + len(text) + 16)
	seen := map[string]bool{}
	EachSectionTerm(name, heading, text, func(t string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		st.len++
		if !seen[t] {
			seen[t] = true
			st.terms = append(st.terms, t)
		}
	})
	return b.String(), st
}

// corpusDelta is what one refresh adds to (or takes from) the statistics.
type corpusDelta struct {
	sections int
	length   int64
	df       map[string]int
}

func (d *corpusDelta) add(s sectionStats, sign int) {
	if d.df == nil {
		d.df = map[string]int{}
	}
	d.sections += sign
	d.length += int64(sign * s.len)
	for _, t := range s.terms {
		d.df[t] += sign
	}
}

// forget takes the sections of a page about to be deleted out of the
// statistics, measuring them again from their stored text.
func (d *corpusDelta) forget(ctx context.Context, tx *sql.Tx, pageID int64) error {
	var meta string
	if err := tx.QueryRowContext(ctx, `SELECT page FROM pages WHERE id=?`, pageID).Scan(&meta); err != nil {
		return err
	}
	var pm PageMeta
	if err := json.Unmarshal([]byte(meta), &pm); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT heading, text FROM sections WHERE page_id=?`, pageID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var heading, text string
		if err := rows.Scan(&heading, &text); err != nil {
			return err
		}
		d.add(countSection(pm.Name(), heading, text), -1)
	}
	return rows.Err()
}

// write applies the delta to the stored statistics.
func (d *corpusDelta) write(ctx context.Context, tx *sql.Tx) error {
	if d.sections == 0 && d.length == 0 && len(d.df) == 0 {
		return nil
	}
	c, err := readCorpusCounts(ctx, tx)
	if err != nil {
		return err
	}
	c.Sections += d.sections
	c.Length += d.length
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('corpus', ?)`,
		strconv.Itoa(c.Sections)+" "+strconv.FormatInt(c.Length, 10)); err != nil {
		return err
	}
	up, err := tx.PrepareContext(ctx, `INSERT INTO terms(term, df) VALUES(?, ?) ON CONFLICT(term) DO UPDATE SET df = df + excluded.df`)
	if err != nil {
		return err
	}
	defer up.Close()
	drop := false
	for t, n := range d.df {
		if n == 0 {
			continue
		}
		drop = drop || n < 0
		if _, err := up.ExecContext(ctx, t, n); err != nil {
			return err
		}
	}
	if drop {
		_, err = tx.ExecContext(ctx, `DELETE FROM terms WHERE df <= 0`)
	}
	return err
}

type rowQuerier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func readCorpusCounts(ctx context.Context, q rowQuerier) (Corpus, error) {
	var c Corpus
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key='corpus'`).Scan(&v)
	if err == sql.ErrNoRows {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	n, l, ok := strings.Cut(v, " ")
	if c.Sections, err = strconv.Atoi(n); err != nil || !ok {
		return c, fmt.Errorf("%s: corrupt corpus statistics %q", RelPath, v)
	}
	if c.Length, err = strconv.ParseInt(l, 10, 64); err != nil {
		return c, fmt.Errorf("%s: corrupt corpus statistics %q", RelPath, v)
	}
	return c, nil
}

// corpus reads the statistics for the query terms.
func (ix *Index) corpus(ctx context.Context, terms []string) (Corpus, error) {
	c, err := readCorpusCounts(ctx, ix.reader())
	if err != nil {
		return c, err
	}
	c.DF = make([]int, len(terms))
	for i, t := range terms {
		err := ix.reader().QueryRowContext(ctx, `SELECT df FROM terms WHERE term=?`, t).Scan(&c.DF[i])
		if err != nil && err != sql.ErrNoRows {
			return c, err
		}
	}
	return c, nil
}
