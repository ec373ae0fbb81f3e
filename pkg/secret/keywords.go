package secret

// matcher finds every occurrence of a set of lowercase literals, ASCII
// case folded, in one pass over a text: an Aho-Corasick automaton compiled to a DFA over the byte classes
// the literals use. Bytes that occur in no literal share class 0, which
// leads back to the start, so a step is one table lookup and the table
// stays small (states × classes int32s, ~0.5 MB for the 300-odd keywords)
// where a 256-wide table per state costs every tool run megabytes of page
// faults before it has read a byte.
type matcher struct {
	class  [256]uint8
	nclass int
	// next[row+class] is the row of the following state, where a state's row
	// is state*nclass, complemented (negative) when a literal ends there:
	// the loop then neither multiplies nor looks at out for most bytes
	next []int32
	out  [][]int32 // out[state]: the literals ending at this state, suffixes included
	lens []int     // lens[p] is the length of literal p
}

func newMatcher(pats []string) *matcher {
	m := &matcher{nclass: 1, lens: make([]int, len(pats))}
	states := 1
	for _, p := range pats {
		states += len(p)
		for i := 0; i < len(p); i++ {
			if m.class[p[i]] == 0 {
				m.class[p[i]] = uint8(m.nclass)
				m.nclass++
			}
		}
	}
	// the literals are lowercase; an upper-case letter reads as its lower
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	m.next = make([]int32, 0, states*m.nclass)
	m.out = make([][]int32, 0, states)
	// the trie, with -1 for a missing edge
	newState := func() int32 {
		for range m.nclass {
			m.next = append(m.next, -1)
		}
		m.out = append(m.out, nil)
		return int32(len(m.out) - 1)
	}
	newState()
	for pi, p := range pats {
		m.lens[pi] = len(p)
		s := int32(0)
		for i := 0; i < len(p); i++ {
			k := int(s)*m.nclass + int(m.class[p[i]])
			if m.next[k] < 0 {
				u := newState()
				m.next[k] = u
			}
			s = m.next[int(s)*m.nclass+int(m.class[p[i]])]
		}
		m.out[s] = append(m.out[s], int32(pi))
	}
	m.link()
	m.rows()
	return m
}

// rows turns the state numbers of next into complemented or plain rows.
func (m *matcher) rows() {
	for k, u := range m.next {
		row := u * int32(m.nclass)
		if len(m.out[u]) > 0 {
			row = ^row
		}
		m.next[k] = row
	}
}

// link turns the trie into the DFA breadth first: a missing edge goes
// where the state's failure link goes, and each state inherits the
// literals of its failure link (the suffixes that also end there).
func (m *matcher) link() {
	fail := make([]int32, len(m.out))
	var queue []int32
	for c := 0; c < m.nclass; c++ {
		if u := m.next[c]; u < 0 {
			m.next[c] = 0
		} else {
			queue = append(queue, u)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for c := 0; c < m.nclass; c++ {
			k := int(s)*m.nclass + c
			u := m.next[k]
			f := m.next[int(fail[s])*m.nclass+c]
			if u < 0 {
				m.next[k] = f
				continue
			}
			fail[u] = f
			m.out[u] = append(m.out[u], m.out[f]...)
			queue = append(queue, u)
		}
	}
}

// each calls fn for every occurrence in text of every literal, with its
// start offset, its length and its index, in order of end offset.
func (m *matcher) each(text string, fn func(at, n, p int)) {
	row := int32(0)
	for i := 0; i < len(text); i++ {
		row = m.next[row+int32(m.class[text[i]])]
		if row < 0 {
			row = ^row
			for _, p := range m.out[row/int32(m.nclass)] {
				n := m.lens[p]
				fn(i-n+1, n, int(p))
			}
		}
	}
}

// any reports whether text holds one of the literals.
func (m *matcher) any(text string) bool {
	row := int32(0)
	for i := 0; i < len(text); i++ {
		if row = m.next[row+int32(m.class[text[i]])]; row < 0 {
			return true
		}
	}
	return false
}
