package index

import (
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rtch/rtch/pkg/match"
)

// TestRunFinderAsLinesWith compares the one-pass automaton with asking the
// text for each run in turn (linesWith), on texts of short and long words
// of few letters and runs that overlap, hold one another, repeat and
// share prefixes and suffixes, so that matches end inside one another and
// a line holds a run many times.
func TestRunFinderAsLinesWith(t *testing.T) {
	r := mrand.New(mrand.NewPCG(7, 8))
	for round := range 400 {
		var words []string
		for range r.IntN(50) {
			n := r.IntN(7) // empty lines too
			if r.IntN(10) == 0 {
				n = 100 + r.IntN(500)
			}
			words = append(words, randWord(r, n))
		}
		text := strings.Join(words, "\n")
		if r.IntN(2) == 0 {
			text += "\n"
		}
		var runs []string
		for range 1 + r.IntN(12) {
			runs = append(runs, randWord(r, 1+r.IntN(4)))
		}
		got := newRunFinder(runs).lines([]byte(text), nil)
		for i, run := range runs {
			var want []lineAt
			linesWith([]byte(text), []byte(run), func(id, at int, line []byte) {
				want = append(want, lineAt{id, at, int32(len(line))})
			})
			if !slices.Equal(got[i], want) {
				t.Fatalf("round %d: run %q of %q in %q: got %v, want %v", round, run, runs, text, got[i], want)
			}
		}
		// keep takes the lines a run starts, as a pattern's role does
		keep := func(k int, line []byte) bool { return strings.HasPrefix(string(line), runs[k]) }
		kept := newRunFinder(runs).lines([]byte(text), keep)
		each := findRuns(runs[:min(len(runs), automatonRuns)], keep, []byte(text))
		for i := range runs {
			want := slices.DeleteFunc(slices.Clone(got[i]), func(l lineAt) bool { return !keep(i, []byte(text[l.at:l.at+int(l.n)])) })
			if !slices.Equal(kept[i], want) || (i < len(each) && !slices.Equal(each[i], want)) {
				t.Fatalf("round %d: run %q of %q in %q, kept by its start: got %v (a pass each: %v), want %v", round, runs[i], runs, text, kept[i], each, want)
			}
		}
	}
}

func randWord(r *mrand.Rand, n int) string {
	w := make([]byte, n)
	for k := range w {
		w[k] = "aab1é"[r.IntN(5)]
	}
	return string(w)
}

// BenchmarkRunFinder finds 300 runs in a dictionary of 200,000 words, in
// one pass and with a pass per run.
func BenchmarkRunFinder(b *testing.B) {
	var sb strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&sb, "word%dname%x\n", i%977, i)
	}
	var runs []string
	for i := range 300 {
		runs = append(runs, fmt.Sprintf("name%x", i*37))
	}
	text := []byte(sb.String())
	b.Run("automaton", func(b *testing.B) {
		for b.Loop() {
			newRunFinder(runs).lines(text, nil)
		}
	})
	b.Run("each-run", func(b *testing.B) {
		for b.Loop() {
			for _, r := range runs {
				linesWith(text, []byte(r), func(int, int, []byte) {})
			}
		}
	})
}

