package index

import (
	"bytes"
	"slices"
)

// sepKeys are the distinct separators a query's patterns ask of a file's
// separator runs (File.Seps): those between two runs (Pattern.gaps), the
// leading ones a run must end with and the trailing ones a run must start
// with; and, for each, what is looked for in the runs' text.
type sepKeys struct {
	gaps, leads, trails []string
	gapFirst, gapNext   [][]byte // g"\n" (the first run), "\n"g"\n" (another)
	leadEnd, trailStart [][]byte // l"\n", "\n"t
}

func newSepKeys(pats []Pattern) *sepKeys {
	k := &sepKeys{}
	add := func(to *[]string, s string) bool {
		if slices.Contains(*to, s) {
			return false
		}
		*to = append(*to, s)
		return true
	}
	for _, p := range pats {
		for _, g := range p.gaps {
			if add(&k.gaps, g) {
				k.gapFirst = append(k.gapFirst, []byte(g+"\n"))
				k.gapNext = append(k.gapNext, []byte("\n"+g+"\n"))
			}
		}
		if p.lead != "" && add(&k.leads, p.lead) {
			k.leadEnd = append(k.leadEnd, []byte(p.lead+"\n"))
		}
		if p.trail != "" && add(&k.trails, p.trail) {
			k.trailStart = append(k.trailStart, []byte("\n"+p.trail))
		}
	}
	return k
}

// sepRuns is what one file's separator runs tell of the keys: the number
// (Occ.Sep) of the run that is each gap (0: none is), and whether a run
// ends with each leading separator and one starts with each trailing
// one. A file has hundreds of runs and a goal's patterns a few
// separators, so each is looked for in the runs' text (each run followed
// by '\n', none holding one) rather than each run compared with them.
type sepRuns struct {
	keys        *sepKeys
	num         []int32
	lead, trail []bool
}

func (f *File) sepRuns(k *sepKeys) *sepRuns {
	s := &sepRuns{keys: k, num: make([]int32, len(k.gaps)), lead: make([]bool, len(k.leads)), trail: make([]bool, len(k.trails))}
	text := f.Seps
	for i := range k.gaps {
		s.num[i] = runNumber(text, k.gapFirst[i], k.gapNext[i])
	}
	for i, l := range k.leadEnd {
		s.lead[i] = bytes.Contains(text, l)
	}
	for i, t := range k.trails {
		s.trail[i] = bytes.HasPrefix(text, []byte(t)) || bytes.Contains(text, k.trailStart[i])
	}
	return s
}

// runNumber is 1 + the place among the runs of text (each followed by
// '\n', all distinct) of the run whose text with its '\n' is first, or
// with the '\n' before it as well is next; 0 when it is not one of them.
func runNumber(text, first, next []byte) int32 {
	at := 0
	if !bytes.HasPrefix(text, first) {
		i := bytes.Index(text, next)
		if i < 0 {
			return 0
		}
		at = i + 1
	}
	return int32(bytes.Count(text[:at], []byte{'\n'})) + 1
}

// number is the number of the run that is gap g, 0 when none is.
func (s *sepRuns) number(g string) int32 {
	for i, k := range s.keys.gaps {
		if k == g {
			return s.num[i]
		}
	}
	return 0
}

// around reports whether the file has the runs p's leading separator can
// end and its trailing one can start.
func (s *sepRuns) around(p Pattern) bool {
	return sepFound(s.keys.leads, s.lead, p.lead) && sepFound(s.keys.trails, s.trail, p.trail)
}

// sepFound reports whether the key sep (none when empty) is found.
func sepFound(keys []string, found []bool, sep string) bool {
	if sep == "" {
		return true
	}
	for i, k := range keys {
		if k == sep {
			return found[i]
		}
	}
	return false
}
