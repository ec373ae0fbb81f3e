package schema

import "github.com/rtch/rtch/pkg/record"

// PacketSchemaVersion is the packet's schema_version string.
const PacketSchemaVersion = "rtch.packet.v1"

// Packet is rtch.packet: the evidence packet (SPEC §9).
type Packet struct {
	record.Envelope
	// SchemaVersion is "rtch.packet.v1".
	SchemaVersion string `json:"schema_version"`
	// PacketID is "rtch_packet_<intake_hash>".
	PacketID string `json:"packet_id"`
	// GeneratedAt is RFC 3339 UTC; pinned by SOURCE_DATE_EPOCH or --now.
	GeneratedAt string `json:"generated_at"`
	// Intake is the intake's fields.
	Intake IntakeFields `json:"intake"`
	// ZoneDescriptor summarises the zone.
	ZoneDescriptor ZoneDescriptor `json:"zone_descriptor"`
	// CandidateBasket summarises the basket and lists its terms.
	CandidateBasket PacketBasket `json:"candidate_basket"`
	// ProbePlan lists the probes and the remaining budget.
	ProbePlan ProbePlan `json:"probe_plan"`
	// HydratedChunks are the chunks, in rank order, as whole rtch.chunk
	// records; the packet writes them as ChunkRecords.
	HydratedChunks []Chunk `json:"-"`
	// ChunkForm states once what every chunk record shares.
	ChunkForm *ChunkForm `json:"chunk_form,omitempty"`
	// ChunkRecords are the chunks as the packet writes them, in rank order.
	ChunkRecords []PacketChunk `json:"hydrated_chunks"`
	// SelectedSurfaces are the ranked files.
	SelectedSurfaces []SelectedSurface `json:"selected_surfaces"`
	// RankedFunctions are the definitions of the best surfaces ranked by
	// the evidence inside them (rtch.functions), best first; the chunks
	// read them in that order.
	RankedFunctions []RankedFunction `json:"ranked_functions"`
	// SkippedSurfaces are every skip of the lane.
	SkippedSurfaces []Skip `json:"skipped_surfaces"`
	// UnresolvedQuestions are honest open questions; never empty.
	UnresolvedQuestions []string `json:"unresolved_questions"`
	// RelationalEvidence is the artifact's relational surface when the goal
	// is a disposition (rtch.relations); absent otherwise.
	RelationalEvidence *Relations `json:"relational_evidence,omitempty"`
	// CautionMap lists flagged chunks and caution hits.
	CautionMap []Caution `json:"caution_map"`
	// NextLegalProbes are probes a follow-up lane may run.
	NextLegalProbes []string `json:"next_legal_probes"`
	// GenericAloneWarnings come from the basket.
	GenericAloneWarnings []string `json:"generic_alone_warnings"`
	// FanoutLevelUsed is the fanout level the lane ran at.
	FanoutLevelUsed string `json:"fanout_level_used"`
	// HaltingReason: enough_evidence_definition_satisfied, budget_exhausted,
	// no_signal_at_normal_fanout, partial_evidence_only.
	HaltingReason string `json:"halting_reason"`
	// Verdict says what the halting reason rests on: what satisfied the
	// enough-evidence definition, or what is missing and the next call.
	Verdict Verdict `json:"verdict"`
	// EffectiveRecordProjection is the gate's status and effective views.
	EffectiveRecordProjection EffectiveRecordProjection `json:"effective_record_projection"`
	// Budget is the tokens spent on chunks and the cap.
	Budget PacketBudget `json:"budget"`
}

// ChunkForm is what the packet's chunk records share, stated once.
type ChunkForm struct {
	// Record names the record each chunk record is the lean form of:
	// "rtch.chunk v1" without kind, v and id (the chunk_id), line_range
	// ("L<start_line>-L<end_line>"), est_tokens (ceil(chars/4) of text),
	// file_sha256 where the record before it gives it, and what the fields
	// below give: commit and the commands.
	Record string `json:"record"`
	// ReEntry is the re-entry command of a record that names none:
	// "rtch-hydrate --reenter PATH:L<start_line>-L<end_line>".
	ReEntry string `json:"re_entry"`
	// Sed is the sed command of a record that names none:
	// "sed -n '<start_line>,<end_line>p' PATH".
	Sed string `json:"sed"`
	// Commit is the git HEAD every chunk was read at ("" outside git).
	Commit string `json:"commit"`
	// Notes is "kept" when every record carries why_included and
	// limitation, "left_out" when they were left out of every record so
	// that more chunks fit the budget (rtch-hydrate's rtch.chunk records
	// carry them).
	Notes string `json:"notes"`
}

