package protect

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/secret"
)

// Quarantined renders the text shown in place of a flagged chunk:
// "[QUARANTINED: <source> (patterns: a, b) — excluded]". The chunk's text is
// withheld entirely. The source is escaped like wrapped text and stripped of
// line breaks, so a hostile file name can neither spell the delimiter nor
// start a new line.
func Quarantined(source string, f []Finding) string {
	src := strings.Join(strings.Fields(escapeText(source)), " ")
	return fmt.Sprintf("[QUARANTINED: %s (patterns: %s) — excluded]", src, strings.Join(Patterns(f), ", "))
}

// Patterns returns the distinct pattern ids of the findings, sorted.
func Patterns(f []Finding) []string {
	seen := make(map[string]bool, len(f))
	out := make([]string, 0, len(f))
	for _, x := range f {
		if !seen[x.Pattern] {
			seen[x.Pattern] = true
			out = append(out, x.Pattern)
		}
	}
	sort.Strings(out)
	return out
}

// Flags returns the findings as rtch.chunk flags: "injection:<pattern>",
// distinct and sorted. Redactions are flagged by the caller as
// "redacted:<rule>" from Redact's rules.
func Flags(f []Finding) []string {
	p := Patterns(f)
	for i := range p {
		p[i] = "injection:" + p[i]
	}
	return p
}

// SecurityEventSchema is the schema_version of every SecurityEvent line.
const SecurityEventSchema = "guild.security_event.v1"

// SecurityEvent is one guild.security_event.v1 line of
// .guild/runs/<run-id>/logs/security-events.jsonl.
type SecurityEvent struct {
	// SchemaVersion is always "guild.security_event.v1" (filled in by AppendEvent).
	SchemaVersion string `json:"schema_version"`
	// EventType names what happened: recall_quarantine, chunk_flagged,
	// secret_redacted, trust_claim_ignored.
	EventType string `json:"event_type"`
	// Decision is what the toolkit did: blocked (text withheld), flagged
	// (text kept, caution recorded) or redacted.
	Decision string `json:"decision"`
	// SourcePath is the page or file the text came from, relative to the root.
	SourcePath string `json:"source_path"`
	// Patterns are the probe's pattern ids (or redaction rules), sorted.
	Patterns []string `json:"patterns"`
	// RunID is the guild run the event belongs to.
	RunID string `json:"run_id"`
	// At is the event time, RFC 3339 UTC (filled in by AppendEvent when empty).
	At string `json:"at"`
	// Tool is the binary that recorded the event (guild-recall, rtch-hydrate).
	Tool string `json:"tool,omitempty"`
	// TrustTier is the tier Classify gave the source.
	TrustTier string `json:"trust_tier,omitempty"`
	// Excerpts are short excerpts of the normalised text that matched, one per
	// pattern, for a human reviewer; never the raw text.
	Excerpts []string `json:"excerpts,omitempty"`
	// SHA256 is the hex SHA-256 of the raw chunk text, so the event can be tied
	// to the exact bytes without storing them.
	SHA256 string `json:"sha256,omitempty"`
}

// appendMu serialises appends within one process; the flock AppendBeneath
// holds serialises them across processes.
var appendMu sync.Mutex

// AppendEvent appends ev as one JSON line to the file root/rel (see
// EventLog), creating the file and its directories. The write is confined
// to root: a symlink on the path, or a log that is not a regular file with
// one link, refuses it (atomicfile.Dir.Append). The line is written with a
// single write while an exclusive flock is held on the file, so
// concurrent writers, goroutines or processes, never interleave or lose a
// line.
func AppendEvent(root, rel string, ev SecurityEvent) error {
	if ev.SchemaVersion == "" {
		ev.SchemaVersion = SecurityEventSchema
	}
	if ev.At == "" {
		ev.At = time.Now().UTC().Format(time.RFC3339)
	}
	if ev.Patterns == nil {
		ev.Patterns = []string{}
	}
	line, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("security event for %s: %w", ev.SourcePath, err)
	}
	// the log keeps nothing the redactor would mask: not a source path
	// whose name holds a secret, nor an excerpt that quotes one
	if red, ok := secret.JSON(line); ok {
		line = red
	}
	line = append(line, '\n')
	appendMu.Lock()
	defer appendMu.Unlock()
	dir, name := path.Split(rel)
	d, err := atomicfile.OpenDir(root, dir, 0o755)
	if err != nil {
		return fmt.Errorf("security event log: %w", err)
	}
	defer d.Close()
	if err := d.Append(name, line, 0o644); err != nil {
		return fmt.Errorf("security event log: %w", err)
	}
	return nil
}
