package hydrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/schema"
)

// NarrowWindow is the half-width tried when a surface's first window does not
// fit the remaining budget: a short look at the best line beats no look.
const NarrowWindow = 5

// breadthTop is how many of the best readable surfaces are read in depth
// before any surface below them gets its first chunk.
const breadthTop = 3

// fullFirstTop is how many surfaces, in fill order, get a full window as
// their first chunk; the others get half a window first.
const fullFirstTop = 3

// secondTop is how many further steps each of the breadthTop best surfaces
// takes before the surfaces below them get their first chunk: windows on the
// ranking's anchors, then on the other places where the surface's terms
// cluster (hitAnchors), or the whole-file upgrade.
const secondTop = 6

// topDepth is how many further steps the first surface in fill order (the
// ranking's best file, or the known target) takes right after the first
// chunks of the breadthTop best, before the others take their further
// windows: that file holds most of the gold lines, and on SWE-bench dev its
// second to fifth windows held 10-24 points of line recall per 1,000
// tokens, the further windows of ranks 2 and 3 0-3 (docs/decisions/brief.md).
const topDepth = 12

// fill spends the budget on the strongest surfaces first, depth before
// breadth: the first chunks of the breadthTop best readable surfaces, then up
// to topDepth further windows of the first of them, then up to secondTop
// further windows on each of the others (the ranking's anchors, or
// their whole-file upgrade), and only from what is left the first chunk of
// each surface below them in rank order (half a window below the top
// fullFirstTop, narrowed to ±NarrowWindow lines when a window no longer
// fits), then everything else round-robin in rank order, and last, with
// budget left, context next to the ranges read (deepen).
func (h *hydrator) fill(surfaces []*surface) {
	if len(h.ranked) > 0 {
		h.fillByFunctions(surfaces)
		return
	}
	firsts := 0
	for _, sf := range surfaces {
		if firsts == breadthTop {
			break
		}
		if len(sf.steps) > 0 && sf.next == 0 {
			firsts++
			h.take(sf, h.o.Budget)
		}
	}
	for _, sf := range surfaces {
		if sf.next > 0 {
			for k := 0; k < topDepth && h.take(sf, h.o.Budget); k++ {
			}
			break
		}
	}
	for round := 0; round < secondTop; round++ {
		deepened := 0
		for _, sf := range surfaces {
			if deepened == breadthTop {
				break
			}
			if sf.next == round+1 && len(sf.steps) > round+1 {
				h.take(sf, h.o.Budget)
				deepened++
			}
		}
	}
	h.fillRest(surfaces)
}

// fillRest spends what the first reads left: the first chunk of every
// surface not read yet, in rank order (narrowed when it does not fit),
// then every surface's further windows round-robin, and last, with budget
// left, context next to the ranges read (deepen).
func (h *hydrator) fillRest(surfaces []*surface) {
	for _, sf := range surfaces {
		if len(sf.steps) > 0 && sf.next == 0 {
			if !h.take(sf, h.o.Budget) && sf.next == 0 {
				h.narrow(sf)
			}
		}
	}
	for progress := true; progress; {
		progress = false
		for _, sf := range surfaces {
			if sf.next > 0 && sf.next < len(sf.steps) {
				if h.take(sf, h.o.Budget) {
					progress = true
				}
			}
		}
	}
	if h.o.Deepen && !h.enough() {
		h.deepen(surfaces)
	}
}

// hold gives sf the chunks of a step just read and notes when they were read.
// A whole file that replaces the windows held takes the place of the first of
// them: it is the surface's first look, now complete.
func (h *hydrator) hold(sf *surface, chunks []schema.Chunk, replace bool) {
	at := 0
	if replace {
		for _, c := range sf.chunks {
			if o := h.read[c.ChunkID]; at == 0 || o < at {
				at = o
			}
		}
		sf.chunks = nil
	}
	for _, c := range chunks {
		h.nread++
		h.read[c.ChunkID] = h.nread
		if at > 0 {
			h.read[c.ChunkID] = at
		}
	}
	sf.chunks = append(sf.chunks, chunks...)
	h.holdViews(sf, chunks)
	if h.stop != nil {
		h.stop.held(chunks)
	}
}

// holdViews records, once per chunk, that an effective-record view stands
// in for the raw row it corrects (a corrected_record skip for the row).
func (h *hydrator) holdViews(sf *surface, chunks []schema.Chunk) {
	for _, c := range chunks {
		if c.ConfidenceClass == "effective_record_view" && !h.heldView[c.ChunkID] {
			h.heldView[c.ChunkID] = true
			h.skip(c.Path, "corrected_record", int64(len(sf.file.Bytes(c.StartLine, c.EndLine))), 1,
				fmt.Sprintf("L%d: raw row of record %s not hydrated; its effective view is chunk %s", c.StartLine, strings.TrimPrefix(c.TermOrShape, "record:"), c.ChunkID))
		}
	}
}