// PacketChunk is a chunk as the packet writes it: what is the chunk's own,
// the rest stated once in chunk_form.
type PacketChunk struct {
	// ChunkID is the chunk's id.
	ChunkID string `json:"chunk_id"`
	// Path of the file, relative to the zone root.
	Path string `json:"path"`
	// StartLine, EndLine (inclusive, 1-based) and TargetLine (the anchor).
	StartLine  int `json:"start_line"`
	EndLine    int `json:"end_line"`
	TargetLine int `json:"target_line"`
	// SHA256 is over the chunk's original bytes.
	SHA256 string `json:"sha256"`
	// FileSHA256 is over the whole file, on the first record of each file
	// (the records are grouped by file) and on a later one only when the file
	// changed between reads; a record without it has its file's record
	// before it.
	FileSHA256 string `json:"file_sha256,omitempty"`
	// WhyIncluded says why the chunk was read; absent when chunk_form.notes
	// is "left_out".
	WhyIncluded string `json:"why_included,omitempty"`
	// TermOrShape is the term or shape that led here.
	TermOrShape string `json:"term_or_shape"`
	// ConfidenceClass after hydration.
	ConfidenceClass string `json:"confidence_class"`
	// Limitation says what the chunk cannot show; absent when
	// chunk_form.notes is "left_out".
	Limitation string `json:"limitation,omitempty"`
	// NextReEntryCommand, only when chunk_form.re_entry does not give it
	// (an effective-record view, a path that needs quoting).
	NextReEntryCommand string `json:"next_re_entry_command,omitempty"`
	// SedCommand, only when chunk_form.sed does not give it.
	SedCommand string `json:"sed_command,omitempty"`
	// BaseReEntryCommand, on an effective_record_view chunk, re-reads the
	// raw base row.
	BaseReEntryCommand string `json:"base_re_entry_command,omitempty"`
	// Text is the chunk text (valid UTF-8, secrets redacted).
	Text string `json:"text"`
	// Flags are injection-probe findings and redactions.
	Flags []string `json:"flags"`
	// Rank is the rank of the chunk's surface.
	Rank int `json:"rank"`
	// ProbeID is the probe whose hit anchored the chunk.
	ProbeID string `json:"probe_id,omitempty"`
}

// Verdict is the enough-evidence verdict an agent acts on: Satisfied with
// the requirements By which it was met, or not, with the requirements
// Missing and the Next call that would read what is missing.
type Verdict struct {
	// Satisfied is true when halting_reason is
	// enough_evidence_definition_satisfied.
	Satisfied bool `json:"satisfied"`
	// By are the requirements met, each with the chunk that met it.
	By []string `json:"by"`
	// Missing are the requirements not met.
	Missing []string `json:"missing"`
	// Next is the one call that reads what is missing first (a shell
	// command, or an rtch-mcp tool and its argument); "" when satisfied.
	Next string `json:"next"`
}

// ZoneDescriptor is the packet's view of rtch.zone.
type ZoneDescriptor struct {
	// ZoneRoot is the absolute zone root.
	ZoneRoot string `json:"zone_root"`
	// DecidedBy names the rule that chose the root.
	DecidedBy string `json:"decided_by"`
	// Rungs are the rung markers between root and target dir.
	Rungs []Rung `json:"rungs"`
	// TruthFiles are the truth files at the root.
	TruthFiles []string `json:"truth_files"`
	// Manifests are the manifests and registries at the root.
	Manifests []string `json:"manifests"`
	// Git is the git snapshot, null outside git.
	Git *GitSnapshot `json:"git"`
}

// PacketBasket summarises the candidate basket.
type PacketBasket struct {
	// BasketID and TermCount come from rtch.basket.
	BasketID string `json:"basket_id"`
	// TermCount is the number of candidates.
	TermCount int `json:"term_count"`
	// Terms are the candidates in basket order.
	Terms []PacketTerm `json:"terms"`
}

