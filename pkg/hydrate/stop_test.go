package hydrate

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// longFiles is four ranked 2,000-line files with an anchor every 100
// lines: more than an 8,000-token budget reads.
func longFiles(t *testing.T) (*Input, string) {
	files := map[string]string{}
	var ss []schema.RankedSurface
	for _, p := range []string{"a.go", "b.go", "c.go", "d.go"} {
		files[p] = numbered(p, 2000)
		var anchors []int
		for l := 100; l <= 2000; l += 100 {
			anchors = append(anchors, l)
		}
		ss = append(ss, schema.RankedSurface{Path: p, Anchors: anchors})
	}
	return input(ss...), writeTree(t, files)
}

// stopLane is longFiles with goal terms given as identifiers the probes
// hit in the tree.
func stopLane(t *testing.T, terms ...string) (*Input, string) {
	in, root := longFiles(t)
	in.Intake = &schema.Intake{}
	for _, term := range terms {
		in.Intake.GoalTerms = append(in.Intake.GoalTerms, schema.GoalTerm{Term: term, Kind: "identifier"})
		in.Hits = append(in.Hits, schema.Hit{Path: "d.go", Line: 1, Term: term})
	}
	return in, root
}

func stopped(res *Result) int {
	n := 0
	for _, s := range res.Skips {
		if s.Reason == "budget" && strings.Contains(s.Detail, "the lane stopped at") {
			n++
		}
	}
	return n
}

func TestStop(t *testing.T) {
	run := func(floor int, terms ...string) *Result {
		t.Helper()
		in, root := stopLane(t, terms...)
		o := opts(root, 8000)
		o.EnoughFloor = floor
		res, err := Hydrate(in, o)
		if err != nil {
			t.Fatal(err)
		}
		noOverlap(t, res)
		return res
	}
	all := run(100)
	if stopped(all) != 0 {
		t.Fatal("floor 100 stopped the lane")
	}
	in, _ := stopLane(t)
	chunkBudget := all.Cap - FrameReserve(in, all.Cap, tokens.Counter{})
	// No checkable goal term: the lane stops at the first step after half
	// the chunk budget, with three files read.
	half := run(50)
	files := map[string]bool{}
	for _, c := range half.Chunks {
		files[c.Path] = true
	}
	if half.Spent*2 < chunkBudget || half.Spent >= all.Spent || len(files) < breadthTop || stopped(half) == 0 {
		t.Fatalf("floor 50: spent %d of %d (whole budget: %d), %d files, %d stop skips", half.Spent, chunkBudget, all.Spent, len(files), stopped(half))
	}
	// A floor reached by the first chunk still waits for three files.
	low := run(5)
	files = map[string]bool{}
	for _, c := range low.Chunks {
		files[c.Path] = true
	}
	if len(files) != breadthTop || stopped(low) == 0 {
		t.Fatalf("floor 5: %d files read, want %d, then the stop", len(files), breadthTop)
	}
	// A goal identifier read in the first chunk does not hold the lane.
	if early := run(50, "value_100"); early.Spent != half.Spent {
		t.Fatalf("a covered goal term changed the stop: spent %d, want %d", early.Spent, half.Spent)
	}
	// A goal identifier the tree holds where no chunk reaches keeps the
	// lane reading to the end of its budget.
	late := run(50, "value_1950", "value_100")
	if late.Spent != all.Spent || stopped(late) != 0 {
		t.Fatalf("an uncovered goal term: spent %d, want the whole budget's %d (%d stop skips)", late.Spent, all.Spent, stopped(late))
	}
	// A goal identifier no probe found is no requirement.
	in, root := stopLane(t, "value_1950")
	in.Hits = nil
	o := opts(root, 8000)
	o.EnoughFloor = 50
	if res, _ := Hydrate(in, o); res.Spent != half.Spent {
		t.Fatalf("a goal term absent from the tree held the lane: spent %d, want %d", res.Spent, half.Spent)
	}
}

func TestStopNeedsTheFilesThereAre(t *testing.T) {
	in, root := stopLane(t)
	in.Rank.Surfaces = in.Rank.Surfaces[:1]
	o := opts(root, 8000)
	o.EnoughFloor = 50
	res, err := Hydrate(in, o)
	if err != nil {
		t.Fatal(err)
	}
	if stopped(res) == 0 {
		t.Fatalf("one ranked file: the lane did not stop (spent %d)", res.Spent)
	}
}
