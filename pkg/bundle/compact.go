package bundle

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/rtch/rtch/pkg/handoff"
)

// Ellipsis marks a summary cut by compaction.
const Ellipsis = "…"

// digestEntry is the compacted form of a guild.handoff.v2 block: its
// technical fields copied as they are, the summary cut, the receipt named.
type digestEntry struct {
	TaskID         string   `json:"task_id"`
	Status         string   `json:"status"`
	Tier           string   `json:"tier"`
	Artifacts      []string `json:"artifacts"`
	Issues         []string `json:"issues"`
	EscalateReason string   `json:"escalate_reason,omitempty"`
	Summary        string   `json:"summary"`
	Receipt        string   `json:"receipt"`
}

// digestLine compacts one envelope into one line of JSON. Every field but the
// summary is copied character for character (JSON escaping aside, which
// decodes back to the same string; HTML characters are not escaped); the
// summary keeps its first sentence and, when more followed, ends in " …".
func digestLine(r *handoff.Receipt) string {
	c := r.Contract
	e := digestEntry{
		TaskID: c.TaskID, Status: c.Status, Tier: c.Tier,
		Artifacts: nonNil(c.Artifacts), Issues: nonNil(c.Issues),
		EscalateReason: c.EscalateReason, Summary: CutSummary(c.Summary), Receipt: r.Path,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(e) // strings and string slices always encode
	return strings.TrimSuffix(buf.String(), "\n")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// CutSummary keeps a summary's first sentence: the text up to the first '.',
// '!' or '?' that is followed by white space. A dotted name or a path
// (retry.Do, docs/a.md) is never a boundary, since no space follows its dot.
// When text followed, the cut is marked with " …"; nothing is reworded.
func CutSummary(s string) string {
	s = strings.TrimSpace(s)
	loc := sentenceEnd.FindStringIndex(s)
	if loc == nil || loc[1] >= len(s) {
		return s
	}
	return s[:loc[0]+1] + " " + Ellipsis
}
