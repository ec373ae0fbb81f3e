package schema

import "github.com/rtch/rtch/pkg/record"

// KindRelations is the relational surface of a disposition goal.
const KindRelations = "rtch.relations"

// Disposition is a goal that asks for a decision about an artifact (keep,
// merge, sunset, deprecate, reposition, delete, build next), as the intake
// recognised it in the goal text.
type Disposition struct {
	// Decision is keep, merge, sunset, deprecate, reposition, delete or
	// build_next.
	Decision string `json:"decision"`
	// Artifact is what the decision is about, as the goal names it ("" for
	// build_next).
	Artifact string `json:"artifact"`
	// Target is the other side of a merge or a replacement ("merge A into
	// B"), when named.
	Target string `json:"target,omitempty"`
	// Phrase is the part of the goal that was recognised.
	Phrase string `json:"phrase"`
}

// Relations is rtch.relations: an artifact's relations rather than its
// insides — who it serves, what it could merge with, how it is maintained —
// each with the origin of its evidence.
type Relations struct {
	record.Envelope
	// Decision and Artifact repeat the intake's disposition.
	Decision string `json:"decision"`
	Artifact string `json:"artifact"`
	// Target is the named merge or replacement target, if any.
	Target string `json:"target,omitempty"`
	// Resolved are the graph nodes the artifact names (packages, modules,
	// files); empty when it names none.
	Resolved []string `json:"resolved"`
	// Paths are the files of the resolved nodes.
	Paths []string `json:"paths"`
	// Serves are its users: importers, callers and the entry points
	// (main packages, commands) that reach it.
	Serves []Relation `json:"serves"`
	// Comparisons are artifacts with overlapping symbols, names or
	// imports: candidates to merge with or be replaced by.
	Comparisons []Relation `json:"comparisons"`
	// Provenance is its history in git; nil outside git.
	Provenance *Provenance `json:"provenance"`
	// ClosureCheck is what the consumer still owes before deciding.
	ClosureCheck string `json:"closure_check"`
}

// Relation is one relation of the artifact.
type Relation struct {
	// Node is the related graph node.
	Node string `json:"node"`
	// Path is its file (the first of its source refs' files).
	Path string `json:"path"`
	// Ref is its source ref, "path#Lx-Ly".
	Ref string `json:"ref"`
	// Relation says what it is to the artifact ("imports it", "calls
	// refs.Read", "entry point 2 hops away", "shares 5 symbol names").
	Relation string `json:"relation"`
	// Origin is where the evidence comes from: graph:imports, graph:calls,
	// graph:entry_point, graph:overlap.
	Origin string `json:"origin"`
	// Weight orders relations of one kind (call sites, shared names).
	Weight float64 `json:"weight"`
}

// Provenance is an artifact's maintenance record from git.
type Provenance struct {
	// Origin is "git".
	Origin string `json:"origin"`
	// LastChange is the date of the newest commit touching the paths.
	LastChange string `json:"last_change"`
	// LastCommit is its hash.
	LastCommit string `json:"last_commit"`
	// FirstChange is the date of the oldest commit touching them.
	FirstChange string `json:"first_change"`
	// AgeDays is the days from FirstChange to LastChange.
	AgeDays int `json:"age_days"`
	// ChangeCount is the number of commits touching them.
	ChangeCount int `json:"change_count"`
	// Authors are the distinct author names, most commits first.
	Authors []string `json:"authors"`
}
