package index

import (
	"bytes"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/match"
)

// TestWordsForAsEachWord compares wordsFor with asking role and wordOK of
// every word of the text in turn, on texts of short and very long words made of few
// letters (so runs match many times inside one word), for runs that must
// be whole words, starts, ends or anywhere.
func TestWordsForAsEachWord(t *testing.T) {
	r := mrand.New(mrand.NewPCG(5, 6))
	terms := []string{"1.5", "a.b", "/ab/v1", ".a", "b.", "x-ab-1", "aa.bb.ab", "1,5"}
	for range 300 {
		var words []string
		for range r.IntN(40) {
			n := 1 + r.IntN(6)
			if r.IntN(8) == 0 {
				n = 200 + r.IntN(2000) // a long word: a hash, an encoded blob
			}
			w := make([]byte, n)
			for k := range w {
				w[k] = "ab15v"[r.IntN(5)]
			}
			words = append(words, string(w))
		}
		text := []byte(strings.Join(words, "\n"))
		if len(words) > 0 && r.IntN(2) == 0 {
			text = append(text, '\n')
		}
		for _, term := range terms {
			p := NewPattern(term)
			for i := range p.runs {
				var ids []int
				var lens []int32
				for _, w := range p.wordsFor(i, text, text) {
					ids, lens = append(ids, w.k), append(lens, w.n)
				}
				var wantIDs []int
				var wantLens []int32
				for k, w := range words {
					if p.role(i, []byte(w)) && p.wordOK(i, []byte(w)) {
						wantIDs, wantLens = append(wantIDs, k), append(wantLens, int32(len(w)))
					}
				}
				if !slices.Equal(ids, wantIDs) || !slices.Equal(lens, wantLens) {
					t.Fatalf("%q run %d over %d words: got %v %v, want %v %v", term, i, len(words), ids, lens, wantIDs, wantLens)
				}
			}
		}
	}
}

// BenchmarkWordsForLongWords is a run of one digit against a text of long
// words that hold it at every other byte: each word is looked at once.
func BenchmarkWordsForLongWords(b *testing.B) {
	var buf bytes.Buffer
	for i := range 2000 {
		fmt.Fprintf(&buf, "%s%d\n", strings.Repeat("1a", 2000), i)
	}
	p := NewPattern("1.5")
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		p.wordsFor(0, buf.Bytes(), buf.Bytes())
	}
}

// TestPatternsNeverMissAMatch: on GOROOT packages, a file in which the
// matcher finds a term that is not made of word bytes alone, spelled as it
// is, is always one
// the term's pattern may be held by (from the entry and from the
// dictionaries), so reading the files it names loses no match; and the
// separators kept make the patterns tight: of the files "1.5" may be held
// by, most hold it.
func TestPatternsNeverMissAMatch(t *testing.T) {
	ix, files, data := savedTree(t, nil, "strings", "strconv", "time", "net/url", "encoding/json", "net/http/cgi", "net/textproto")
	terms := []string{"1.5", "go.mod", "net/http", "a.b", "x-y", "content-type", "func-name", "read_line", "keep-alive", ": %v", "%v", "(x)", "fmt.sprintf(", ")", ", ",
		"time.second", "content-type", "0x1p-2", "r.url.query", "/api/v1", "\"%s\"", "1,5", "--", "//", "-1",
		"err != nil", "[]byte(", "!= nil {", "} else {", "\t\t", ": \\", "{\\", ".5", "1.", "_test", "t.run(", "\"\"",
		"ns/op", "http://", "e-9", "+0000"}
	var pats []Pattern
	for _, term := range terms {
		pats = append(pats, Patterns(match.Fold(term))...)
	}
	cands := ix.Candidates(pats)
	may, holds := make([]int, len(terms)), make([]int, len(terms))
	for _, f := range files {
		fl, ok := ix.Lookup(f)
		if !ok {
			t.Fatalf("%s: not answered for", f.Path)
		}
		for i, term := range terms {
			// Spellings made of word bytes (a compound's variant: "x-y" is
			// also xY) are answered by the dictionary's word matches.
			found := false
			match.New([]string{match.Fold(term)}).Scan(data[f.Path], func(_, s, e int) bool {
				found = !Simple(match.Fold(string(data[f.Path][s:e])))
				return !found
			})
			ps := Patterns(match.Fold(term))
			m, _ := fl.MayHold(ps, nil)
			single := ix.Candidates(ps)
			if found && (!m || !single.May(fl.entry) || !single.Holds(fl)) {
				t.Fatalf("%s holds %q, but its pattern says it cannot (entry %v, dictionary %v/%v)", f.Path, term, m, single.May(fl.entry), single.Holds(fl))
			}
			// HeldYes is certain: the scout takes it for the term's
			// presence without reading the file.
			if held := single.Held(fl, nil); !found && slices.Contains(held, HeldYes) {
				t.Fatalf("%s does not hold %q, but its pattern says it does (%v)", f.Path, term, held)
			}
			if m {
				may[i]++
			}
			if found {
				holds[i]++
			}
		}
		if any, _ := fl.MayHold(pats, nil); any != cands.Holds(fl) {
			t.Fatalf("%s: the dictionary's candidates and the entry disagree on the terms together", f.Path)
		}
	}
	for i, term := range terms {
		t.Logf("%-14q held by %4d files, may be by %4d", term, holds[i], may[i])
	}
	if i := slices.Index(terms, "1.5"); may[i] > 2*holds[i] {
		t.Errorf("\"1.5\" may be held by %d files, %d hold it: the separators are not checked", may[i], holds[i])
	}
	// A term opening with a separator is decided by the run before its
	// first word, which the occurrence before it tells; only a line's
	// first word leaves it open.
	for _, term := range []string{"-1", ".5", "_test", "\"%s\"", "(x)"} {
		if i := slices.Index(terms, term); may[i] > holds[i]+holds[i]/4+2 {
			t.Errorf("%q may be held by %d files, %d hold it: the run before its first word is not checked", term, may[i], holds[i])
		}
	}
}
