package secret

import (
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestMatcherFindsEveryOccurrence compares the matcher with strings.Index
// on random texts over a small alphabet, where literals overlap and nest
// and upper-case letters must match as lower-case ones.
func TestMatcherFindsEveryOccurrence(t *testing.T) {
	pats := []string{"a", "ab", "bab", "abab", "b.", "s.", "hvs.", "key", "ey", "_k"}
	m := newMatcher(pats)
	r := mrand.New(mrand.NewPCG(3, 4))
	for range 300 {
		b := make([]byte, r.IntN(60))
		for i := range b {
			b[i] = "abhvs.ke_y \nABK"[r.IntN(15)]
		}
		text := string(b)
		lower := strings.ToLower(text)
		type hit struct{ at, p int }
		var got, want []hit
		m.each(text, func(at, n, p int) {
			if n != len(pats[p]) {
				t.Fatalf("length %d for %q", n, pats[p])
			}
			got = append(got, hit{at, p})
		})
		for p, lit := range pats {
			for i := 0; i+len(lit) <= len(text); i++ {
				if strings.HasPrefix(lower[i:], lit) {
					want = append(want, hit{i, p})
				}
			}
		}
		cmp := func(x, y hit) int {
			if x.at != y.at {
				return x.at - y.at
			}
			return x.p - y.p
		}
		slices.SortFunc(got, cmp)
		slices.SortFunc(want, cmp)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: got %v, want %v", text, got, want)
		}
	}
}
