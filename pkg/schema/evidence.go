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
	// "redacted:aws_access_key").
	Flags []string `json:"flags"`
	// Rank is the surface's rank the chunk belongs to.
	Rank int `json:"rank"`
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
