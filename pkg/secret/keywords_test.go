package secret

import (
	mrand "math/rand/v2"
	"regexp"
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

// TestBase64RunsByteLoop compares base64Runs with a regexp of the same
// runs (an alphabet run, then up to two '=') filtered by length and classes.
func TestBase64RunsByteLoop(t *testing.T) {
	re := regexp.MustCompile(`[A-Za-z0-9+/_-]+={0,2}`)
	r := mrand.New(mrand.NewPCG(5, 6))
	for range 4000 {
		// runs of 0 to 40 alphabet bytes (around the 24 that count),
		// some of them lacking a class, between separators and padding
		var b []byte
		for range r.IntN(12) {
			alphabet := []string{"aZ09+/_-x", "az09", "AZaz", "aZ0"}[r.IntN(4)]
			for range r.IntN(41) {
				b = append(b, alphabet[r.IntN(len(alphabet))])
			}
			for range 1 + r.IntN(3) {
				b = append(b, "==. \n"[r.IntN(5)])
			}
		}
		text := string(b)
		var want [][2]int
		for _, m := range re.FindAllStringIndex(text, -1) {
			run := strings.TrimRight(text[m[0]:m[1]], "=")
			if len(run) >= 24 && strings.ContainsAny(run, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
				strings.ContainsAny(run, "abcdefghijklmnopqrstuvwxyz") && strings.ContainsAny(run, "0123456789") {
				want = append(want, [2]int{m[0], m[1]})
			}
		}
		if got := base64Runs(text); !slices.Equal(got, want) {
			t.Fatalf("%q: got %v, want %v", text, got, want)
		}
	}
}
