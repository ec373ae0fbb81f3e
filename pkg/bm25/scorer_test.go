package bm25

import (
	"math/rand"
	"reflect"
	"testing"
)

// A Scorer gives exactly an Index's results: same documents, same order,
// bit-equal scores and normalised scores, for random corpora and queries
// (with repeated, absent and stopword-free terms).
func TestScorerMatchesIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	vocab := []string{"retry", "backoff", "budget", "ledger", "payment", "idempotency", "queue", "cache", "token", "service", "client", "jitter"}
	for round := 0; round < 200; round++ {
		nDocs := rng.Intn(40)
		var docs [][]string
		for d := 0; d < nDocs; d++ {
			n := rng.Intn(30)
			if rng.Intn(10) == 0 {
				n = 0
			}
			doc := make([]string, n)
			for i := range doc {
				doc[i] = vocab[int(rng.ExpFloat64()*3)%len(vocab)]
			}
			docs = append(docs, doc)
		}
		q := make([]string, 1+rng.Intn(5))
		for i := range q {
			q[i] = vocab[rng.Intn(len(vocab))]
			if rng.Intn(6) == 0 {
				q[i] = "absent"
			}
		}
		p := []Params{Recall, Baseline}[round%2]
		ix := New(p)
		sc := NewScorer(p, q)
		for _, d := range docs {
			ix.Add(d)
			sc.Add(sc.Count(d))
		}
		limit := rng.Intn(12)
		want, got := ix.Search(q, limit), sc.Search(limit)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("round %d query %q: index %v, scorer %v", round, q, want, got)
		}
		for _, r := range got {
			if a, b := ix.Normalized(r.Score, q), sc.Normalized(r.Score); a != b {
				t.Fatalf("round %d: normalized %v vs %v", round, a, b)
			}
		}
		if ix.MaxScore(q) != sc.MaxScore() || ix.Len() != sc.Len() {
			t.Fatalf("round %d: max score or length differ", round)
		}
	}
}

// CountEach over the terms of parts equals Count over their terms.
func TestCountEachMatchesCount(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	words := []string{"Retry", "retries", "backoff", "RetryPolicy", "the", "budget_limits", "ledger.Post", "x", "Über", "payments", "\xff", "-", "queue"}
	text := func() string {
		var b []byte
		for i := rng.Intn(20); i > 0; i-- {
			b = append(b, words[rng.Intn(len(words))]...)
			b = append(b, " .,\n"[rng.Intn(4)])
		}
		return string(b)
	}
	for _, n := range []int{3, 12} { // linear scan and map lookup
		q := make([]string, n)
		for i := range q {
			q[i] = Terms(words[i%len(words)] + " retry budget")[0]
		}
		q = append(q, "retry", "budget")
		sc := NewScorer(Recall, q)
		for i := 0; i < 500; i++ {
			a, b, c := text(), text(), text()
			each := func(yield func(string)) {
				for _, x := range []string{a, b, c} {
					EachTerm(x, yield)
				}
			}
			if got, want := sc.CountEach(each), sc.Count(append(append(Terms(a), Terms(b)...), Terms(c)...)); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q %q %q: CountEach %+v, Count %+v", a, b, c, got, want)
			}
		}
	}
}
