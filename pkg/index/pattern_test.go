package index

import (
	"bytes"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestWordsForAsEachWord compares wordsFor with asking role of every word
// of the text in turn, on texts of short and very long words made of few
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
				ids, lens := p.wordsFor(i, text)
				var wantIDs []int
				var wantLens []int32
				for k, w := range words {
					if p.role(i, []byte(w)) {
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
		p.wordsFor(0, buf.Bytes())
	}
}
