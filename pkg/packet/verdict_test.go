package packet

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// goalLane is testLane with a definition naming nothing checkable, so the
// verdict takes its requirements from the goal.
func goalLane() *Input {
	in := testLane()
	in.Intake.EnoughEvidenceDefinition = "the file and lines that implement it are hydrated"
	in.Intake.GoalTerms = []schema.GoalTerm{
		{Term: "ParseFlags", Kind: "identifier"},
		{Term: "parse", Kind: "camel_part"},
		{Term: "flags", Kind: "word"},
	}
	in.Hits = []schema.Hit{{Path: "a.go", Line: 3, Term: "ParseFlags", ConfidenceClass: "source_bearing_hit"}}
	return in
}

func TestVerdictFromTheGoal(t *testing.T) {
	p, err := Build(goalLane(), Options{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	want := schema.Verdict{Satisfied: true, Missing: []string{}, By: []string{
		"the best-ranked surface a.go is read (L1-L20)",
		`"ParseFlags" (named in the goal) found in a.go:L1-L20`,
	}}
	if p.HaltingReason != HaltSatisfied || !reflect.DeepEqual(p.Verdict, want) {
		t.Fatalf("%s %+v, want %+v", p.HaltingReason, p.Verdict, want)
	}
	// An identifier of the goal the probes found in the tree but no chunk
	// read is missing, and the next call re-enters its best hit.
	in := goalLane()
	in.Intake.GoalTerms = append(in.Intake.GoalTerms, schema.GoalTerm{Term: "flagSet", Kind: "identifier"}, schema.GoalTerm{Term: "notInTree", Kind: "identifier"})
	in.Hits = append(in.Hits, schema.Hit{Path: "c.go", Line: 7, Term: "flagSet"}, schema.Hit{Path: "b.go", Line: 4, Term: "flagSet"})
	in.Skips = []schema.Skip{{Path: "c.go", Reason: "budget", Stage: "hydrate"}}
	for _, c := range []struct {
		ptr  Pointers
		next string
	}{{PointCLI, "rtch-hydrate --reenter b.go:4"}, {PointMCP, "rtch_reenter range=b.go:4"}} {
		p, _ = Build(in, Options{Now: t0, Pointers: c.ptr})
		v := p.Verdict
		if p.HaltingReason != HaltBudget || v.Satisfied || len(v.Missing) != 1 || !strings.Contains(v.Missing[0], `"flagSet" (named in the goal) is in the tree at b.go:4`) || v.Next != c.next {
			t.Fatalf("%s %+v", p.HaltingReason, v)
		}
		if p.NextLegalProbes[0] != c.next {
			t.Errorf("next legal probes do not open with the verdict's call: %q", p.NextLegalProbes)
		}
	}
	// The best-ranked surface unread: its best anchor is the next call.
	in = goalLane()
	in.Chunks = in.Chunks[1:]
	p, _ = Build(in, Options{Now: t0})
	if p.Verdict.Satisfied || p.Verdict.Next != "rtch-hydrate --reenter a.go:10" || !strings.Contains(p.Verdict.Missing[0], "the best-ranked surface a.go holds no chunk") {
		t.Fatalf("%+v", p.Verdict)
	}
}

func TestVerdictNamedInTheDefinition(t *testing.T) {
	in := testLane()
	in.Intake.EnoughEvidenceDefinition = "`ParseFlags` and `Missing` are hydrated"
	p, _ := Build(in, Options{Now: t0, Pointers: PointMCP})
	v := p.Verdict
	if v.Satisfied || len(v.By) != 1 || !strings.HasPrefix(v.By[0], `"ParseFlags" found in a.go:L1-L20`) || v.Next != "call rtch_context again with seeds=[Missing] so the scout pairs it" {
		t.Fatalf("%+v", v)
	}
	// A chunk of class hit holding the named function meets the
	// requirement: it was read where the name occurs.
	in = testLane()
	in.Chunks[0].ConfidenceClass = "hit"
	in.Hits = []schema.Hit{{Path: "x.go", ConfidenceClass: "source_bearing_hit"}}
	if p, _ := Build(in, Options{Now: t0}); !p.Verdict.Satisfied {
		t.Fatalf("a hit holding the named item did not satisfy: %+v", p.Verdict)
	}
}

func TestVerdictInTheBrief(t *testing.T) {
	p, _ := Build(goalLane(), Options{Now: t0})
	md := Markdown(p, nil, tokens.Chars4)
	if !strings.Contains(md, "- **satisfied by:** `the best-ranked surface a.go is read (L1-L20)`; `\"ParseFlags\" (named in the goal) found in a.go:L1-L20`\n") {
		t.Fatalf("brief header:\n%s", md[:min(len(md), 900)])
	}
	in := goalLane()
	in.Chunks = in.Chunks[1:]
	p, _ = Build(in, Options{Now: t0, Pointers: PointMCP})
	md, _ = renderMeasured(p, nil, views[0], look{count: tokens.Chars4, pointers: PointMCP})
	if !strings.Contains(md, "- **missing:** `the best-ranked surface a.go holds no chunk read where its terms occur`") || !strings.Contains(md, "- **next call:** `rtch_reenter range=a.go:10`\n") {
		t.Fatalf("brief header:\n%s", md[:min(len(md), 900)])
	}
	s := Summarize(p, PointMCP, false)
	if s.Verdict.Satisfied || s.Verdict.Next != "rtch_reenter range=a.go:10" || len(s.Verdict.Missing) != 2 {
		t.Fatalf("summary verdict %+v", s.Verdict)
	}
}
