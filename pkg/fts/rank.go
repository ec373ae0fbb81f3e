package fts

import (
	"sort"

	"github.com/rtch/rtch/pkg/bm25"
)

// Candidates is how many sections an index fetches, by its own ranking,
// for Rerank to order when limit are wanted: limit itself. Recall asks for
// three times the chunks it returns (page demotion), and the first third of
// an index's best by its own ranking, reordered, are BM25's best whenever
// the two rankings roughly agree; fetching more costs a row read, a page
// record decode and a tokenization per section on every recall
// (docs/decisions/guild-recall-terms.md).
func Candidates(limit int) int { return limit }

// Rerank scores each hit by BM25 with the recall parameters (k1 1.5, b
// 0.75) over the index's statistics — the score bm25.Scorer gives the same
// section among the same sections, term shares added in query-term order —
// stores it in Rank and orders the hits best first, ties by path and line.
// terms are the query's distinct terms; the hit's terms are counted again
// from its title, heading path and text, as they were indexed.
func Rerank(hits []Hit, terms []string, c Corpus) {
	avg := 1.0
	if c.Sections > 0 && c.Length > 0 {
		avg = float64(c.Length) / float64(c.Sections)
	}
	idf := make([]float64, len(terms))
	pos := make(map[string]int, len(terms))
	for i, t := range terms {
		idf[i] = bm25.IDF(c.DF[i], c.Sections)
		pos[t] = i
	}
	tf := make([]int, len(terms))
	for k := range hits {
		h := &hits[k]
		clear(tf)
		dl := 0
		EachSectionTerm(h.Page.Name(), h.Heading, h.Text, func(t string) {
			dl++
			if i, ok := pos[t]; ok {
				tf[i]++
			}
		})
		score := 0.0
		for i, n := range tf {
			if n > 0 {
				score += bm25.Recall.TermScore(idf[i], n, dl, avg)
			}
		}
		h.Rank = score
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Rank != b.Rank {
			return a.Rank > b.Rank
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.StartLine < b.StartLine
	})
}
