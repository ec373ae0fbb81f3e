package schema

import "github.com/rtch/rtch/pkg/record"

// Shape is rtch.shape: the structural scans of the shape scout (SPEC §7).
type Shape struct {
	record.Envelope
	// FilesWalked is the number of text files the scout read.
	FilesWalked int `json:"files_walked"`
	// FilesSkipped is the number of walk skips (each also an rtch.skip record).
	FilesSkipped int `json:"files_skipped"`
	// ShapeInventory has one entry per scan.
	ShapeInventory []ShapeScan `json:"shape_inventory"`
	// DirMap is the directory map to depth 3, capped.
	DirMap []string `json:"dir_map"`
	// Findings are the capped findings of every scan, goal-relevant ones first.
	Findings []ShapeFinding `json:"findings"`
	// Corpus holds corpus statistics for weighting.
	Corpus CorpusStats `json:"corpus"`
}

// ShapeScan is one scan's accounting.
type ShapeScan struct {
	// Scan names the scan: dir_map, filenames, headings, frontmatter_keys,
	// durable_handles, json_keys, yaml_keys, toml_keys, code_symbols,
	// source_of_truth, deprecation.
	Scan string `json:"scan"`
	// Pattern describes what it looked for.
	Pattern string `json:"pattern"`
	// FilesTouched and Hits count its work.
	FilesTouched int `json:"files_touched"`
	Hits         int `json:"hits"`
	// WallMS is its share of wall time in milliseconds.
	WallMS int64 `json:"wall_ms"`
	// Capped is true when findings were cut at the cap.
	Capped bool `json:"capped"`
	// CeilingHit is true when the cost ceiling stopped the scan; Note says where.
	CeilingHit bool   `json:"ceiling_hit"`
	Note       string `json:"note,omitempty"`
}

// ShapeFinding is one structural finding.
type ShapeFinding struct {
	// Scan is the scan that found it.
	Scan string `json:"scan"`
	// Path and Line locate it.
	Path string `json:"path"`
	Line int    `json:"line"`
	// Value is the heading text, key, symbol name, handle or phrase.
	Value string `json:"value"`
	// Detail is e.g. the symbol kind and language ("func go"), heading level.
	Detail string `json:"detail,omitempty"`
}

// CorpusStats are document-frequency statistics over the walked files.
type CorpusStats struct {
	// Docs is the number of documents (files).
	Docs int `json:"docs"`
	// AvgLen is the mean document length in tokens.
	AvgLen float64 `json:"avg_len"`
}

// Candidate is rtch.candidate: one term of the candidate basket.
type Candidate struct {
	record.Envelope
	// Term is the search term.
	Term string `json:"term"`
	// Origin: durable_handle, manifest_key, explicit_seed, local_shape, file_path,
	// heading, code_symbol, json_key, yaml_key, ref_neighborhood, caution,
	// exploratory, noise (most trusted first).
	Origin string `json:"origin"`
	// Use: locate, pressure, hydrate, neighbor_only, caution, exclude, exploratory.
	Use string `json:"use"`
	// PairedWith names what confirmed the term ("symbol:pkg/x.go:12", "seed", …).
	PairedWith []string `json:"paired_with"`
	// ExpectedSignal says what a hit on it should show.
	ExpectedSignal string `json:"expected_signal"`
	// Notes explain the classification.
	Notes string `json:"notes"`
	// DF is the number of walked files containing the term; IDF = ln(1 + (N-df+0.5)/(df+0.5)).
	DF  int     `json:"df"`
	IDF float64 `json:"idf"`
	// Locations are where the shape confirmed the term, as "kind:path" or
	// "kind:path:line" (kind: code_symbol, heading, file_name, dir_name, path,
	// json_key, yaml_key, toml_key, frontmatter_key), capped at 50.
	Locations []string `json:"locations,omitempty"`
	// Generic is true for a configured generic term.
	Generic bool `json:"generic"`
	// GoalKind is the intake's kind of the goal term the candidate came from
	// (identifier, qualified, word, quoted, …); empty for terms that did not
	// come from the goal.
	GoalKind string `json:"goal_kind,omitempty"`
	// GoalCount is how many times the goal mentions the term (0 when the term
	// did not come from the goal).
	GoalCount int `json:"goal_count,omitempty"`
	// InTitle is true when the goal has several lines and the term occurs in
	// its first one, the title of a commit message or an issue.
	InTitle bool `json:"in_title,omitempty"`
	// Group is the idea the term spells with other candidates (the goal
	// term's group, set by rtch-intake --ideas): the ranking scores the
	// group's spellings as one term.
	Group string `json:"group,omitempty"`
	// GroupDF is the number of walked files containing any spelling of the
	// group.
	GroupDF int `json:"group_df,omitempty"`
	// GroupIDF is the IDF of GroupDF, the group's weight in the ranking.
	GroupIDF float64 `json:"group_idf,omitempty"`
}