// take gives sf its next step if it fits under limit and the probe cap; a step
// refused by the probe cap is passed over for good.
func (h *hydrator) take(sf *surface, limit int) bool {
	if h.enough() {
		return false
	}
	for sf.next < len(sf.steps) {
		st := sf.steps[sf.next]
		if !st.built {
			h.build(sf, st)
		}
		delta := st.cost
		if st.replace {
			delta -= sf.spent
		}
		// A surface's first chunk is the ranking's choice and counts against no
		// probe's cap (the budget bounds it), nor does a read of a ranked
		// definition (the function ranking's choice, over every term); the
		// cap bounds the further windows a probe's hits add
		// (docs/decisions/evidence.md).
		probe, full := "", false
		if !st.replace && len(sf.chunks) > 0 && st.unit == nil {
			probe, full = h.charge(sf, st)
		}
		if full {
			sf.capped = append(sf.capped, fmt.Sprintf("%s (probe %s reached its cap of %d chunks)", LineRange(st.seg.s, st.seg.e), probe, h.o.MaxChunksPerProbe))
			sf.next++
			continue
		}
		if h.spent+delta > limit {
			return false
		}
		if !st.replace && probe != "" {
			h.perProbe[probe]++
			sf.probes = append(sf.probes, probe)
		}
		h.hold(sf, st.chunks, st.replace)
		sf.spent += delta
		h.spent += delta
		sf.next++
		return true
	}
	return false
}

// charge picks the probe a step's chunk counts against: the anchor's probe if
// it is under its cap, else the probe with the most room among those with a
// hit inside the range (a chunk holding hits of several probes is justified
// by any of them). full is true when every such probe is at its cap; probe is
// "" when no probe's hit lies in the range.
func (h *hydrator) charge(sf *surface, st *step) (probe string, full bool) {
	room := func(p string) bool { return h.perProbe[p] < h.o.MaxChunksPerProbe }
	if st.seg.hit != nil && st.seg.hit.ProbeID != "" && room(st.seg.hit.ProbeID) {
		return st.seg.hit.ProbeID, false
	}
	best := ""
	for _, x := range h.hits[sf.rs.Path] {
		if x.ProbeID == "" || x.Line < st.seg.s || x.Line > st.seg.e || !room(x.ProbeID) {
			continue
		}
		if best == "" || h.perProbe[x.ProbeID] < h.perProbe[best] || (h.perProbe[x.ProbeID] == h.perProbe[best] && x.ProbeID < best) {
			best = x.ProbeID
		}
	}
	if best != "" {
		return best, false
	}
	// A window chosen where the terms occur may hold no kept hit: it counts
	// against a probe that searched for a term occurring in it.
	var probes []string
	for _, lt := range sf.occurs {
		if lt.line >= st.seg.s && lt.line <= st.seg.e {
			for t := range lt.terms.all() {
				probes = append(probes, h.probeOf[sf.rs.Path+"\x00"+sf.terms[t]])
			}
		}
	}
	slices.Sort(probes)
	for _, p := range probes {
		if p != "" && room(p) && (best == "" || h.perProbe[p] < h.perProbe[best]) {
			best = p
		}
	}
	if best != "" {
		return best, false
	}
	if st.seg.hit != nil && st.seg.hit.ProbeID != "" {
		return st.seg.hit.ProbeID, true
	}
	for _, p := range probes {
		if p != "" {
			return p, true
		}
	}
	for _, x := range h.hits[sf.rs.Path] {
		if x.ProbeID != "" && x.Line >= st.seg.s && x.Line <= st.seg.e {
			return x.ProbeID, true
		}
	}
	return "", false
}

// narrow tries a ±NarrowWindow window around the surface's best target line.
func (h *hydrator) narrow(sf *surface) {
	if h.enough() {
		return
	}
	first := sf.steps[0]
	n := sf.file.Lines()
	t := first.seg.target
	sg := segment{s: max(1, t-NarrowWindow), e: min(n, t+NarrowWindow), target: t, hit: first.seg.hit, anchors: first.seg.anchors[:1]}
	if sg.e-sg.s >= first.seg.e-first.seg.s {
		return
	}
	st := &step{seg: sg}
	h.build(sf, st)
	for i := range st.chunks {
		if st.chunks[i].ConfidenceClass != "effective_record_view" {
			st.chunks[i].Limitation += fmt.Sprintf("; narrowed to ±%d lines because a full window did not fit the budget", NarrowWindow)
		}
	}
	rest := sf.steps
	sf.steps = []*step{st}
	if h.take(sf, h.o.Budget) {
		// The narrow chunk stands in for the full first window; a whole-file
		// upgrade or later windows may still follow.
		sf.steps = append(sf.steps, rest[1:]...)
		return
	}
	sf.steps = rest
}
