package pgfts

import (
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/wiki"
)

// PostgreSQL's tsvector limits: a lexeme is at most 2047 bytes, a position
// at most 16383 (larger ones are stored as 16383), a lexeme keeps at most
// 256 positions, and the lexemes with their positions take less than 1 MiB
// (maxVector).
const (
	maxLexeme    = 2047
	maxPosition  = 16383
	maxPositions = 256
	maxVector    = 1<<20 - 1
)

// vectorCost bounds what a lexeme of n bytes with np positions takes of a
// tsvector's maxVector: the lexeme, its entry header (4 bytes), alignment
// and the position count (up to 4), 2 bytes a position.
func vectorCost(n, np int) int { return n + 8 + 2*np }

// SectionVector is the tsvector literal of a section: each term of
// fts.EachSectionTerm (title, heading path, text — the terms the SQLite
// index and in-memory BM25 see) with its 1-based positions, lexemes in
// first-seen order. Terms longer than PostgreSQL allows are left out; they
// could never match a query term the server accepts either. A section
// whose terms would not fit in one tsvector (a page of up to
// caps.max_page_bytes of distinct words can need more than 1 MiB, and the
// server would refuse the whole refresh) keeps the lexemes that come first
// up to the limit; the others cannot match that section on this backend.
//
// n is the number of terms, the section's length for BM25 (the terms left
// out count too, as they do in the other mechanisms).
func SectionVector(name fts.PageName, s wiki.Section) (v string, n int) {
	pos := map[string][]int{}
	var order []string
	fts.EachSectionTerm(name, s.HeadingPath(), s.Text, func(t string) {
		n++
		if len(t) > maxLexeme {
			return
		}
		ps, seen := pos[t]
		if !seen {
			order = append(order, t)
		}
		if len(ps) < maxPositions {
			pos[t] = append(ps, min(n, maxPosition))
		}
	})
	var b strings.Builder
	size := 0
	for i, t := range order {
		if size += vectorCost(len(t), len(pos[t])); size > maxVector {
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		quote(&b, t)
		b.WriteByte(':')
		for j, p := range pos[t] {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(p))
		}
	}
	return b.String(), n
}

// Query is the tsquery literal joining terms with op ("&" or "|").
func Query(terms []string, op string) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" " + op + " ")
		}
		quote(&b, t)
	}
	return b.String()
}

// quote writes a lexeme as a quoted tsvector/tsquery token: inside single
// quotes a quote is doubled and a backslash escaped.
func quote(b *strings.Builder, t string) {
	b.WriteByte('\'')
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\'':
			b.WriteString("''")
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(t[i])
		}
	}
	b.WriteByte('\'')
}
