package scout

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFirstsKeepsTheFirstInAnyOrder: whatever order the files come in,
// firsts keeps what the rule keeps going through them in path order: a
// file's items whole while fewer than the limit came before.
func TestFirstsKeepsTheFirstInAnyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		limit := 1 + rng.IntN(6)
		files := make([][]int, 1+rng.IntN(30))
		var want []int
		for pos := range files {
			for k := range rng.IntN(4) {
				files[pos] = append(files[pos], pos*10+k)
			}
			if len(want) < limit {
				want = append(want, files[pos]...)
			}
		}
		f := firsts[int]{limit: limit}
		for _, pos := range rng.Perm(len(files)) {
			f.add(pos, files[pos])
		}
		if got := f.all(); !slices.Equal(got, want) {
			t.Fatalf("round %d, limit %d, files %v: kept %v, want %v", round, limit, files, got, want)
		}
		if len(f.files) > limit {
			t.Fatalf("round %d: %d files kept over a limit of %d", round, len(f.files), limit)
		}
	}
}
