package schema

import "github.com/rtch/rtch/pkg/record"

// Recall is guild.recall: the protected result of one recall (SPEC §10).
type Recall struct {
	record.Envelope
	// Source: sqlite, file-bm25, fs-scan, kg-query, structural or combined.
	Source string `json:"source"`
	// Directive is the integrity notice, non-null when at least one chunk is wrapped.
	Directive *string `json:"directive"`
	// TopScore is in [0,1]; see docs/guild-recall.md for its definition.
	TopScore float64 `json:"topScore"`
	// RecallBeforeRead tells the caller it may skip reading the sources.
	RecallBeforeRead bool `json:"recallBeforeRead"`
	// Chunks are the protected chunks, best first.
	Chunks []RecallChunk `json:"chunks"`
	// Skipped lists the wiki files left out of this recall and why (ignored,
	// not a regular file, over the size cap, binary, a Git LFS pointer,
	// unreadable), in the order met; absent when none was. Each is also a
	// warning on stderr.
	Skipped []RecallSkip `json:"skipped,omitempty"`
}

// RecallSkip is one wiki file guild-recall did not read.
type RecallSkip struct {
	// Path is the file in the record spelling of source_path.
	Path string `json:"path"`
	// Reason is the diagnostic's message.
	Reason string `json:"reason"`
}

// RecallChunk is one protected chunk.
type RecallChunk struct {
	// SourcePath is the page (or graph node) the chunk came from.
	SourcePath string `json:"source_path"`
	// TrustTier: operator, trusted or untrusted.
	TrustTier string `json:"trust_tier"`
	// Quarantined is true when the probe flagged it and its text was withheld.
	Quarantined bool `json:"quarantined"`
	// Rendered is the text as it may be shown to a model (wrapped or quarantined).
	Rendered string `json:"rendered"`
	// Score is the chunk's score in [0,1].
	Score float64 `json:"score"`
	// SubGuild names the workspace sub-guild the chunk came from, if any.
	SubGuild string `json:"sub_guild,omitempty"`
	// Lines is the chunk's line range in SourcePath ("L8-L14") when it came
	// from a wiki page, so a caller can return to the exact source.
	Lines string `json:"lines,omitempty"`
}

// BundleReceipt is guild.bundle_receipt: one written bundle.
type BundleReceipt struct {
	record.Envelope
	// BundlePath is where the bundle was written, relative to the project root.
	BundlePath string `json:"bundle_path"`
	// Specialist is the lane owner the bundle is for.
	Specialist string `json:"specialist"`
	// TaskID is the lane's task id.
	TaskID string `json:"task_id"`
	// RunID is the run the bundle belongs to.
	RunID string `json:"run_id"`
	// TokenEstimate is ceil(chars/4) of the whole bundle.
	TokenEstimate int `json:"token_estimate"`
	// LayersIncluded maps each layer and sub-source to its token estimate.
	LayersIncluded map[string]int `json:"layers_included"`
	// DroppedForBudget lists each cut made to fit the cap.
	DroppedForBudget []string `json:"dropped_for_budget"`
	// Followups are the bundle's followups: frontmatter lines, one per
	// graph–wiki contradiction (node id, page path, the side that won and
	// why), for the wiki's maintainers; never null.
	Followups []string `json:"followups"`
}

// LeadContext is guild.lead_context: guild-bundle --lead's capacity report,
// whether the run's current lead context passes the recompute threshold and
// whether lead.md was recomputed.
type LeadContext struct {
	record.Envelope
	// RunID is the run.
	RunID string `json:"run_id"`
	// LeadPath is the lead context file, relative to the project root.
	LeadPath string `json:"lead_path"`
	// CapacityTokens is the lead's context capacity (--capacity, lead.capacity_tokens).
	CapacityTokens int `json:"capacity_tokens"`
	// RecomputeAt is the threshold share of the capacity (lead.recompute_at).
	RecomputeAt float64 `json:"recompute_at"`
	// ThresholdTokens is RecomputeAt × CapacityTokens, rounded up to a whole
	// token.
	ThresholdTokens int `json:"threshold_tokens"`
	// CurrentExists reports a lead.md on disk before this run of the tool.
	CurrentExists bool `json:"current_exists"`
	// CurrentTokens is the current lead context: lead.md's estimate plus the
	// verbatim v2 blocks of the envelopes that arrived after it was written;
	// 0 when there is no lead.md.
	CurrentTokens int `json:"current_tokens"`
	// NewEnvelopes are the task ids of those later envelopes.
	NewEnvelopes []string `json:"new_envelopes"`
	// PassesThreshold is CurrentTokens ≥ ThresholdTokens.
	PassesThreshold bool `json:"passes_threshold"`
	// Recomputed reports that lead.md was (re)written by this run.
	Recomputed bool `json:"recomputed"`
	// Reason says why it was or was not recomputed.
	Reason string `json:"reason"`
	// BudgetTokens is what a recomputed lead.md may hold: under the
	// threshold and the 6,000-token hard cap.
	BudgetTokens int `json:"budget_tokens"`
	// TokenEstimate is the estimate of lead.md as it now stands on disk.
	TokenEstimate int `json:"token_estimate"`
}

// BundleThreshold is guild.bundle_threshold: guild-bundle --check-threshold's
// answer for one lane, whether formal bundle assembly is mandatory.
type BundleThreshold struct {
	record.Envelope
	// TaskID is the lane's task id.
	TaskID string `json:"task_id"`
	// Specialist is the lane owner.
	Specialist string `json:"specialist"`
	// Mandatory is true when any trigger fired.
	Mandatory bool `json:"mandatory"`
	// Triggers name the rules that fired: source_files, long_source,
	// depends_on, cross_repo, deep_rigor_borderline.
	Triggers []string `json:"triggers"`
	// SourceFiles is the number of distinct source files the lane references
	// (its refs and the codebase map).
	SourceFiles int `json:"source_files"`
	// LongestSource is the longest of those files as "path:lines", "" when none
	// could be read.
	LongestSource string `json:"longest_source"`
	// DependsOn lists the upstream task ids whose contracts the lane reads.
	DependsOn []string `json:"depends_on"`
	// Reasons explain each trigger in a sentence.
	Reasons []string `json:"reasons"`
}