// Basket is rtch.basket: closes the candidate basket.
type Basket struct {
	record.Envelope
	// BasketID is deterministic over the basket's terms.
	BasketID string `json:"basket_id"`
	// TermCount is the number of rtch.candidate records.
	TermCount int `json:"term_count"`
	// GenericAloneWarnings lists generic terms that were not paired.
	GenericAloneWarnings []string `json:"generic_alone_warnings"`
	// Exclusions are path patterns and terms excluded (from forbidden_assumptions).
	Exclusions []string `json:"exclusions"`
	// NeighborSurfaces are paths treated as neighbor_only.
	NeighborSurfaces []string `json:"neighbor_surfaces"`
	// CorpusDocs is the number of walked files the statistics are over.
	CorpusDocs int `json:"corpus_docs"`
}

// Probe is rtch.probe: one typed probe of the plan (SPEC §8).
type Probe struct {
	record.Envelope
	// ProbeID is "P01", "P02", … in plan order.
	ProbeID string `json:"probe_id"`
	// Family: file_inventory, heading, explicit_seed, durable_handle, caution,
	// reference_backlink, source_of_truth_phrase, code_symbol, json_yaml_key,
	// temporal_provenance.
	Family string `json:"family"`
	// Purpose says why the probe exists.
	Purpose string `json:"purpose"`
	// InputTerms are the basket terms it searches for.
	InputTerms []string `json:"input_terms"`
	// TargetSet describes the files it runs over (a glob or "all walked files").
	TargetSet string `json:"target_set"`
	// CommandClass is the kind of search (literal, word, regex, path, structural).
	CommandClass string `json:"command_class"`
	// ExpectedSignal, Limitation: what a hit means and what it cannot show.
	ExpectedSignal string `json:"expected_signal"`
	Limitation     string `json:"limitation"`
	// ClaimAuthority: weak, source-bearing or claim-supporting.
	ClaimAuthority string `json:"claim_authority"`
	// Exploratory marks probes allowed only as exploration.
	Exploratory bool `json:"exploratory"`
	// Cost is the dry-run cost of the target set.
	Cost ProbeCost `json:"cost"`
	// Status: planned, executed, skipped_cost, skipped_budget.
	Status string `json:"status"`
	// HitCount is the number of hits (before the per-probe cap).
	HitCount int `json:"hit_count"`
}

// ProbeCost is the size of a probe's target set.
type ProbeCost struct {
	// Files is the number of files in the target set.
	Files int `json:"files"`
	// Lines is their total line count.
	Lines int `json:"lines"`
	// Bytes is their total size.
	Bytes int64 `json:"bytes"`
}

// Hit is rtch.hit: one probe match.
type Hit struct {
	record.Envelope
	// ProbeID is the probe that matched.
	ProbeID string `json:"probe_id"`
	// Path, Line (1-based) and Col (1-based, bytes) locate the match; Line is 0 for
	// a path-only match.
	Path string `json:"path"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// Term is the basket term that matched.
	Term string `json:"term"`
	// LineText is the matched line, capped (valid UTF-8).
	LineText string `json:"line_text"`
	// ConfidenceClass: hit, weak_hit, source_bearing_hit, neighbor_only, caution_only.
	ConfidenceClass string `json:"confidence_class"`
	// Field is where it matched: path, definition, heading, key, body.
	Field string `json:"field"`
}

// Rank is rtch.rank: the ranked surfaces (files) after probing.
type Rank struct {
	record.Envelope
	// Surfaces in rank order, capped.
	Surfaces []RankedSurface `json:"surfaces"`
	// Total is the number of surfaces with any evidence, before the cap.
	Total int `json:"total"`
}

// RankedSurface is one ranked file.
type RankedSurface struct {
	// Path of the surface.
	Path string `json:"path"`
	// Rank is 1-based.
	Rank int `json:"rank"`
	// Score is the evidence score (higher is better).
	Score float64 `json:"score"`
	// WhySelected explains the score in a few phrases.
	WhySelected []string `json:"why_selected"`
	// Terms are the distinct terms that matched.
	Terms []string `json:"terms"`
	// BestClass is the strongest confidence class among its hits.
	BestClass string `json:"best_class"`
	// Anchors are the lines hydration should center on, best first.
	Anchors []int `json:"anchors"`
	// NeighborOnly marks known-neighbor surfaces.
	NeighborOnly bool `json:"neighbor_only,omitempty"`
}
