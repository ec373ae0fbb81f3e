package bm25

import (
	"math"
)

// Scorer ranks documents for one query known in advance. It keeps, per
// document, only its length and the frequencies of the query's terms, so
// adding a document costs one pass over its tokens and no inverted index is
// built; its scores, order and normalisation are exactly those of an Index
// holding the same documents searched for the same query. Count is safe for
// concurrent use (documents can be tokenized and counted in parallel);
// Add is not.
type Scorer struct {
	p     Params
	terms []string       // the query's distinct terms, in first-seen order
	pos   map[string]int // term → index in terms
	docs  []Counts
	df    []int
	total int
}

// Counts is what a Scorer keeps of one document.
type Counts struct {
	// Len is the document's token count.
	Len int
	// TF holds the frequency of each query term, in the Scorer's term order
	// (nil when the document has none of them).
	TF []int32
}

// NewScorer returns a Scorer for query (repeated terms count once).
func NewScorer(p Params, query []string) *Scorer {
	s := &Scorer{p: p, terms: Unique(query), pos: map[string]int{}}
	for i, t := range s.terms {
		s.pos[t] = i
	}
	s.df = make([]int, len(s.terms))
	return s
}

// Count measures one document's tokens.
func (s *Scorer) Count(tokens []string) Counts {
	c := Counts{Len: len(tokens)}
	for _, t := range tokens {
		if i, ok := s.pos[t]; ok {
			if c.TF == nil {
				c.TF = make([]int32, len(s.terms))
			}
			c.TF[i]++
		}
	}
	return c
}

// CountEach is Count over the terms each yields (say, EachTerm of a
// document's parts) without building the list: one pass, no allocation
// unless the document holds a query term.
func (s *Scorer) CountEach(each func(yield func(string))) Counts {
	var c Counts
	count := func(t string) {
		c.Len++
		i := -1
		if len(s.terms) <= 8 {
			for k, q := range s.terms {
				if q == t {
					i = k
					break
				}
			}
		} else if k, ok := s.pos[t]; ok {
			i = k
		}
		if i >= 0 {
			if c.TF == nil {
				c.TF = make([]int32, len(s.terms))
			}
			c.TF[i]++
		}
	}
	each(count)
	return c
}

// Add adds a counted document and returns its number (0, 1, 2, …).
func (s *Scorer) Add(c Counts) int {
	s.docs = append(s.docs, c)
	s.total += c.Len
	for i, n := range c.TF {
		if n > 0 {
			s.df[i]++
		}
	}
	return len(s.docs) - 1
}

// Len is the number of documents.
func (s *Scorer) Len() int { return len(s.docs) }

func (s *Scorer) idf(i int) float64 { return IDF(s.df[i], len(s.docs)) }

// Search returns the best limit documents holding a query term (all when
// limit <= 0), highest score first, ties by document number: Index.Search.
func (s *Scorer) Search(limit int) []Result {
	if len(s.docs) == 0 {
		return nil
	}
	avg := float64(s.total) / float64(len(s.docs))
	if avg == 0 {
		avg = 1
	}
	idf := make([]float64, len(s.terms))
	for i := range s.terms {
		idf[i] = s.idf(i)
	}
	out := []Result{}
	for d, c := range s.docs {
		if c.TF == nil {
			continue
		}
		// The same operations in the same order as Index.Search, so the
		// scores are bit-for-bit equal.
		score, hit := 0.0, false
		for i, n := range c.TF {
			if n == 0 {
				continue
			}
			score += s.p.TermScore(idf[i], int(n), c.Len, avg)
			hit = true
		}
		if hit {
			out = append(out, Result{Doc: d, Score: score})
		}
	}
	return best(out, limit)
}

// MaxScore is Index.MaxScore for the query.
func (s *Scorer) MaxScore() float64 {
	m := 0.0
	for i := range s.terms {
		m += s.idf(i) * (s.p.K1 + 1)
	}
	return m
}

// Normalized is Index.Normalized for the query.
func (s *Scorer) Normalized(score float64) float64 {
	m := s.MaxScore()
	if m <= 0 || score <= 0 {
		return 0
	}
	return math.Min(1, score/m)
}
