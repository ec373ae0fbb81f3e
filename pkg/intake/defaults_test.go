package intake

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

func TestEnoughFrom(t *testing.T) {
	for _, c := range []struct{ goal, want string }{
		{"find where ReadRecord reports a malformed line in pkg/record/reader.go",
			"the code the goal names is read: ReadRecord, pkg/record/reader.go"},
		{"why does cobra.Command print <nil> after Execute, and what about RunE and PersistentPreRun",
			"the code the goal names is read: cobra.Command, RunE, PersistentPreRun"},
		{"where does the daemon restart a container after it exits",
			"the best-ranked place for the goal is read"},
	} {
		if got := EnoughFrom(c.goal); got != c.want {
			t.Errorf("EnoughFrom(%q) = %q, want %q", c.goal, got, c.want)
		}
	}
}

// A field no layer sets takes its default, named as the default layer's;
// a set one keeps its value and origin; a derived enough is said in the
// record's warnings; the goal has no default.
func TestWithDefaults(t *testing.T) {
	m := WithDefaults(Merge(
		Layer{Name: "flags", Fields: schema.IntakeFields{Goal: "fix ParseFlags", FanoutLevel: "wide"}},
		Layer{Name: "config", Fields: schema.IntakeFields{MutationRisk: "low_mutation"}},
	))
	f := m.Fields
	if f.TargetProfile != "code_path" || f.FanoutLevel != "wide" || f.MutationRisk != "low_mutation" || f.ExpectedOutput != "hydration_packet" {
		t.Fatalf("fields %+v", f)
	}
	if m.From["target_profile"] != DefaultLayer || m.From["fanout_level"] != "flags" || m.From["mutation_risk"] != "config" {
		t.Errorf("origins %v", m.From)
	}
	if m.Source != "flags+config+default" {
		t.Errorf("source %q", m.Source)
	}
	if len(Validate(m)) != 0 {
		t.Fatalf("problems %v", Validate(m))
	}
	rec, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	if rec.EnoughEvidenceDefinition != "the code the goal names is read: ParseFlags" {
		t.Errorf("enough %q", rec.EnoughEvidenceDefinition)
	}
	if len(rec.Warnings) != 1 || rec.Warnings[0].Code != WarnEnoughDerived || !strings.Contains(rec.Warnings[0].Message, "ParseFlags") {
		t.Errorf("warnings %+v", rec.Warnings)
	}

	given := WithDefaults(Merge(Layer{Name: "flags", Fields: schema.IntakeFields{Goal: "g", EnoughEvidenceDefinition: "e"}}))
	if rec, _ := Build(given); len(rec.Warnings) != 0 || rec.EnoughEvidenceDefinition != "e" {
		t.Errorf("a given enough: %+v", rec)
	}
	none := WithDefaults(Merge())
	probs := Validate(none)
	if len(probs) != 1 || probs[0].Field != "goal" || !probs[0].Missing {
		t.Errorf("no goal: %+v", probs)
	}
}
