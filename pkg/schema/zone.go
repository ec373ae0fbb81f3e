package schema

import "github.com/rtch/rtch/pkg/record"

// Zone is rtch.zone: where the lane works (SPEC §6).
type Zone struct {
	record.Envelope
	// ZoneRoot is the absolute zone root; every path in later records is relative to it.
	ZoneRoot string `json:"zone_root"`
	// DecidedBy names the rule that chose the root: env (RTCH_ZONE_ROOT), ticzone,
	// git, cwd.
	DecidedBy string `json:"decided_by"`
	// TargetDir is the directory the lane was started in, relative to the root.
	TargetDir string `json:"target_dir"`
	// Rungs are the rung markers between the root and the target dir, outermost first.
	Rungs []Rung `json:"rungs"`
	// TruthFiles are the truth files found at the zone root.
	TruthFiles []string `json:"truth_files"`
	// Manifests are package manifests and registries at the zone root.
	Manifests []string `json:"manifests"`
	// Git is the git snapshot, null outside a git work tree.
	Git *GitSnapshot `json:"git"`
	// ConfigPath is the .rtch.toml in effect, relative to the root, or "".
	ConfigPath string `json:"config_path"`
}

// Rung is one rung marker on the way from the zone root to the target dir.
type Rung struct {
	// Dir is relative to the zone root ("." for the root itself).
	Dir string `json:"dir"`
	// Marker is the marker file name, e.g. ".domain-root".
	Marker string `json:"marker"`
	// Instructions is the rung's CLAUDE.md or AGENTS.md path, or "".
	Instructions string `json:"instructions"`
}

// GitSnapshot is the state of the work tree when the lane ran.
type GitSnapshot struct {
	// Head is the full commit hash of HEAD ("" on an unborn branch).
	Head string `json:"head"`
	// Branch is the current branch, "" when detached.
	Branch string `json:"branch"`
	// Modified and Untracked count entries of git status.
	Modified  int `json:"modified"`
	Untracked int `json:"untracked"`
	// Status is the first lines of `git status --short`.
	Status []string `json:"status"`
}

// Gate is rtch.gate: the effective-record gate's verdict (SPEC §6).
type Gate struct {
	record.Envelope
	// Status is safe, corrected or blocked.
	Status string `json:"status"`
	// Surfaces are the record surfaces (JSONL files) that were read.
	Surfaces []string `json:"surfaces"`
	// EffectiveRecords are the records whose effective view differs from the base.
	EffectiveRecords []EffectiveRecord `json:"effective_records"`
	// Unresolved lists every correction problem; any entry blocks.
	Unresolved []Unresolved `json:"unresolved"`
	// SourceDigest is the hex sha256 over the surfaces in path order, each as
	// its path, a NUL, its size in bytes, a NUL, then its bytes.
	SourceDigest string `json:"source_digest"`
}

// EffectiveRecord is one corrected record's effective view.
type EffectiveRecord struct {
	// TargetRecordID is the base record's identifier.
	TargetRecordID string `json:"target_record_id"`
	// TargetSurface is the surface (path) holding the base record.
	TargetSurface string `json:"target_surface"`
	// BaseLocation is "PATH:L<n>" of the base row.
	BaseLocation string `json:"base_location"`
	// EffectiveRecord is base plus the applied patches.
	EffectiveRecord map[string]any `json:"effective_record"`
	// AppliedCorrectionIDs in the order applied.
	AppliedCorrectionIDs []string `json:"applied_correction_ids"`
}

// Unresolved is one reason the gate blocks.
type Unresolved struct {
	// Reason: missing_target, ambiguous_target (the target id appears more than
	// once in its surface), missing_superseded, cycle, duplicate_correction_id,
	// malformed_envelope, invalid_json.
	Reason string `json:"reason"`
	// Location is "PATH:L<n>".
	Location string `json:"location"`
	// CorrectionID and TargetRecordID when known.
	CorrectionID   string `json:"correction_id,omitempty"`
	TargetRecordID string `json:"target_record_id,omitempty"`
	// Detail explains it for a person.
	Detail string `json:"detail"`
}
