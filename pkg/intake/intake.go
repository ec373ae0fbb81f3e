// Package intake builds the rtch.intake record, the lane's contract (SPEC §5):
// it merges the intake fields from their layers (flags, an intake file, the
// [intake] section of .rtch.toml), validates the required fields and enums,
// computes intake_hash over the key-sorted canonical JSON of the fields, raises
// contract warnings, and extracts goal terms from the goal text.
//
// The package is pure: it never parses flags, reads the environment or exits.
// Commands hand it the layers and print what it returns.
package intake

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// Allowed values of the enum fields.
var (
	Profiles        = []string{"doctrine_chain", "audit_history", "code_path", "manifest_registry", "vague_intent", "mixed"}
	FanoutLevels    = []string{"conservative", "normal", "wide"}
	MutationRisks   = []string{"read_only", "low_mutation", "high_mutation"}
	ExpectedOutputs = []string{"hydration_packet", "target_set_for_consolidate", "single_chunk", "claim_evidence"}
)

// knownTargetRange is the optional line range of a known target.
var knownTargetRange = lazyre.New(`^:L[1-9][0-9]*(?:-L[1-9][0-9]*)?$`)

// Field describes one intake field: its JSON/TOML key, the flag that sets it and
// whether the intake declines without it.
type Field struct {
	// Key is the record and file key, e.g. "target_profile".
	Key string
	// Flag is the command-line flag that sets it, e.g. "--profile".
	Flag string
	// Required fields make the intake decline when missing.
	Required bool
	// Enum lists the allowed values; nil for free text.
	Enum []string
}

// Fields lists every intake field in record order.
var Fields = []Field{
	{"goal", "--goal or --goal-file", true, nil},
	{"target_profile", "--profile", true, Profiles},
	{"fanout_level", "--fanout", true, FanoutLevels},
	{"mutation_risk", "--risk", true, MutationRisks},
	{"expected_output", "--output-kind", true, ExpectedOutputs},
	{"enough_evidence_definition", "--enough", true, nil},
	{"known_target", "--known-target", false, nil},
	{"explicit_seeds", "--seed", false, nil},
	{"forbidden_assumptions", "--forbid", false, nil},
	{"known_neighbor_surfaces", "--neighbor", false, nil},
	{"budget_tokens", "--budget-tokens", false, nil},
}

// Layer is one source of intake fields. Empty strings, nil slices and a zero
// budget mean "not set by this layer".
type Layer struct {
	// Name is how the layer appears in the record's source: "flags",
	// "file:<path>" or "config".
	Name string
	// Fields are the values this layer sets.
	Fields schema.IntakeFields
}

// FromConfig turns the [intake] section of .rtch.toml into a layer.
func FromConfig(c config.Intake) Layer {
	return Layer{Name: "config", Fields: schema.IntakeFields{
		Goal:                     c.Goal,
		TargetProfile:            c.TargetProfile,
		FanoutLevel:              c.FanoutLevel,
		MutationRisk:             c.MutationRisk,
		ExpectedOutput:           c.ExpectedOutput,
		EnoughEvidenceDefinition: c.Enough,
		KnownTarget:              c.KnownTarget,
		ExplicitSeeds:            c.ExplicitSeeds,
		ForbiddenAssumptions:     c.ForbiddenAssumptions,
		KnownNeighborSurfaces:    c.KnownNeighborSurfaces,
		BudgetTokens:             c.BudgetTokens,
	}}
}

// Merged is the result of merging layers: the fields, and for each key the name
// of the layer that set it.
type Merged struct {
	Fields schema.IntakeFields
	// From maps a field key to the layer name that supplied it.
	From map[string]string
	// Source is the "+"-joined names of the layers that supplied at least one
	// field, in precedence order.
	Source string
}

// Merge combines layers, the first one winning field by field. A list field is
// taken whole from the first layer that sets it; lists are not concatenated, so
// a flag can replace a configured default.
func Merge(layers ...Layer) Merged {
	m := Merged{From: map[string]string{}}
	var out schema.IntakeFields
	str := func(key string, dst *string, v string, layer string) {
		if *dst == "" && strings.TrimSpace(v) != "" {
			*dst = v
			m.From[key] = layer
		}
	}
	list := func(key string, dst *[]string, v []string, layer string) {
		if *dst == nil && len(v) > 0 {
			*dst = v
			m.From[key] = layer
		}
	}
	for _, l := range layers {
		f := l.Fields
		str("goal", &out.Goal, f.Goal, l.Name)
		str("target_profile", &out.TargetProfile, f.TargetProfile, l.Name)
		str("fanout_level", &out.FanoutLevel, f.FanoutLevel, l.Name)
		str("mutation_risk", &out.MutationRisk, f.MutationRisk, l.Name)
		str("expected_output", &out.ExpectedOutput, f.ExpectedOutput, l.Name)
		str("enough_evidence_definition", &out.EnoughEvidenceDefinition, f.EnoughEvidenceDefinition, l.Name)
		str("known_target", &out.KnownTarget, f.KnownTarget, l.Name)
		list("explicit_seeds", &out.ExplicitSeeds, f.ExplicitSeeds, l.Name)
		list("forbidden_assumptions", &out.ForbiddenAssumptions, f.ForbiddenAssumptions, l.Name)
		list("known_neighbor_surfaces", &out.KnownNeighborSurfaces, f.KnownNeighborSurfaces, l.Name)
		if out.BudgetTokens == 0 && f.BudgetTokens != 0 {
			out.BudgetTokens = f.BudgetTokens
			m.From["budget_tokens"] = l.Name
		}
	}
	var used []string
	for _, l := range layers {
		for _, name := range m.From {
			if name == l.Name {
				used = append(used, l.Name)
				break
			}
		}
	}
	m.Fields = Normalize(out)
	m.Source = strings.Join(used, "+")
	return m
}

