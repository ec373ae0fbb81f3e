package hydrate

import (
	"errors"
	"fmt"
)

// load reads the surface's file, or records why it is not read.
func (h *hydrator) load(sf *surface) {
	p := sf.rs.Path
	if f := h.forbiddenBy(p); f != "" {
		h.skip(p, "forbidden", 0, 0, fmt.Sprintf("rank %d: excluded by forbidden assumption %q", sf.rs.Rank, f))
		sf.skipped = true
		return
	}
	file, err := h.o.Cache.ReadFile(h.o.Root, p, h.o.MaxFileSize)
	if err != nil {
		var re *ReadError
		reason, size := "unreadable", int64(0)
		if errors.As(err, &re) {
			reason, size = re.Reason, re.Size
		}
		h.skip(p, reason, size, 0, fmt.Sprintf("rank %d: %v", sf.rs.Rank, err))
		sf.skipped = true
		return
	}
	if file.Lines() == 0 {
		h.skip(p, "empty", 0, 0, fmt.Sprintf("rank %d: the file is empty", sf.rs.Rank))
		sf.skipped = true
		return
	}
	sf.file = file
}

// plan lists the steps of a surface whose file was read: its whole file
// when that is small, its ranked functions (functionSteps), or windows
// around its anchors.
func (h *hydrator) plan(sf *surface) {
	n := sf.file.Lines()
	segs := h.segments(sf)
	first := &step{seg: segs[0]}
	h.estimate(sf, first)
	wholeOK := n <= h.o.WholeFileLines || (sf.known && h.o.Fanout != "wide" && n <= h.o.KnownTargetLines)
	if wholeOK && !(segs[0].s == 1 && segs[0].e == n) {
		whole := &step{seg: segment{s: 1, e: n, target: segs[0].target, hit: segs[0].hit, anchors: allAnchors(segs)}, whole: true}
		h.estimate(sf, whole)
		switch {
		case 2*whole.cost <= 3*first.cost:
			// Small enough that the whole file costs little more than a window.
			sf.steps = []*step{whole}
		case definedUnits(sf):
			whole.replace = true
			sf.steps = append(h.functionSteps(sf, segs), whole)
		default:
			whole.replace = true
			sf.steps = []*step{first, whole}
		}
		return
	}
	if definedUnits(sf) && !(segs[0].s == 1 && segs[0].e == n) {
		if sf.steps = h.functionSteps(sf, segs); len(sf.steps) > 0 {
			return
		}
	}
	if segs[0].s == 1 && segs[0].e == n {
		first.whole = true
	} else if sf.order >= fullFirstTop && !sf.known && segs[0].anchors[0] >= 1 {
		// Below the top surfaces a first look is half a window: it shows
		// the file is relevant at a fraction of the cost, and the budget it
		// saves reads more of the top surfaces (deepen widens it later when
		// budget is left).
		t := segs[0].target
		first.seg.s, first.seg.e = max(first.seg.s, t-h.o.Window/2), min(first.seg.e, t+h.o.Window/2)
		first.half = true
		h.estimate(sf, first)
	}
	sf.steps = []*step{first}
	for _, sg := range segs[1:] {
		st := &step{seg: sg}
		h.estimate(sf, st)
		sf.steps = append(sf.steps, st)
	}
}

func allAnchors(segs []segment) []int {
	var out []int
	for _, s := range segs {
		out = append(out, s.anchors...)
	}
	return out
}

// segments turns the surface's anchors into windows, best anchor first.
// Overlapping windows are merged up to twice a window's length; beyond that
// the later window is clipped where the earlier one ends, so chunks never
// overlap and never grow without bound. Last, a window that holds the head
// of the function around its target moves down that function's body
// (alignToBodies).
func (h *hydrator) segments(sf *surface) []segment {
	n := sf.file.Lines()
	w := h.o.Window
	maxLen := 2 * (2*w + 1)
	var segs []segment
	for _, a := range h.anchors(sf) {
		var sg segment
		switch {
		case a == -1: // the known target's own range
			_, r := h.knownTarget()
			// The caller's range, bounded like any chunk: at most the
			// known-target whole-file size.
			sg = segment{s: max(1, r[0]), e: min(n, r[1], max(1, r[0])+max(1, h.o.KnownTargetLines)-1), target: max(1, r[0])}
			if sg.s > n {
				continue
			}
		case a < 1 || a > n:
			sg = segment{s: 1, e: min(n, 2*w+1), target: 1}
		default:
			sg = segment{s: max(1, a-w), e: min(n, a+w), target: a}
		}
		sg.hit = h.hitAt(sf.rs.Path, a)
		sg.anchors = []int{a}
		covered := false
		for i := range segs {
			if sg.target >= segs[i].s && sg.target <= segs[i].e {
				segs[i].anchors = append(segs[i].anchors, a)
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		// Clip against existing segments to the part around the target.
		for _, o := range segs {
			if o.e < sg.target && o.e >= sg.s {
				sg.s = o.e + 1
			}
			if o.s > sg.target && o.s <= sg.e {
				sg.e = o.s - 1
			}
		}
		// Merge with an adjacent segment when the union stays bounded.
		merged := false
		for i := range segs {
			o := &segs[i]
			if (o.e+1 == sg.s || sg.e+1 == o.s) && max(o.e, sg.e)-min(o.s, sg.s)+1 <= maxLen {
				o.s, o.e = min(o.s, sg.s), max(o.e, sg.e)
				o.anchors = append(o.anchors, a)
				merged = true
				break
			}
		}
		if !merged {
			segs = append(segs, sg)
		}
	}
	if len(segs) == 0 {
		segs = []segment{{s: 1, e: min(n, 2*w+1), target: 1, anchors: []int{0}}}
	}
	h.alignToBodies(sf, segs)
	return segs
}
