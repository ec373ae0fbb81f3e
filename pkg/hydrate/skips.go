package hydrate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// unread reports what of a planned surface was not hydrated.
func (h *hydrator) unread(sf *surface) {
	if sf.skipped || sf.file == nil {
		return
	}
	var ranges []string
	for _, st := range append(sf.passed, sf.steps[sf.next:]...) {
		cost := fmt.Sprintf("%d tokens", st.cost)
		if !st.built {
			cost = "~" + cost // priced before redaction
		}
		if st.replace {
			if len(sf.chunks) > 0 {
				ranges = append(ranges, fmt.Sprintf("the rest of the file (whole-file read, %s)", cost))
			} else {
				ranges = append(ranges, fmt.Sprintf("%s (whole file, %s)", LineRange(1, sf.file.Lines()), cost))
			}
			continue
		}
		ranges = append(ranges, fmt.Sprintf("%s (%s)", LineRange(st.seg.s, st.seg.e), cost))
	}
	size, lines := int64(len(sf.file.Data)), sf.file.Lines()
	if len(ranges) > 0 {
		what := "not read"
		if len(sf.chunks) > 0 {
			what = "partly read; not read"
		}
		why := fmt.Sprintf("%d of %d tokens spent on chunks (%d of the %d-token budget held for the brief around them)", h.spent, h.o.Budget, h.budget-h.o.Budget, h.budget)
		if h.stop != nil && h.stop.stopped != "" {
			why = h.stop.stopped
		}
		h.skip(sf.rs.Path, "budget", size, lines, fmt.Sprintf("rank %d: %s: %s; %s", sf.rs.Rank, what, strings.Join(ranges, ", "), why))
	}
	if len(sf.capped) > 0 {
		h.skip(sf.rs.Path, "cost", size, lines, fmt.Sprintf("rank %d: not read: %s", sf.rs.Rank, strings.Join(sf.capped, ", ")))
	}
}

// unranked reports surfaces with hits that the ranking left out (its cap).
func (h *hydrator) unranked(surfaces []*surface) {
	ranked := map[string]bool{}
	for _, sf := range surfaces {
		ranked[sf.rs.Path] = true
	}
	count := map[string]int{}
	var paths []string
	for _, x := range h.in.Hits {
		if ranked[x.Path] {
			continue
		}
		if count[x.Path] == 0 {
			paths = append(paths, x.Path)
		}
		count[x.Path]++
	}
	sort.Strings(paths)
	for _, p := range paths {
		h.skip(p, "cost", 0, 0, fmt.Sprintf("%d hits, below the ranking's cap of %d surfaces", count[p], len(h.in.Rank.Surfaces)))
	}
}

func (h *hydrator) skip(p, reason string, size int64, lines int, detail string) {
	h.skips = append(h.skips, schema.Skip{
		Envelope:  record.Env(schema.KindSkip, schema.V1, Stage, p, reason, detail),
		Path:      p,
		Reason:    reason,
		SizeBytes: size,
		LineCount: lines,
		Stage:     Stage,
		Detail:    detail,
	})
}