// Normalize trims the text fields (a goal read from a file loses its final
// newline), drops empty and repeated list entries (first one kept) and turns nil
// lists into empty ones, so the same intake hashes the same whichever layer it
// came from.
func Normalize(f schema.IntakeFields) schema.IntakeFields {
	f.Goal = strings.TrimSpace(f.Goal)
	f.TargetProfile = strings.TrimSpace(f.TargetProfile)
	f.FanoutLevel = strings.TrimSpace(f.FanoutLevel)
	f.MutationRisk = strings.TrimSpace(f.MutationRisk)
	f.ExpectedOutput = strings.TrimSpace(f.ExpectedOutput)
	f.EnoughEvidenceDefinition = strings.TrimSpace(f.EnoughEvidenceDefinition)
	f.KnownTarget = strings.TrimSpace(f.KnownTarget)
	f.ExplicitSeeds = cleanList(f.ExplicitSeeds)
	f.ForbiddenAssumptions = cleanList(f.ForbiddenAssumptions)
	f.KnownNeighborSurfaces = cleanList(f.KnownNeighborSurfaces)
	return f
}

func cleanList(in []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// Problem is one reason the intake declines.
type Problem struct {
	// Field is the intake key.
	Field string
	// Missing is true for a required field nobody set; otherwise the value is invalid.
	Missing bool
	// Msg explains it, naming the flag that sets the field.
	Msg string
}

// Validate returns every problem of the merged intake: each missing required
// field with the flag that sets it, each enum value outside its set (naming the
// layer it came from), and a negative budget. An empty result means the intake
// is acceptable.
func Validate(m Merged) []Problem {
	var probs []Problem
	f := m.Fields
	values := map[string]string{
		"goal":                       f.Goal,
		"target_profile":             f.TargetProfile,
		"fanout_level":               f.FanoutLevel,
		"mutation_risk":              f.MutationRisk,
		"expected_output":            f.ExpectedOutput,
		"enough_evidence_definition": f.EnoughEvidenceDefinition,
	}
	for _, fd := range Fields {
		v, ok := values[fd.Key]
		if !ok {
			continue
		}
		if v == "" {
			if fd.Key == "enough_evidence_definition" && f.Goal == "" {
				continue // derived from the goal once there is one (WithDefaults)
			}
			if fd.Required {
				probs = append(probs, Problem{fd.Key, true, fmt.Sprintf("%s (%s)", fd.Key, fd.Flag)})
			}
			continue
		}
		if fd.Enum != nil && !slices.Contains(fd.Enum, v) {
			probs = append(probs, Problem{fd.Key, false, fmt.Sprintf("%s %q from %s is not one of %s (%s)",
				fd.Key, v, m.From[fd.Key], strings.Join(fd.Enum, " | "), fd.Flag)})
		}
	}
	if kt := f.KnownTarget; kt != "" {
		i := strings.LastIndex(kt, ":L")
		if i >= 0 && strings.ContainsAny(kt[i:], `/\`) {
			i = -1 // a drive or a directory named L…, not a range
		}
		if i >= 0 && !knownTargetRange().MatchString(kt[i:]) {
			probs = append(probs, Problem{"known_target", false, fmt.Sprintf("known_target %q from %s: the range must be :L<start> or :L<start>-L<end> (--known-target)", kt, m.From["known_target"])})
		} else if i == 0 {
			probs = append(probs, Problem{"known_target", false, fmt.Sprintf("known_target %q from %s has no path (--known-target)", kt, m.From["known_target"])})
		}
	}
	if f.BudgetTokens < 0 {
		probs = append(probs, Problem{"budget_tokens", false, fmt.Sprintf("budget_tokens %d from %s must be positive (--budget-tokens)", f.BudgetTokens, m.From["budget_tokens"])})
	}
	return probs
}

// Warnings returns the contract warnings of valid fields: today the
// constraint stack (conservative fanout with high_mutation risk: the lane may
// read too little to change much safely).
func Warnings(f schema.IntakeFields) []schema.IntakeWarning {
	w := []schema.IntakeWarning{}
	if f.FanoutLevel == "conservative" && f.MutationRisk == "high_mutation" {
		w = append(w, schema.IntakeWarning{
			Code:    "constraint_stack",
			Message: "conservative fanout with high_mutation risk: the lane reads at most 5 probes of 20 files yet may change a lot; widen the fanout or confirm the known target",
		})
	}
	return w
}

// Build returns the rtch.intake record of valid merged fields. Callers run
// Validate first; Build does not re-check.
func Build(m Merged) (schema.Intake, error) {
	hash, err := Hash(m.Fields)
	if err != nil {
		return schema.Intake{}, err
	}
	warnings := Warnings(m.Fields)
	if m.From["enough_evidence_definition"] == DefaultLayer {
		warnings = append(warnings, enoughDerivedWarning(m.Fields.EnoughEvidenceDefinition))
	}
	return schema.Intake{
		Envelope:     record.Env(schema.KindIntake, schema.V1, hash),
		IntakeHash:   hash,
		IntakeFields: m.Fields,
		Source:       m.Source,
		Warnings:     warnings,
		GoalTerms:    ExtractTerms(m.Fields.Goal),
		Disposition:  ParseDisposition(m.Fields.Goal),
	}, nil
}