// TestCandidatesAskedInTurn: the dictionary answers the runs it was last
// asked again without a pass; asked other runs in between, it still
// answers each set of patterns as a dictionary that was never asked; and
// a set of many runs (one pass for all) as a set of few (a pass each).
func TestCandidatesAskedInTurn(t *testing.T) {
	ix, _, _ := savedTree(t, match.New(nil), "strings", "net/url")
	var many []Pattern // more runs than automatonRuns: one pass for all
	for _, term := range []string{"strings.builder", "url.values", "url.parse", "a.b", "strings.index", "url.url",
		"strings.newreader", "err.error", "t.fatalf", "b.len", "s.string", "u.host", "u.path", "q.get", "v.set"} {
		many = append(many, NewPattern(term))
	}
	sets := [][]Pattern{
		{NewPattern("strings.builder"), NewPattern("url.values")},
		{NewPattern("url.parse"), NewPattern("a.b")},
		{NewPattern("strings.builder"), NewPattern("url.values")},
		{NewPattern("strings.builder"), NewPattern("url.values")},
		many, many,
		{NewPattern("url.parse"), NewPattern("a.b")},
	}
	var fresh [][]bool
	for _, pats := range sets {
		ix.words.d = nil // a dictionary never asked
		ix.words.once = sync.Once{}
		fresh = append(fresh, slices.Clone(ix.Candidates(pats).may))
	}
	ix.words.d, ix.words.once = nil, sync.Once{}
	for i, pats := range sets {
		if got := ix.Candidates(pats).may; !slices.Equal(got, fresh[i]) {
			t.Fatalf("set %d asked after set %d: the candidates differ from a fresh dictionary's", i, i-1)
		}
		if !slices.Contains(fresh[i], true) {
			t.Fatalf("set %d: no candidate at all; the test asks nothing", i)
		}
	}
	all := ix.Candidates(many)
	for pi, p := range many {
		one := ix.Candidates([]Pattern{p})
		for k := range p.runs {
			if a, b := all.runs[pi][k], one.runs[0][k]; !slices.Equal(a.ws, b.ws) || !slices.Equal(a.first, b.first) {
				t.Fatalf("%v run %d: its words asked among %d patterns differ from those asked alone", p.runs, k, len(many))
			}
		}
	}
}

// TestCandidatesShareRuns: a dictionary asked a set of patterns after
// another that shares some of its runs, in the same roles or in others
// (url ends its word in url.parse and starts it in net.url; ing starts
// it in a.ing and is anywhere in it in ing), answers each set, candidates and each run's words, as a
// dictionary never asked; among them sets of many runs (one pass) after
// which a few runs are left to find (a pass each).
func TestCandidatesShareRuns(t *testing.T) {
	ix, _, _ := savedTree(t, match.New(nil), "strings", "net/url")
	pats := func(terms ...string) []Pattern {
		var ps []Pattern
		for _, term := range terms {
			ps = append(ps, NewPattern(term))
		}
		return ps
	}
	many := []string{"strings.builder", "url.values", "url.parse", "a.b", "strings.index", "url.url",
		"strings.newreader", "err.error", "t.fatalf", "b.len", "s.string", "u.host", "u.path", "q.get", "v.set"}
	sets := [][]Pattern{
		pats(many...),
		pats(append(many[2:], "net.url", "u.rawquery")...),
		pats("url", "net.url", "strings.builder"),
		pats("url.parse", "url", "parse.url"),
		pats("a.ing", "strings.builder"),
		pats("ing", "strings.builder"),
		pats(many...),
		pats(append(many, "url", "net.url", "err.unwrap")...),
		pats("strings.builder"),
	}
	type answer struct {
		may  []bool
		runs [][]rowWords
	}
	var fresh []answer
	for _, ps := range sets {
		ix.words.d, ix.words.once = nil, sync.Once{} // a dictionary never asked
		c := ix.Candidates(ps)
		fresh = append(fresh, answer{c.may, c.runs})
	}
	ix.words.d, ix.words.once = nil, sync.Once{}
	for i, ps := range sets {
		c := ix.Candidates(ps)
		if !slices.Equal(c.may, fresh[i].may) {
			t.Fatalf("set %d: the candidates differ from a fresh dictionary's", i)
		}
		if !slices.Contains(c.may, true) {
			t.Fatalf("set %d: no candidate at all; the test asks nothing", i)
		}
		for pi, p := range ps {
			for k := range p.runs {
				got, want := c.runs[pi][k], fresh[i].runs[pi][k]
				if !slices.Equal(got.ws, want.ws) || !slices.Equal(got.first, want.first) {
					t.Fatalf("set %d, %v run %d: its words differ from a fresh dictionary's", i, p.runs, k)
				}
			}
		}
	}
}
