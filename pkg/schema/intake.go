package schema

import "github.com/rtch/rtch/pkg/record"

// Intake is rtch.intake: the lane's contract (SPEC §5).
type Intake struct {
	record.Envelope
	// IntakeHash is the first 12 hex digits of sha256 over the key-sorted canonical
	// JSON of IntakeFields; the packet id is "rtch_packet_<hash>".
	IntakeHash string `json:"intake_hash"`
	IntakeFields
	// Source says where the fields came from: flags, file:<path>, config, or a
	// "+"-joined mix in precedence order.
	Source string `json:"source"`
	// Warnings are contract warnings such as "constraint_stack".
	Warnings []IntakeWarning `json:"warnings"`
	// GoalTerms are the terms extracted from the goal text, all exploratory until
	// the scout pairs them with shape.
	GoalTerms []GoalTerm `json:"goal_terms"`
	// Disposition is set when the goal asks for a decision about an
	// artifact (keep, merge, sunset, …): the scout then gathers its
	// relations (rtch.relations).
	Disposition *Disposition `json:"disposition,omitempty"`
}

// IntakeFields are the hashed fields of the intake.
type IntakeFields struct {
	// Goal is one sentence or a whole problem statement.
	Goal string `json:"goal"`
	// TargetProfile: doctrine_chain|audit_history|code_path|manifest_registry|vague_intent|mixed.
	TargetProfile string `json:"target_profile"`
	// FanoutLevel: conservative|normal|wide.
	FanoutLevel string `json:"fanout_level"`
	// MutationRisk: read_only|low_mutation|high_mutation.
	MutationRisk string `json:"mutation_risk"`
	// ExpectedOutput: hydration_packet|target_set_for_consolidate|single_chunk|claim_evidence.
	ExpectedOutput string `json:"expected_output"`
	// EnoughEvidenceDefinition is the halting condition of the lane.
	EnoughEvidenceDefinition string `json:"enough_evidence_definition"`
	// KnownTarget is a path (optionally PATH:Lx-Ly) the caller already suspects.
	KnownTarget string `json:"known_target,omitempty"`
	// ExplicitSeeds are terms the caller vouches for.
	ExplicitSeeds []string `json:"explicit_seeds"`
	// ForbiddenAssumptions become exclusions downstream (paths or terms).
	ForbiddenAssumptions []string `json:"forbidden_assumptions"`
	// KnownNeighborSurfaces become neighbor_only surfaces downstream.
	KnownNeighborSurfaces []string `json:"known_neighbor_surfaces"`
	// BudgetTokens overrides the fanout level's hydration budget when > 0.
	BudgetTokens int `json:"budget_tokens,omitempty"`
}

// IntakeWarning is a contract warning carried in the record (and printed on stderr).
type IntakeWarning struct {
	// Code is a stable identifier, e.g. "constraint_stack".
	Code string `json:"code"`
	// Message explains it for a person.
	Message string `json:"message"`
}

// GoalTerm is one term extracted from the goal text.
type GoalTerm struct {
	// Term is the text as it should be searched for.
	Term string `json:"term"`
	// Kind is how it was recognised: identifier, camel_part, snake_part, dotted,
	// qualified (pkg.Func), path, file_name, quoted, error_fragment, stack_frame,
	// flag (a --long-flag, recorded without dashes), scope (a word of a
	// commit-style title's scope: api in "api: …", release in "fix(release):
	// …"), word, abbreviation (the short form code writes for a title word:
	// mod for modulo; Parent is the word).
	Kind string `json:"kind"`
	// Origin is "exploratory" at intake; the scout may promote it.
	Origin string `json:"origin"`
	// Offset and Length locate the term in the goal (bytes); a term split from an
	// identifier points at the whole identifier.
	Offset int `json:"offset"`
	Length int `json:"length"`
	// Parent is the identifier a split part came from.
	Parent string `json:"parent,omitempty"`
	// File and Line are set for stack-trace frames ("file.go:123").
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Count is how many times the term occurs in the goal.
	Count int `json:"count"`
	// Group names the idea the term spells when the goal writes it in more
	// than one spelling (restart, restarts, restarted; back-off, backoff):
	// the English Snowball stem of the term without its hyphens and
	// underscores, shared by every spelling. Set only by rtch-intake
	// --ideas; each spelling stays a term of its own, and the ranking
	// counts the group once.
	Group string `json:"group,omitempty"`
}
