package protect

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
)

// Result is one chunk after the SPEC §10 pipeline: probe → quarantine →
// classify → wrap.
type Result struct {
	// Tier is the trust tier Classify gave the chunk's provenance.
	Tier Tier
	// Findings are the probe's findings on the raw chunk text.
	Findings []Finding
	// Quarantined is true when a finding blocks the chunk; Rendered then
	// withholds the text.
	Quarantined bool
	// Rendered is what may be shown to a model: the quarantine line, the
	// wrapped text, or (operator tier) the escaped text unwrapped.
	Rendered string
	// Wrapped is true when Rendered is a wrapped block (the caller then owes
	// the prompt one IntegrityNotice).
	Wrapped bool
}

// ProtectChunk runs the whole pipeline on one chunk. The tier comes from p
// only; whatever the text claims is a finding (trust_claim), never a tier.
// Operator chunks are probed too: a flagged operator page is quarantined like
// any other, since its file may have been tampered with.
func ProtectChunk(source, text string, p Provenance) Result {
	r := Result{Tier: Classify(p), Findings: Scan(text)}
	switch {
	case Blocking(r.Findings):
		r.Quarantined = true
		r.Rendered = Quarantined(source, r.Findings)
	default:
		r.Rendered = Wrap(text, r.Tier)
		r.Wrapped = r.Tier != TierOperator
	}
	return r
}

// QuarantineEvent is the guild.security_event.v1 a quarantined chunk
// records (event_type recall_quarantine, decision blocked).
func QuarantineEvent(tool, runID, source, text string, r Result) SecurityEvent {
	ex := make([]string, 0, len(r.Findings))
	for _, f := range r.Findings {
		ex = append(ex, f.Pattern+": "+f.Excerpt)
	}
	sum := sha256.Sum256([]byte(text))
	return SecurityEvent{
		EventType:  "recall_quarantine",
		Decision:   "blocked",
		SourcePath: source,
		Patterns:   Patterns(r.Findings),
		RunID:      runID,
		Tool:       tool,
		TrustTier:  string(r.Tier),
		Excerpts:   ex,
		SHA256:     hex.EncodeToString(sum[:]),
	}
}

// EventLog is where the security events of a run go, relative to the
// project root: .guild/runs/<run-id>/logs/security-events.jsonl, or
// .guild/logs/security-events.jsonl without a run id. A run id that could
// leave the runs directory is an error.
func EventLog(runID string) (string, error) {
	if runID == "" {
		return path.Join(".guild", "logs", eventsFile), nil
	}
	if runID == "." || runID == ".." || strings.ContainsAny(runID, `/\`) || strings.ContainsRune(runID, 0) {
		return "", fmt.Errorf("run id %q is not a plain directory name", runID)
	}
	return path.Join(".guild", "runs", runID, "logs", eventsFile), nil
}

const eventsFile = "security-events.jsonl"
