package hydrate

import (
	"fmt"
	"strings"

	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/schema"
)

// DefaultEnoughFloor is the share of the chunk budget, in percent, the lane
// spends before it may stop for enough evidence (docs/decisions/stop.md).
const DefaultEnoughFloor = 90

// stopper decides when the lane has read enough: once EnoughFloor percent
// of the chunk budget is spent, chunks are held on breadthTop files (or
// every readable one, when fewer), and every goal term naming something
// checkable that the probes found in the tree is in a chunk held, the lane
// adds no more chunks.
type stopper struct {
	terms   []string        // the goal's named terms the probes found
	covered []bool          // per term: in a chunk held
	files   map[string]bool // files with a chunk held
	need    int             // files to hold before stopping
	stopped string          // why the lane stopped ("" while it goes on)
}

// newStopper lists the goal's checkable terms that hit the tree.
func (h *hydrator) newStopper(surfaces []*surface) *stopper {
	st := &stopper{files: map[string]bool{}}
	if h.in.Intake != nil {
		seen := map[string]bool{}
		for _, gt := range h.in.Intake.GoalTerms {
			if intake.Named(gt.Kind) && !seen[gt.Term] && h.found(gt.Term) {
				seen[gt.Term] = true
				st.terms = append(st.terms, gt.Term)
			}
		}
	}
	st.covered = make([]bool, len(st.terms))
	for _, sf := range surfaces {
		if len(sf.steps) > 0 && st.need < breadthTop {
			st.need++
		}
	}
	return st
}

// found reports whether a probe hit term in the tree.
func (h *hydrator) found(term string) bool {
	for _, x := range h.in.Hits {
		if strings.EqualFold(x.Term, term) {
			return true
		}
	}
	return false
}

// held notes the terms and file of chunks just held.
func (st *stopper) held(chunks []schema.Chunk) {
	for _, c := range chunks {
		st.files[c.Path] = true
		for i, t := range st.terms {
			if !st.covered[i] && Covers(c, t) {
				st.covered[i] = true
			}
		}
	}
}

// enough reports whether the lane stops; once it stops it stays stopped.
func (h *hydrator) enough() bool {
	st := h.stop
	if st == nil || st.stopped != "" {
		return st != nil
	}
	if h.o.EnoughFloor <= 0 || h.o.EnoughFloor >= 100 || h.spent*100 < h.o.EnoughFloor*h.o.Budget || len(st.files) < st.need {
		return false
	}
	for _, c := range st.covered {
		if !c {
			return false
		}
	}
	st.stopped = fmt.Sprintf("the lane stopped at %d of %d tokens with its evidence enough: %d files read", h.spent, h.o.Budget, len(st.files))
	if len(st.terms) > 0 {
		st.stopped += fmt.Sprintf(", the goal's named terms %s all read", strings.Join(st.terms[:min(len(st.terms), 6)], ", "))
		if len(st.terms) > 6 {
			st.stopped += fmt.Sprintf(" (and %d more)", len(st.terms)-6)
		}
	}
	return true
}
