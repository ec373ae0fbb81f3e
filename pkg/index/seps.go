package index

// sepKeys are the distinct separators a query's patterns ask of a file's
// separator runs (File.Seps): those between two runs (Pattern.gaps), the
// leading ones a run must end with and the trailing ones a run must start
// with.
type sepKeys struct{ gaps, leads, trails []string }

func newSepKeys(pats []Pattern) *sepKeys {
	k := &sepKeys{}
	add := func(to *[]string, s string) {
		for _, t := range *to {
			if t == s {
				return
			}
		}
		*to = append(*to, s)
	}
	for _, p := range pats {
		for _, g := range p.gaps {
			add(&k.gaps, g)
		}
		if p.lead != "" {
			add(&k.leads, p.lead)
		}
		if p.trail != "" {
			add(&k.trails, p.trail)
		}
	}
	return k
}

// sepRuns is what one file's separator runs tell of the keys, found in
// one pass over them: the number (Occ.Sep) of the run that is each gap
// (0: none is), and whether a run ends with each leading separator and
// one starts with each trailing one. A file has hundreds of runs, a
// goal's patterns a few separators.
type sepRuns struct {
	keys        *sepKeys
	num         []int32
	lead, trail []bool
}

func (f *File) sepRuns(k *sepKeys) *sepRuns {
	s := &sepRuns{keys: k, num: make([]int32, len(k.gaps)), lead: make([]bool, len(k.leads)), trail: make([]bool, len(k.trails))}
	n := int32(1)
	eachWord(f.Seps, func(w []byte) {
		for i, g := range k.gaps {
			if string(w) == g {
				s.num[i] = n
			}
		}
		for i, l := range k.leads {
			s.lead[i] = s.lead[i] || len(w) >= len(l) && string(w[len(w)-len(l):]) == l
		}
		for i, t := range k.trails {
			s.trail[i] = s.trail[i] || len(w) >= len(t) && string(w[:len(t)]) == t
		}
		n++
	})
	return s
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
