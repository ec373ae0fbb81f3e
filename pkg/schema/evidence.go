package schema

import "github.com/rtch/rtch/pkg/record"

// Chunk is rtch.chunk: one bounded, re-enterable read (SPEC §8).
type Chunk struct {
	record.Envelope
	// ChunkID is deterministic over path, range and file hash.
	ChunkID string `json:"chunk_id"`
	// Path of the file, relative to the zone root.
	Path string `json:"path"`
	// LineRange is "L<s>-L<e>".
	LineRange string `json:"line_range"`
	// StartLine, EndLine (inclusive, 1-based) and TargetLine (the anchor).
	StartLine  int `json:"start_line"`
	EndLine    int `json:"end_line"`
	TargetLine int `json:"target_line"`
	// SHA256 is over the chunk's original bytes (before redaction); FileSHA256 over
	// the whole file.
	SHA256     string `json:"sha256"`
	FileSHA256 string `json:"file_sha256"`
	// Commit is HEAD when the chunk was read, "" outside git.
	Commit string `json:"commit"`
	// WhyIncluded says why the chunk was read.
	WhyIncluded string `json:"why_included"`
	// TermOrShape is the term or shape that led here.
	TermOrShape string `json:"term_or_shape"`
	// ConfidenceClass after hydration (hydrated_evidence, claim_supporting, …).
	ConfidenceClass string `json:"confidence_class"`
	// Limitation says what the chunk cannot show.
	Limitation string `json:"limitation"`
	// NextReEntryCommand reproduces the chunk: "rtch-hydrate --reenter PATH:L<s>-L<e>".
	NextReEntryCommand string `json:"next_re_entry_command"`
	// SedCommand is the equivalent `sed -n 's,ep' PATH`.
	SedCommand string `json:"sed_command"`
	// Text is the chunk text (valid UTF-8, secrets redacted).
	Text string `json:"text"`
	// EstTokens is ceil(chars/4) of Text.
	EstTokens int `json:"est_tokens"`
	// Flags are injection-probe findings and redactions ("injection:override_phrase",
	// "injection:model:0.97" when the learned model scores the chunk at or above
	// its threshold, "redacted:aws-access-token").
	Flags []string `json:"flags"`
	// Rank is the surface's rank the chunk belongs to.
	Rank int `json:"rank"`
	// ProbeID is the probe whose hit anchored the chunk ("" for a re-entry).
	ProbeID string `json:"probe_id,omitempty"`
	// BaseReEntryCommand, on an effective_record_view chunk, re-reads the raw
	// (uncorrected) base row; NextReEntryCommand then re-derives the effective view.
	BaseReEntryCommand string `json:"base_re_entry_command,omitempty"`
}

// Skip is rtch.skip: a surface that was not read, and why.
type Skip struct {
	record.Envelope
	// Path of the surface.
	Path string `json:"path"`
	// Reason: budget, binary, too_large, ignored, unreadable, cost, forbidden,
	// corrected_record, special, symlink_escape, symlink_loop, dangling_symlink,
	// lfs_pointer.
	Reason string `json:"reason"`
	// SizeBytes and LineCount when known (0 otherwise).
	SizeBytes int64 `json:"size_bytes"`
	LineCount int   `json:"line_count"`
	// Stage is the tool that skipped it (scout, probe, hydrate).
	Stage string `json:"stage"`
	// Detail explains it for a person.
	Detail string `json:"detail,omitempty"`
}

// Rehydrate is rtch.rehydrate: the result of re-reading every chunk of a
// persisted packet against the tree as it is now (SPEC §8).
type Rehydrate struct {
	record.Envelope
	// PacketID is the packet that was rehydrated.
	PacketID string `json:"packet_id"`
	// PacketPath is the packet file as given on the command line.
	PacketPath string `json:"packet_path"`
	// ZoneRoot is the absolute root the chunk paths were resolved against.
	ZoneRoot string `json:"zone_root"`
	// Overall is the worst per-chunk status, in the order failed_rehydration,
	// superseded, drift_detected, effective_record_hold, refreshed ("refreshed"
	// for a packet without chunks).
	Overall string `json:"overall"`
	// Counts maps each status to its number of chunks.
	Counts map[string]int `json:"counts"`
	// Chunks has one entry per chunk of the packet, in packet order.
	Chunks []RehydratedChunk `json:"chunks"`
}

// RehydratedChunk is the rehydration verdict of one chunk.
type RehydratedChunk struct {
	// ChunkID, Path and LineRange identify the chunk as the packet recorded it.
	ChunkID   string `json:"chunk_id"`
	Path      string `json:"path"`
	LineRange string `json:"line_range"`
	// Status: refreshed, drift_detected, superseded, failed_rehydration or
	// effective_record_hold.
	Status string `json:"status"`
	// NewLineRange is where the chunk's content (or its anchor) is now, when it
	// was re-located; "" otherwise.
	NewLineRange string `json:"new_line_range,omitempty"`
	// OldSHA256 is the packet's chunk hash; NewSHA256 the hash of the same range
	// (or of the re-located range) now, "" when it could not be read.
	OldSHA256 string `json:"old_sha256"`
	NewSHA256 string `json:"new_sha256,omitempty"`
	// NextReEntryCommand reads the chunk as it is now.
	NextReEntryCommand string `json:"next_re_entry_command,omitempty"`
	// Detail explains the verdict for a person.
	Detail string `json:"detail"`
}

// Functions is rtch.functions: the definitions of the best-ranked surfaces
// ranked by the goal's evidence inside them, which rtch-hydrate reads in
// that order (emitted before its chunks). rtch-packet carries them as
// ranked_functions.
type Functions struct {
	record.Envelope
	// Functions are the ranked definitions, best first, at most 20.
	Functions []RankedFunction `json:"functions"`
}

// RankedFunction is one ranked definition, or a file's top level.
type RankedFunction struct {
	// Path of the file, relative to the zone root.
	Path string `json:"path"`
	// Name is the defined name ("" for a file's top level).
	Name string `json:"name"`
	// Kind: func, method, class, type, struct, interface, enum, trait,
	// impl, module; or top_level, the file's lines outside every
	// definition (imports, package-level declarations, tables).
	Kind string `json:"kind"`
	// StartLine is the head (signature) line, 1-based; 1 for a top level.
	StartLine int `json:"start_line"`
	// EndLine is the body's last line (inclusive); a top level's is the
	// file's last line.
	EndLine int `json:"end_line"`
	// Score is the evidence inside the definition times its file's factor
	// (higher is better).
	Score float64 `json:"score"`
	// Why names what lifted it, strongest first: goal terms and where they
	// matched (name, signature, body×N).
	Why []string `json:"why"`
}
