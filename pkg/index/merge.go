package index

import "sync"

// hitRuns are the hits of one file being gathered as runs, each in a
// scan's order (one word's occurrences, the stored phrases), to be
// merged into one order: a goal of a hundred terms has hundreds of runs
// per file, and merging them costs what sorting a few would.
type hitRuns struct {
	starts []int // where each run begins in the hits
	tmp    []Hit
	occs   []Occ // scratch for a word's occurrences
}

var hitRunsPool = sync.Pool{New: func() any { return new(hitRuns) }}

// mergeRuns puts hs, the runs beginning at starts (ascending, the first
// 0), in a scan's order, merging neighbouring runs two by two through
// tmp until one is left.
func (r *hitRuns) mergeRuns(hs []Hit) {
	if len(r.starts) < 2 || len(hs) == 0 {
		return
	}
	if cap(r.tmp) < len(hs) {
		r.tmp = make([]Hit, len(hs))
	}
	src, dst := hs, r.tmp[:len(hs)]
	starts := r.starts
	for len(starts) > 1 {
		next := starts[:0]
		for i := 0; i < len(starts); i += 2 {
			lo := starts[i]
			next = append(next, lo)
			if i+1 == len(starts) {
				copy(dst[lo:], src[lo:])
				break
			}
			mid, hi := starts[i+1], len(src)
			if i+2 < len(starts) {
				hi = starts[i+2]
			}
			mergeTwo(dst[lo:hi], src[lo:mid], src[mid:hi])
		}
		starts = next
		src, dst = dst, src
	}
	if &src[0] != &hs[0] {
		copy(hs, src)
	}
}

// mergeTwo writes a and b, each in a scan's order, to out in that order;
// on a tie a's hit comes first.
func mergeTwo(out, a, b []Hit) {
	k := 0
	for len(a) > 0 && len(b) > 0 {
		// Hits of two runs are of two words, apart but for a phrase's.
		pb, pa := placeKey(b[0].Line, b[0].word), placeKey(a[0].Line, a[0].word)
		if pb < pa || pb == pa && compareHits(b[0], a[0]) < 0 {
			out[k], b = b[0], b[1:]
		} else {
			out[k], a = a[0], a[1:]
		}
		k++
	}
	k += copy(out[k:], a)
	copy(out[k:], b)
}
