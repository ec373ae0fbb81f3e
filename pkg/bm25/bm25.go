// Package bm25 is a small, generic Okapi BM25 index: documents are token
// lists, a query is a token list, and Search returns document numbers with
// scores. It also carries the identifier-aware tokenizer the guild and rtch
// tools share, so that "ParseFlags", "parse_flags" and "flag.Parse" meet the
// prose that talks about "parse" and "flags".
//
// Scores are the classic BM25 sum over distinct query terms of
//
//	idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl))
//
// with the non-negative idf(t) = ln(1 + (N − n + 0.5)/(n + 0.5)). Because the
// tf fraction is below k1+1 for every finite tf, MaxScore (Σ idf·(k1+1)) is a
// strict upper bound, and Score/MaxScore is a relevance in [0,1) that is
// comparable across queries: Normalized.
package bm25

import (
	"math"
	"sort"
)

// Params are the BM25 free parameters.
type Params struct {
	// K1 saturates term frequency (1.2–2.0 is usual).
	K1 float64
	// B is the length normalisation strength (0 none, 1 full).
	B float64
}

// Recall is the parameter set SPEC §10 fixes for wiki recall.
var Recall = Params{K1: 1.5, B: 0.75}

// Baseline is the parameter set of the evaluation baseline (eval/README.md).
var Baseline = Params{K1: 1.2, B: 0.75}

type posting struct {
	doc int
	tf  int
}

// Index is an in-memory BM25 index. Add documents, then Search. It is not
// safe for concurrent Add; concurrent Search after the last Add is fine.
type Index struct {
	p        Params
	lens     []int
	total    int
	postings map[string][]posting
}

// New returns an empty index.
func New(p Params) *Index {
	return &Index{p: p, postings: map[string][]posting{}}
}

// Add indexes one document and returns its number (0, 1, 2, …).
func (ix *Index) Add(tokens []string) int {
	doc := len(ix.lens)
	ix.lens = append(ix.lens, len(tokens))
	ix.total += len(tokens)
	tf := map[string]int{}
	for _, t := range tokens {
		tf[t]++
	}
	for t, n := range tf {
		ix.postings[t] = append(ix.postings[t], posting{doc, n})
	}
	return doc
}

// Len is the number of documents.
func (ix *Index) Len() int { return len(ix.lens) }

// DocFreq is the number of documents containing term.
func (ix *Index) DocFreq(term string) int { return len(ix.postings[term]) }

// IDF is ln(1 + (N − n + 0.5)/(n + 0.5)), never negative.
func (ix *Index) IDF(term string) float64 {
	return IDF(len(ix.postings[term]), len(ix.lens))
}

// IDF is the inverse document frequency of a term held by n of N
// documents: ln(1 + (N − n + 0.5)/(n + 0.5)), never negative.
func IDF(n, N int) float64 {
	fn, fN := float64(n), float64(N)
	return math.Log(1 + (fN-fn+0.5)/(fn+0.5))
}

// TermScore is one query term's share of a document's score: the term's
// idf, its frequency tf in the document, the document's length dl and the
// average length avg. Every ranking of this package and every index that
// scores like it (pkg/fts, pkg/pgfts) adds these shares in query-term
// order, so equal inputs give bit-for-bit equal scores.
func (p Params) TermScore(idf float64, tf, dl int, avg float64) float64 {
	t := float64(tf)
	norm := p.K1 * (1 - p.B + p.B*float64(dl)/avg)
	return idf * t * (p.K1 + 1) / (t + norm)
}

// Result is one scored document.
type Result struct {
	// Doc is the number Add returned.
	Doc int
	// Score is the raw BM25 score (> 0).
	Score float64
}

// Search scores every document sharing a term with the query and returns
// the best limit of them (all when limit <= 0), highest score first, ties by
// document number. Repeated query terms count once.
func (ix *Index) Search(query []string, limit int) []Result {
	if len(ix.lens) == 0 {
		return nil
	}
	avg := float64(ix.total) / float64(len(ix.lens))
	if avg == 0 {
		avg = 1
	}
	scores := map[int]float64{}
	for _, t := range Unique(query) {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		idf := ix.IDF(t)
		for _, p := range ps {
			scores[p.doc] += ix.p.TermScore(idf, p.tf, ix.lens[p.doc], avg)
		}
	}
	out := make([]Result, 0, len(scores))
	for d, s := range scores {
		out = append(out, Result{Doc: d, Score: s})
	}
	return best(out, limit)
}

// MaxScore is the supremum of any document's score for query: Σ over the
// distinct terms of idf(t)·(k1+1). Terms the corpus has never seen count
// with their (high) idf, so a query about something the index does not know
// can never reach a high normalised score.
func (ix *Index) MaxScore(query []string) float64 {
	s := 0.0
	for _, t := range Unique(query) {
		s += ix.IDF(t) * (ix.p.K1 + 1)
	}
	return s
}

// Normalized maps a raw score for query into [0,1]: score / MaxScore(query).
// A document that contains every query term once at average length scores
// 1/(k1+1) (0.4 with the recall parameters); more occurrences push it
// towards 1, missing terms pull it towards 0.
func (ix *Index) Normalized(score float64, query []string) float64 {
	m := ix.MaxScore(query)
	if m <= 0 || score <= 0 {
		return 0
	}
	return math.Min(1, score/m)
}

// Unique returns the tokens in first-seen order without repeats.
func Unique(tokens []string) []string {
	seen := make(map[string]bool, len(tokens))
	out := make([]string, 0, len(tokens))
	for _, t := range tokens {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// best orders results by score, highest first, ties by document number, and
// keeps the first limit of them (all when limit is 0).
func best(out []Result, limit int) []Result {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Doc < out[j].Doc
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
