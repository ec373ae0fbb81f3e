package probe

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/basket"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

// The group a goal's spellings share travels intake → scout → basket →
// probe: the scout counts the files holding any spelling once, the basket
// carries the group and its IDF on each spelling's candidate, and the
// ranking scores the idea once and names the spellings it matched.
func TestIdeasThroughTheLane(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"restart.go":  "package x\n\n// restart restarts the task; it restarted it before.\nfunc restart() {}\n",
		"restarts.go": "package x\n\n// counts restarts\nvar restarts int\n",
		"policy.go":   "package x\n\n// policy for a restart\nvar policy int\n",
		"other.go":    "package x\n\nvar other int\n",
	}
	for name, text := range files {
		testtree.Write(t, dir, name, text)
	}
	goal := "restart policy: restarts are lost when the task restarted"
	m := intake.Merge(intake.Layer{Name: "flags", Fields: schema.IntakeFields{Goal: goal, TargetProfile: "code_path",
		FanoutLevel: "normal", MutationRisk: "read_only", ExpectedOutput: "hydration_packet", EnoughEvidenceDefinition: "test"}})
	in, err := intake.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	in.GoalTerms = intake.Ideas(in.Goal, in.GoalTerms)
	cfg := &config.Config{}
	wo := scout.WalkOptions(cfg, dir)
	res, err := scout.Run(context.Background(), scout.Options{Walk: wo, Terms: basket.ScoutTerms(in, nil), Groups: basket.ScoutGroups(in)})
	if err != nil {
		t.Fatal(err)
	}
	// restart occurs in three files (the matcher finds it in restarts too),
	// restarts in two, restarted in one: the group is in three.
	if got := res.GroupDF["restart"]; got != 3 {
		t.Fatalf("group df %d, want 3 (the union of the spellings' files)", got)
	}
	b := basket.Build(basket.Input{Intake: in, Zone: schema.Zone{ZoneRoot: dir}, Scout: res})
	spelled := 0
	for _, c := range b.Candidates {
		if c.Group == "" {
			continue
		}
		spelled++
		if c.Group != "restart" || c.GroupDF != 3 || math.Abs(c.GroupIDF-basket.IDF(b.Basket.CorpusDocs, 3)) > 1e-4 {
			t.Fatalf("candidate %s: group %q df %d idf %v", c.Term, c.Group, c.GroupDF, c.GroupIDF)
		}
	}
	if spelled != 3 {
		t.Fatalf("%d candidates carry the group, want 3 (restart, restarts, restarted)", spelled)
	}
	pr, err := Run(context.Background(), Options{Walk: wo, Intake: in, Candidates: b.Candidates, Basket: b.Basket,
		AvgBytes: res.Shape.Corpus.AvgLen * 4, Budget: cfg.FanoutFor("normal"), RankCap: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range pr.Rank.Surfaces {
		if s.Path != "restart.go" {
			continue
		}
		for _, w := range s.WhySelected {
			if strings.HasPrefix(w, "restart / restarts / restarted (") {
				return
			}
		}
		t.Fatalf("restart.go why %q: want one reason naming the three spellings", s.WhySelected)
	}
	t.Fatal("restart.go is not ranked")
}
