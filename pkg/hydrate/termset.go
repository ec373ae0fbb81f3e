package hydrate

import (
	"iter"
	"math/bits"
)

// termSet is a set of a surface's terms by their number in its sorted
// terms (surface.terms), a bit each.
type termSet []uint64

func newTermSet(n int) termSet { return make(termSet, (n+63)/64) }

func (s termSet) add(t int) { s[t/64] |= 1 << (t % 64) }

func (s termSet) has(t int) bool { return s[t/64]&(1<<(t%64)) != 0 }

// addAll adds o's terms (a set of the same surface's terms).
func (s termSet) addAll(o termSet) {
	for k := range s {
		s[k] |= o[k]
	}
}

func (s termSet) len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// all yields the set's terms in increasing order.
func (s termSet) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		for k, w := range s {
			for w != 0 {
				if !yield(k*64 + bits.TrailingZeros64(w)) {
					return
				}
				w &= w - 1
			}
		}
	}
}
