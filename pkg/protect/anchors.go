package protect

import (
	"slices"
	"sync"
)

// The probe finds all rule anchors of a view in one pass with an
// Aho-Corasick automaton (a full DFA over bytes), instead of one substring
// search per anchor: the cost of finding anchors is one table lookup per byte
// of the view, whatever the number of anchors.

// acDFA is the automaton over every anchor literal the probe uses.
type acDFA struct {
	next  [][256]int32 // next[state][byte]: the goto function with failures resolved
	out   [][]int32    // out[state]: ids of anchors ending here (suffix outputs merged)
	words []string     // words[id]: the anchor literal
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
		for _, r := range rules {
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
	a.next = append(a.next, [256]int32{})
	a.out = append(a.out, nil)
	for _, w := range words {
		if _, ok := a.id[w]; ok || w == "" {
			continue
		}
		id := int32(len(a.words))
		a.id[w] = id
		a.words = append(a.words, w)
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := w[i]
			if a.next[s][c] == 0 {
				a.next = append(a.next, [256]int32{})
				a.out = append(a.out, nil)
				a.next[s][c] = int32(len(a.next) - 1)
			}
			s = a.next[s][c]
		}
		a.out[s] = append(a.out[s], id)
	}
	// Breadth-first: resolve failure transitions into the goto table and
	// merge each state's outputs with its failure state's.
	fail := make([]int32, len(a.next))
	queue := make([]int32, 0, len(a.next))
	for c := 0; c < 256; c++ {
		if t := a.next[0][c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		a.out[s] = append(a.out[s], a.out[fail[s]]...)
		for c := 0; c < 256; c++ {
			t := a.next[s][c]
			if t == 0 {
				a.next[s][c] = a.next[fail[s]][c]
				continue
			}
			fail[t] = a.next[fail[s]][c]
			queue = append(queue, t)
		}
	}
	return a
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
		st = a.next[st][s[i]]
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
