package index

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSepRunsAreEachRun checks what sepRuns finds in a file's runs' text
// against a look at each run: the number of the run that is each gap,
// and whether a run ends with each leading separator and one starts
// with each trailing one, the first and the last run among them.
func TestSepRunsAreEachRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{".", "-", "/", " ", "(", ")", ", ", ": ", "{", "\"", "://"}
	pats := []Pattern{NewPattern("a.b"), NewPattern("a-b.c"), NewPattern("x/y"), NewPattern(":8080"), NewPattern("f("),
		NewPattern("(x)"), NewPattern("http://h"), NewPattern("a, b"), NewPattern(".5"), NewPattern("a{")}
	keys := newSepKeys(pats)
	for range 500 {
		seen := map[string]bool{}
		var runs []string
		for n := rng.IntN(12); len(runs) < n; {
			var r strings.Builder
			for k := 1 + rng.IntN(3); k > 0; k-- {
				r.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			if !seen[r.String()] {
				seen[r.String()] = true
				runs = append(runs, r.String())
			}
		}
		var text []byte
		for _, r := range runs {
			text = append(append(text, r...), '\n')
		}
		s := (&File{Seps: text}).sepRuns(keys)
		for i, g := range keys.gaps {
			want := int32(0)
			for n, r := range runs {
				if r == g {
					want = int32(n + 1)
				}
			}
			if s.num[i] != want {
				t.Fatalf("runs %q: gap %q numbered %d, want %d", runs, g, s.num[i], want)
			}
		}
		for _, p := range pats {
			want := (p.lead == "" || anyRun(runs, func(r string) bool { return strings.HasSuffix(r, p.lead) })) &&
				(p.trail == "" || anyRun(runs, func(r string) bool { return strings.HasPrefix(r, p.trail) }))
			if s.around(p) != want {
				t.Fatalf("runs %q: around(%+v) %v, want %v", runs, p, !want, want)
			}
		}
	}
}

func anyRun(runs []string, f func(string) bool) bool {
	for _, r := range runs {
		if f(r) {
			return true
		}
	}
	return false
}
