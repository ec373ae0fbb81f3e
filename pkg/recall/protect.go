package recall

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// integrityNotice is the directive of a result with a wrapped chunk.
const integrityNotice = protect.IntegrityNotice

func estimate(s string) int { return tokens.Estimate(s) }

// protector applies probe → quarantine → classify → wrap to each chunk and
// appends the security events.
type protector struct {
	opt    Options
	events int
}

func newProtector(opt Options) *protector { return &protector{opt: opt} }

func (p *protector) record(ev protect.SecurityEvent) error {
	ev.RunID = p.opt.RunID
	ev.Tool = p.opt.Tool
	ev.At = p.opt.Now.UTC().Format(time.RFC3339)
	log, err := protect.EventLog(p.opt.RunID)
	if err != nil {
		return err
	}
	if err := protect.AppendEvent(p.opt.Root, log, ev); err != nil {
		return err
	}
	p.events++
	return nil
}

// protect is the one function that turns a candidate into an output chunk.
// The security event of a quarantined chunk is returned, not yet written:
// the caller records it only if the chunk is emitted (a chunk trimmed by the
// graph cap never reaches anyone).
func (p *protector) protect(c chunk, prefix string) (schema.RecallChunk, *protect.SecurityEvent) {
	out := c.path
	if prefix != "" {
		out = path.Join(prefix, c.path)
	}
	// a page's path is spelt as records spell names (pkg/pathenc: the tag's
	// name already broken); a graph node's id is not
	out = protect.BreakNames(out)
	fm := c.meta.Front
	tier := pageTier(c.path, c.meta, c.fromGraph)
	findings := protect.Scan(c.text)
	if len(fm.TrustClaims) > 0 {
		// The frontmatter is not part of the chunk text the probe saw, but a
		// page that claims a tier there is flagged the same way: the claim
		// never changes the tier above, and the page is quarantined.
		findings = append(findings, protect.Finding{Pattern: "trust_claim",
			Excerpt: "frontmatter " + strings.Join(fm.TrustClaims, ", "), Count: len(fm.TrustClaims)})
	}
	sum := sha256.Sum256([]byte(c.text))
	rc := schema.RecallChunk{SourcePath: out, TrustTier: string(tier), Score: round4(c.score), Lines: c.lines}
	if protect.Blocking(findings) {
		excerpts := make([]string, 0, len(findings))
		for _, f := range findings {
			excerpts = append(excerpts, f.Pattern+": "+f.Excerpt)
		}
		ev := &protect.SecurityEvent{EventType: "recall_quarantine", Decision: "blocked",
			SourcePath: out, Patterns: protect.Patterns(findings), TrustTier: string(tier),
			Excerpts: excerpts, SHA256: hex.EncodeToString(sum[:])}
		rc.Quarantined = true
		rc.Rendered = protect.Quarantined(out, findings)
		return rc, ev
	}
	rc.Rendered, _ = protect.WrapBudget(c.text, tier, p.opt.Settings.ChunkTokens)
	return rc, nil
}

// pageTier is the trust tier of a page (or graph node) from its path and
// provenance only.
func pageTier(rel string, m fts.PageMeta, fromGraph bool) protect.Tier {
	fm := m.Front
	owner := strings.ToLower(strings.TrimSpace(fm.Owner))
	synthesized := fm.Synthesized || owner == "synthesized"
	return protect.Classify(protect.Provenance{
		Path:        rel,
		Category:    m.Category,
		Owner:       fm.Owner,
		Synthesized: fm.Synthesized,
		Confidence:  fm.Confidence,
		SourceRefs:  len(fm.SourceRefs),
		Reviewed:    (fm.Reviewed || owner == "reviewed") && !synthesized,
		FromGraph:   fromGraph,
		Harvested:   fm.Harvested,
	})
}
