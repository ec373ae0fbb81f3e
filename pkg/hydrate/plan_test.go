package hydrate

import (
	"fmt"
	"slices"
	"testing"
)

// TestPlanListsEveryRead: Plan lists the reads of every ranked definition,
// those the budget leaves unread included, each with its price, and the
// reads Hydrate takes under a small budget are among them.
func TestPlanListsEveryRead(t *testing.T) {
	special := map[int]string{}
	for i, name := range []string{"parseFlags", "applyFlags", "flagUsage"} {
		special[4+6*i] = fmt.Sprintf("func %s(flags []string) int {\n\tn := len(flags)\n\treturn n + %d\n}\n", name, i)
	}
	root := writeTree(t, map[string]string{"f.go": goFile(30, 20, special)})
	in := fnInput([]string{"parseFlags", "applyFlags", "flagUsage", "flags"}, "f.go")
	o := opts(root, 100)
	o.Frame = -1
	p, err := Plan(in, o)
	if err != nil {
		t.Fatal(err)
	}
	if p.Budget != 100 {
		t.Errorf("budget %d, want 100 (no frame held back)", p.Budget)
	}
	var planned []string
	units := map[int]bool{}
	for _, r := range p.Reads {
		if r.Path != "f.go" || r.Rank != 1 || r.Tokens <= 0 || r.Start > r.End {
			t.Errorf("read %+v", r)
		}
		if r.UnitRank > 0 {
			units[r.UnitRank] = true
		}
		planned = append(planned, fmt.Sprintf("%s:L%d-L%d", r.Path, r.Start, r.End))
	}
	if len(units) < 3 {
		t.Fatalf("reads of %d ranked definitions, want the three named ones: %+v", len(units), p.Reads)
	}
	res, err := Hydrate(in, o)
	if err != nil {
		t.Fatal(err)
	}
	got := ranges(res.Chunks)
	if len(got) == 0 || len(got) >= len(planned) {
		t.Fatalf("read %v of planned %v: want some, not all", got, planned)
	}
	for _, c := range got {
		if !slices.Contains(planned, c) {
			t.Errorf("read %s is not a planned read %v", c, planned)
		}
	}
}
