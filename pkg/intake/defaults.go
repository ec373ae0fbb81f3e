package intake

import (
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/schema"
)

// DefaultLayer is the name of the layer WithDefaults fills fields from, as
// the record's source and a field's origin name it.
const DefaultLayer = "default"

// Defaults are the values of the enum fields no layer sets, the same for
// rtch-mcp's rtch_context arguments, so a person at a shell types no more
// than an agent does (docs/decisions/agent-reply.md).
var Defaults = schema.IntakeFields{
	TargetProfile:  "code_path",
	FanoutLevel:    "normal",
	MutationRisk:   "read_only",
	ExpectedOutput: "hydration_packet",
}

// WarnEnoughDerived is the code of the warning a derived
// enough_evidence_definition raises.
const WarnEnoughDerived = "enough_derived"

// WithDefaults fills the fields no layer set: the profile, fanout, risk
// and expected output with their defaults, and the definition of enough
// evidence derived from the goal (EnoughFrom), which Build says in the
// record's warnings. The goal has no default: without one the intake
// still declines.
func WithDefaults(m Merged) Merged {
	f := &m.Fields
	filled := false
	fill := func(key string, dst *string, v string) {
		if *dst == "" && v != "" {
			*dst = v
			m.From[key] = DefaultLayer
			filled = true
		}
	}
	fill("target_profile", &f.TargetProfile, Defaults.TargetProfile)
	fill("fanout_level", &f.FanoutLevel, Defaults.FanoutLevel)
	fill("mutation_risk", &f.MutationRisk, Defaults.MutationRisk)
	fill("expected_output", &f.ExpectedOutput, Defaults.ExpectedOutput)
	if f.Goal != "" {
		fill("enough_evidence_definition", &f.EnoughEvidenceDefinition, EnoughFrom(f.Goal))
	}
	if filled {
		if m.Source != "" {
			m.Source += "+"
		}
		m.Source += DefaultLayer
	}
	return m
}

// enoughNamed are the goal-term kinds a derived definition names: the
// code-shaped ones, which the packet's verdict looks for in the evidence.
var enoughNamed = map[string]bool{KindPath: true, KindFileName: true, KindQualified: true, KindDotted: true, KindIdentifier: true}

// enoughNames is how many of them it names at most.
const enoughNames = 3

// EnoughFrom is the definition of enough evidence for a goal nobody gave
// one: the first code-shaped names of the goal (paths, file names,
// identifiers) read in evidence chunks, or, when the goal names none, the
// best-ranked place for it read.
func EnoughFrom(goal string) string {
	var named []schema.GoalTerm
	for _, t := range ExtractTerms(goal) {
		if enoughNamed[t.Kind] {
			named = append(named, t)
		}
	}
	if len(named) == 0 {
		return "the best-ranked place for the goal is read"
	}
	// In the goal's order, each name whole: a part of a name already
	// taken (cobra of cobra.Command, reader.go of pkg/record/reader.go)
	// is not another.
	slices.SortStableFunc(named, func(a, b schema.GoalTerm) int {
		if a.Offset != b.Offset {
			return a.Offset - b.Offset
		}
		return b.Length - a.Length
	})
	var out []string
	end := -1
	for _, t := range named {
		if len(out) == enoughNames {
			break
		}
		if t.Offset+t.Length <= end {
			continue
		}
		out = append(out, t.Term)
		end = t.Offset + t.Length
	}
	return "the code the goal names is read: " + strings.Join(out, ", ")
}

// enoughDerivedWarning says in the record that the definition was derived.
func enoughDerivedWarning(def string) schema.IntakeWarning {
	return schema.IntakeWarning{
		Code:    WarnEnoughDerived,
		Message: "no enough_evidence_definition was given; derived from the goal: " + def + " (say when the lane may stop with --enough)",
	}
}
