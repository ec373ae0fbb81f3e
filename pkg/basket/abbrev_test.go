package basket

import (
	"context"
	"testing"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

// TestAbbreviationByNamePart runs intake, scout and basket on a tree: the
// goal's "multiplying" gives mul, which a definition's name is written
// with (funcOpMul), and "numbers" gives num, which the tree writes only in
// comments.
func TestAbbreviationByNamePart(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, "ops.go", "package x\n\n// funcOpMul multiplies; num is the count of operands\nfunc funcOpMul(a, b int) int { return a * b }\n")
	testtree.Write(t, dir, "other.go", "package x\n\n// the num of items\nvar items int\n")
	m := intake.Merge(intake.Layer{Name: "flags", Fields: schema.IntakeFields{Goal: "fix crash on multiplying large numbers", TargetProfile: "code_path",
		FanoutLevel: "normal", MutationRisk: "read_only", ExpectedOutput: "hydration_packet", EnoughEvidenceDefinition: "test"}})
	in, err := intake.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	parts := ScoutNameParts(in)
	if len(parts) < 2 {
		t.Fatalf("abbreviations of the goal: %q, want mul and num", parts)
	}
	res, err := scout.Run(context.Background(), scout.Options{Walk: scout.WalkOptions(&config.Config{}, dir), Terms: ScoutTerms(in, nil), NameParts: parts})
	if err != nil {
		t.Fatal(err)
	}
	if res.Terms["mul"].NamePart != 1 || res.Terms["num"].NamePart != 0 {
		t.Fatalf("name parts: mul %d, num %d", res.Terms["mul"].NamePart, res.Terms["num"].NamePart)
	}
	b := Build(Input{Intake: in, Zone: schema.Zone{ZoneRoot: dir}, Scout: res})
	if c := find(b.Candidates, "mul"); c.Origin != "exploratory" {
		t.Errorf("mul, a part of funcOpMul: origin %q (%s), want exploratory", c.Origin, c.Notes)
	}
	if c := find(b.Candidates, "num"); c.Origin != "noise" {
		t.Errorf("num, in comments only: origin %q (%s), want noise", c.Origin, c.Notes)
	}
}
