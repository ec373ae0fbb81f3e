package hydrate

import (
	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/mdsafe"
	"github.com/rtch/rtch/pkg/tokens"
)

// FrameReserve is the part of the budget held back for the brief around the
// chunks: its header (the goal and the enough-evidence definition among it,
// as far as the header shows them),
// the list of ranked surfaces not read, the caution map, questions, next
// probes and skip counts. rtch-packet measures the written brief and leaves
// out the last chunks if the frame took more; a reserve too large leaves
// budget unspent, so it follows what the frame is made of rather than a share
// of the budget, and never takes more than a quarter of it.
func FrameReserve(in *Input, budget int, count tokens.Counter) int {
	n := frameBase
	if in != nil && in.Intake != nil {
		n += count.Of(mdsafe.Cut(in.Intake.Goal, brief.GoalShown)) + count.Of(mdsafe.Cut(in.Intake.EnoughEvidenceDefinition, brief.EnoughShown))
	}
	if in != nil && in.Rank != nil {
		listed := 0
		for _, rs := range in.Rank.Surfaces {
			if listed++; listed > frameSurfaces {
				break
			}
			n += count.Of(rs.Path) + 3
		}
	}
	return min(n, budget/4)
}

// frameBase is the frame without the goal and the surface list, as measured
// on briefs of this repository and GOROOT/src (docs/decisions/brief.md);
// frameSurfaces is how many surfaces the reserve prices a list entry for.
const (
	frameBase     = 650
	frameSurfaces = 25
)
