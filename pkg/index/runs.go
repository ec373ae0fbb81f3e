package index

// automatonRuns is the number of runs from which findRuns makes one pass
// with a runFinder: below it a pass per run (bytes.Index, which skips to
// the run's first byte) costs as little or less (BenchmarkRunSearch, on
// the words of five GOROOT packages: 2 runs 11 ms a pass each against 59
// ms in one pass, 8 and 16 runs about even, 32 runs 243 ms against 50 ms).
const automatonRuns = 16

// findRuns is, per run, the lines of text that hold it and that keep
// takes (nil: all), in order, each once.
func findRuns(runs []string, keep func(run int, line []byte) bool, text []byte) [][]lineAt {
	if len(runs) > automatonRuns {
		return newRunFinder(runs).lines(text, keep)
	}
	out := make([][]lineAt, len(runs))
	for i, r := range runs {
		linesWith(text, []byte(r), func(id, at int, line []byte) {
			if keep == nil || keep(i, line) {
				out[i] = append(out[i], lineAt{id, at, int32(len(line))})
			}
		})
	}
	return out
}

// A runFinder finds the lines of a word text ('\n'-separated words) that
// hold each of a set of runs, in one pass over the text whatever the
// number of runs: an Aho-Corasick automaton over the runs' bytes. A goal
// of a hundred dotted names has a few hundred runs; asking the
// dictionary's text (megabytes) for each in turn cost a pass per run.
type runFinder struct {
	runs  []string
	class [256]uint8 // a byte's column in next; 0 for a byte in no run
	cols  int
	next  []int32   // state*cols+class: the state after the byte
	out   [][]int32 // per state, the runs that end there
}

// newRunFinder is the automaton of runs, none of them empty or holding a
// line break.
func newRunFinder(runs []string) *runFinder {
	f := &runFinder{runs: runs, cols: 1}
	for _, r := range runs {
		for i := 0; i < len(r); i++ {
			if f.class[r[i]] == 0 {
				f.class[r[i]] = uint8(f.cols)
				f.cols++
			}
		}
	}
	goTo := f.trie()
	f.link(goTo)
	return f
}

// trie adds a state per prefix of the runs (state 0 the empty one) and
// returns its edges, -1 where it has none; out holds each run at the state
// that spells it.
func (f *runFinder) trie() []int32 {
	goTo := f.grow(nil)
	for ri, r := range f.runs {
		s := int32(0)
		for i := 0; i < len(r); i++ {
			c := int32(f.class[r[i]])
			if goTo[s*int32(f.cols)+c] < 0 {
				goTo[s*int32(f.cols)+c] = int32(len(f.out))
				goTo = f.grow(goTo)
			}
			s = goTo[s*int32(f.cols)+c]
		}
		f.out[s] = append(f.out[s], int32(ri))
	}
	return goTo
}

// grow adds a state without edges.
func (f *runFinder) grow(goTo []int32) []int32 {
	f.out = append(f.out, nil)
	for range f.cols {
		goTo = append(goTo, -1)
	}
	return goTo
}

// link completes the edges breadth first: a missing edge goes where the
// state's longest proper suffix that is a prefix (its fail state) goes,
// and a state ends the runs its fail state ends too.
func (f *runFinder) link(goTo []int32) {
	cols := int32(f.cols)
	f.next = make([]int32, len(goTo))
	fail := make([]int32, len(f.out))
	queue := make([]int32, 0, len(f.out))
	for c := range cols {
		if t := goTo[c]; t > 0 {
			f.next[c] = t
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f.out[s] = append(f.out[s], f.out[fail[s]]...)
		for c := range cols {
			t := goTo[s*cols+c]
			if t < 0 {
				f.next[s*cols+c] = f.next[fail[s]*cols+c]
				continue
			}
			f.next[s*cols+c] = t
			fail[t] = f.next[fail[s]*cols+c]
			queue = append(queue, t)
		}
	}
}

// lineAt is line id of a word text, starting at byte at, n bytes long.
type lineAt struct {
	id, at int
	n      int32
}

// lines is, per run, the lines of text that hold it and that keep takes
// (nil: all), in order, each once.
func (f *runFinder) lines(text []byte, keep func(run int, line []byte) bool) [][]lineAt {
	out := make([][]lineAt, len(f.runs))
	seen := make([]int, len(f.runs)) // 1 + the last line that held the run
	var pending []int32              // the runs the current line holds
	cols := int32(f.cols)
	s, id, at := int32(0), 0, 0
	flush := func(end int) {
		for _, r := range pending {
			if keep == nil || keep(int(r), text[at:end]) {
				out[r] = append(out[r], lineAt{id, at, int32(end - at)})
			}
		}
		pending = pending[:0]
	}
	for i, c := range text {
		if c == '\n' {
			flush(i)
			s, id, at = 0, id+1, i+1
			continue
		}
		s = f.next[s*cols+int32(f.class[c])]
		for _, r := range f.out[s] {
			if seen[r] != id+1 {
				seen[r] = id + 1
				pending = append(pending, r)
			}
		}
	}
	flush(len(text))
	return out
}