// PacketTerm is a candidate as the packet shows it.
type PacketTerm struct {
	// Term is the candidate term.
	Term string `json:"term"`
	// Origin is the candidate's origin.
	Origin string `json:"origin"`
	// Use is the candidate's use.
	Use string `json:"use"`
}

// ProbePlan is the packet's probe plan.
type ProbePlan struct {
	// Probes are the plan's probes in order.
	Probes []Probe `json:"probes"`
	// ProbesExecuted counts probes with status executed.
	ProbesExecuted int `json:"probes_executed"`
	// ProbeBudgetRemaining is the fanout's probe budget minus the probes planned.
	ProbeBudgetRemaining int `json:"probe_budget_remaining"`
}

// SelectedSurface is one ranked file in the packet.
type SelectedSurface struct {
	// Path of the surface.
	Path string `json:"path"`
	// Rank is 1-based.
	Rank int `json:"rank"`
	// Score is the evidence score (higher is better).
	Score float64 `json:"score"`
	// WhySelected explains the rank in a few phrases.
	WhySelected []string `json:"why_selected"`
	// ChunkIDs are the hydrated chunks of this surface.
	ChunkIDs []string `json:"chunk_ids"`
}

// Caution is one caution_map entry.
type Caution struct {
	// Path of the flagged surface.
	Path string `json:"path"`
	// Flag is the finding, e.g. "injection:override_phrase" or "caution_hit".
	Flag string `json:"flag"`
	// Note explains it for a person.
	Note string `json:"note"`
}

// EffectiveRecordProjection carries the gate into the packet.
type EffectiveRecordProjection struct {
	// Status is the gate status: safe, corrected or blocked.
	Status string `json:"status"`
	// EffectiveRecords are the corrected records' effective views.
	EffectiveRecords []EffectiveRecord `json:"effective_records"`
	// Unresolved lists what blocks the gate.
	Unresolved []Unresolved `json:"unresolved"`
}

// PacketBudget is the token accounting of the packet.
type PacketBudget struct {
	// EstTokens is the measured size of what the packet's format writes
	// (Measure), never more than Cap; a packet built but not yet fitted
	// holds the sum of its chunks' est_tokens.
	EstTokens int `json:"est_tokens"`
	// Cap is the token budget of the lane.
	Cap int `json:"cap"`
	// Measure names what EstTokens counts: "md_brief" (the whole brief,
	// header to last line) or "chunk_records" (chunk_form and the
	// hydrated_chunks records as the format writes them).
	Measure string `json:"measure,omitempty"`
	// Tokenizer is the counting rule: "chars4" (ceil(chars/4)), "o200k" or
	// "cl100k".
	Tokenizer string `json:"tokenizer,omitempty"`
}

// Handoff is rtch.handoff: the target set a packaging (consolidate) step takes
// from a packet, emitted by rtch-packet --handoff-to-consolidate or when the
// intake's expected_output is target_set_for_consolidate.
type Handoff struct {
	record.Envelope
	// PacketID is the packet the target set comes from.
	PacketID string `json:"packet_id"`
	// PacketPath is the persisted packet, relative to the zone root ("" when the
	// packet was not persisted).
	PacketPath string `json:"packet_path"`
	// ZoneRoot is the absolute zone root the paths are relative to.
	ZoneRoot string `json:"zone_root"`
	// Commit is the git HEAD the packet was read at ("" outside git).
	Commit string `json:"commit"`
	// HaltingReason is the packet's halting reason, so the consumer knows how
	// complete the set is.
	HaltingReason string `json:"halting_reason"`
	// Targets are the selected surfaces in rank order.
	Targets []HandoffTarget `json:"targets"`
}

// HandoffTarget is one surface of the target set.
type HandoffTarget struct {
	// Path and Rank of the surface.
	Path string `json:"path"`
	Rank int    `json:"rank"`
	// LineRanges are the hydrated ranges ("L<s>-L<e>") on it, in file order.
	LineRanges []string `json:"line_ranges"`
	// ChunkIDs are the packet's chunks on it.
	ChunkIDs []string `json:"chunk_ids"`
	// ReEntryCommands reproduce those chunks.
	ReEntryCommands []string `json:"re_entry_commands"`
}
