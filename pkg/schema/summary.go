package schema

import "github.com/rtch/rtch/pkg/record"

// KindPacketSummary is the packet by reference (rtch-packet --format
// summary, rtch-mcp's structured content).
const KindPacketSummary = "rtch.packet_summary"

// PacketSummary is rtch.packet_summary: the packet by reference, bounded
// whatever the tree's size, for a consumer that pays for every token: the
// verdict, the ranked surfaces and chunks by reference, and what was
// skipped or flagged counted by reason with the first few of each. It
// describes the same packet as the md brief written with the same flags
// (the same chunks); the whole packet is where More says.
type PacketSummary struct {
	record.Envelope
	// PacketID is the packet's id.
	PacketID string `json:"packet_id"`
	// GeneratedAt is the packet's generated_at.
	GeneratedAt string `json:"generated_at"`
	// HaltingReason is the packet's verdict.
	HaltingReason string `json:"halting_reason"`
	// Verdict is the packet's verdict with its first requirements met or
	// missing, each cut to one line.
	Verdict Verdict `json:"verdict"`
	// Gate is the effective-record gate's status.
	Gate string `json:"gate"`
	// Commit is the git HEAD the chunks were read at ("" outside git).
	Commit string `json:"commit"`
	// Budget is the packet's budget: the measure of the brief.
	Budget PacketBudget `json:"budget"`
	// Surfaces are the ten best ranked surfaces, of SurfacesTotal.
	Surfaces      []SummarySurface `json:"surfaces"`
	SurfacesTotal int              `json:"surfaces_total"`
	// Chunks are every chunk of the packet, in its order, by reference.
	Chunks []SummaryChunk `json:"chunks"`
	// Skipped counts the skipped surfaces by stage and reason.
	Skipped SummaryGroups `json:"skipped"`
	// Cautions counts the caution map's entries by flag.
	Cautions SummaryGroups `json:"cautions"`
	// Questions are the first unresolved questions (the unmet requirements
	// of the enough-evidence definition first), each cut to one line, of
	// QuestionsTotal.
	Questions      []string `json:"questions"`
	QuestionsTotal int      `json:"questions_total"`
	// Next are the first next legal probes, of NextTotal.
	Next      []string `json:"next"`
	NextTotal int      `json:"next_total"`
	// More says how to read the whole packet.
	More string `json:"more"`
}

// SummarySurface is one ranked surface by reference.
type SummarySurface struct {
	// Rank is 1-based (0 for a known target outside the ranking).
	Rank int `json:"rank"`
	// Path of the surface.
	Path string `json:"path"`
	// Score is the evidence score.
	Score float64 `json:"score"`
	// Chunks counts the packet's chunks on it.
	Chunks int `json:"chunks"`
}

// SummaryChunk is one chunk by reference.
type SummaryChunk struct {
	// Ref is PATH:Ls-Le, the chunk's re-entry argument.
	Ref string `json:"ref"`
	// Rank is its surface's rank.
	Rank int `json:"rank"`
	// Class is its confidence class.
	Class string `json:"class"`
	// SHA256 is the first 12 hex digits of the chunk's sha256.
	SHA256 string `json:"sha256"`
	// Flags are its injection and redaction flags, when any.
	Flags []string `json:"flags,omitempty"`
	// Text is the chunk's text, only when asked for (--chunk-text).
	Text string `json:"text,omitempty"`
}

// SummaryGroups counts a list by group.
type SummaryGroups struct {
	// Total is the list's length.
	Total int `json:"total"`
	// Groups are the counts, largest first.
	Groups []SummaryGroup `json:"groups"`
}

// SummaryGroup is one group of a counted list.
type SummaryGroup struct {
	// Key names the group: "stage/reason" of a skip, the flag of a caution.
	Key string `json:"key"`
	// Count is how many entries it holds.
	Count int `json:"count"`
	// First are the paths (or places) of its first entries, at most three.
	First []string `json:"first"`
}
