package protect

import (
	"slices"
	"sync"
)

// The probe finds all rule anchors of a view in one pass with an
// Aho-Corasick automaton (a full DFA over bytes), instead of one substring
// search per anchor: the cost of finding anchors is one table lookup per byte
// of the view, whatever the number of anchors.

// acDFA is the automaton over every anchor literal the probe uses. Its
// columns are byte classes: one per byte some anchor holds, and class 0
// for every other byte (which leads back to the start from any state), so a
// state's row is a few dozen entries, not 256.
type acDFA struct {
	class [256]uint16 // class[b]: b's column
	width int         // columns per state
	next  []int32     // next[state*width+class]: the goto function with failures resolved
	out   [][]int32   // out[state]: ids of anchors ending here (suffix outputs merged)
	words []string    // words[id]: the anchor literal
	id    map[string]int32
}

var (
	acOnce sync.Once
	ac     *acDFA
)

// anchorDFA builds (once) the automaton over every anchor of rules and of
// the probe's other scans.
func anchorDFA() *acDFA {
	acOnce.Do(func() {
		var words []string
		for _, r := range rules() {
			words = append(words, r.anchors...)
			for _, set := range r.with {
				words = append(words, set...)
			}
		}
		words = append(words, roleLabelAnchors...)
		words = append(words, mdCommentAnchors...)
		words = append(words, forgedAnchors...)
		words = append(words, imageAnchors...)
		ac = newACDFA(words)
	})
	return ac
}

func newACDFA(words []string) *acDFA {
	a := &acDFA{id: map[string]int32{}}
	states := 1
	for _, w := range words {
		states += len(w)
		for i := 0; i < len(w); i++ {
			if a.class[w[i]] == 0 {
				a.width++
				a.class[w[i]] = uint16(a.width)
			}
		}
	}
	a.width++
	// One allocation for the trie at its largest (no shared prefixes).
	a.next = make([]int32, a.width, states*a.width)
	a.out = make([][]int32, 1, states)
	for _, w := range words {
		if _, ok := a.id[w]; ok || w == "" {
			continue
		}
		id := int32(len(a.words))
		a.id[w] = id
		a.words = append(a.words, w)
		s := int32(0)
		for i := 0; i < len(w); i++ {
			k := int(s)*a.width + int(a.class[w[i]])
			if a.next[k] == 0 {
				a.next = append(a.next, make([]int32, a.width)...)
				a.out = append(a.out, nil)
				a.next[k] = int32(len(a.out) - 1)
			}
			s = a.next[k]
		}
		a.out[s] = append(a.out[s], id)
	}
	a.resolve()
	return a
}

// resolve turns the trie into the DFA, breadth-first: each missing
// transition takes its failure state's, and each state's outputs are
// merged with its failure state's.
func (a *acDFA) resolve() {
	fail := make([]int32, len(a.out))
	queue := make([]int32, 0, len(a.out))
	for c := 0; c < a.width; c++ {
		if t := a.next[c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		a.out[s] = append(a.out[s], a.out[fail[s]]...)
		row, frow := int(s)*a.width, int(fail[s])*a.width
		for c := 0; c < a.width; c++ {
			t := a.next[row+c]
			if t == 0 {
				a.next[row+c] = a.next[frow+c]
				continue
			}
			fail[t] = a.next[frow+c]
			queue = append(queue, t)
		}
	}
}

// indexed is a view with the start offsets of every anchor in it.
type indexed struct {
	s    string
	hits [][]int // hits[id]: sorted start offsets of anchor id
}

func indexView(s string) *indexed {
	a := anchorDFA()
	ix := &indexed{s: s, hits: make([][]int, len(a.words))}
	st := int32(0)
	for i := 0; i < len(s); i++ {
		st = a.next[int(st)*a.width+int(a.class[s[i]])]
		for _, id := range a.out[st] {
			ix.hits[id] = append(ix.hits[id], i+1-len(a.words[id]))
		}
	}
	return ix
}

// positions returns the sorted, distinct start offsets of the given anchors.
// Every anchor must be one the automaton was built with.
func (ix *indexed) positions(anchors []string) []int {
	a := anchorDFA()
	var out []int
	for _, w := range anchors {
		id, ok := a.id[w]
		if !ok {
			panic("protect: anchor not registered: " + w)
		}
		out = append(out, ix.hits[id]...)
	}
	if len(anchors) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}
