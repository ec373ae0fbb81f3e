package hydrate

// deepenRounds is how many windows the final pass may add on each side of a
// read range.
const deepenRounds = 2

// deepen spends what the planned windows left. Round after round, in rank
// order, each read range of a surface whose planned steps are all taken gets
// a window of context below it (where a definition's body goes on), then one
// above it. An added window is a chunk of its own, at most a window long,
// never overlapping a held chunk, and charged to a probe whose hit it holds
// like any further window (it is not read when every such probe is at its
// cap).
func (h *hydrator) deepen(surfaces []*surface) {
	type grow struct {
		sf   *surface
		s, e int // the range grown so far
	}
	var gs []*grow
	for _, sf := range surfaces {
		if sf.skipped || sf.file == nil || len(sf.chunks) == 0 || sf.next < len(sf.steps) {
			continue
		}
		// Held ranges in the order they were read (best anchor first),
		// adjacent chunks joined.
		var held []*grow
		for _, c := range sf.chunks {
			joined := false
			for _, g := range held {
				if c.StartLine <= g.e+1 && c.EndLine >= g.s-1 {
					g.s, g.e = min(g.s, c.StartLine), max(g.e, c.EndLine)
					joined = true
					break
				}
			}
			if !joined {
				held = append(held, &grow{sf: sf, s: c.StartLine, e: c.EndLine})
			}
		}
		gs = append(gs, held...)
	}
	size := 2*h.o.Window + 1
	for round := 0; round < deepenRounds; round++ {
		for _, below := range []bool{true, false} {
			for _, g := range gs {
				if h.spent >= h.o.Budget {
					return
				}
				n := g.sf.file.Lines()
				var s, e int
				if below {
					s, e = g.e+1, min(n, g.e+size)
				} else {
					s, e = max(1, g.s-size), g.s-1
				}
				// Clip at the chunks already held on this side.
				for _, c := range g.sf.chunks {
					if below && c.StartLine >= s && c.StartLine <= e {
						e = c.StartLine - 1
					}
					if !below && c.EndLine >= s && c.EndLine <= e {
						s = c.EndLine + 1
					}
				}
				if s > e {
					continue
				}
				// A full window, else a narrow one when that is all that fits.
				for _, k := range []int{size, 2*NarrowWindow + 1} {
					ks, ke := s, e
					if below {
						ke = min(e, s+k-1)
					} else {
						ks = max(s, e-k+1)
					}
					if h.extend(g.sf, ks, ke, below) {
						if below {
							g.e = ke
						} else {
							g.s = ks
						}
						break
					}
				}
			}
		}
	}
}

// extend reads lines s..e of sf as an added chunk if they fit the budget and
// the probe cap.
func (h *hydrator) extend(sf *surface, s, e int, below bool) bool {
	if h.enough() {
		return false
	}
	target := s
	if !below {
		target = e
	}
	st := &step{seg: segment{s: s, e: e, target: target, anchors: []int{target}}, deepen: true}
	st.seg.hit = h.bestHitIn(sf.rs.Path, s, e)
	if st.seg.hit != nil && st.seg.hit.Line == 0 {
		st.seg.hit = nil
	}
	h.estimate(sf, st)
	if h.spent+st.cost > h.o.Budget {
		return false
	}
	probe, full := h.charge(sf, st)
	if full {
		return false
	}
	h.build(sf, st)
	if h.spent+st.cost > h.o.Budget {
		return false
	}
	if probe != "" {
		h.perProbe[probe]++
		sf.probes = append(sf.probes, probe)
	}
	h.hold(sf, st.chunks, false)
	sf.spent += st.cost
	h.spent += st.cost
	return true
}
