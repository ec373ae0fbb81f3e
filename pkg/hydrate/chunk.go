package hydrate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/tokens"
)

// estimate prices a step from its text before protection. Redaction and the
// injection probe run only on the steps that may be taken (see take), since
// most planned windows are never read.
func (h *hydrator) estimate(sf *surface, st *step) {
	text := sf.file.renderRaw(st.seg.s, st.seg.e, h.o.MaxLineRunes)
	st.cost = h.o.Count.Of(text) + h.heading(sf, st.seg.s, st.seg.e)
}

// heading prices a chunk's block in the brief without its text: what
// brief.Chunk writes around the text of a chunk of lines s..e of the surface.
func (h *hydrator) heading(sf *surface, s, e int) int {
	c := schema.Chunk{Path: sf.rs.Path, LineRange: LineRange(s, e), StartLine: s, EndLine: e, Rank: sf.rs.Rank,
		ConfidenceClass: "hydrated_evidence", TermOrShape: strings.Join(sf.rs.Terms[:min(1, len(sf.rs.Terms))], ""),
		SHA256: sf.file.SHA256, Limitation: fmt.Sprintf("lines %d-%d of %d;", s, e, sf.file.Lines()),
		NextReEntryCommand: ReEntryCommand(sf.rs.Path, s, e)}
	return h.o.Count.Of(brief.Chunk(c))
}

// build turns a step's range into chunks (raw ranges around corrected rows, plus
// the effective view of each corrected row) and prices it.
func (h *hydrator) build(sf *surface, st *step) {
	f := sf.file
	s, e := st.seg.s, st.seg.e
	var rows []int
	for n := range h.corrected[f.Path] {
		if n >= s && n <= e {
			rows = append(rows, n)
		}
	}
	sort.Ints(rows)
	cur := s
	for _, n := range rows {
		if cur <= n-1 {
			st.chunks = append(st.chunks, h.rawChunk(sf, st, cur, n-1))
		}
		st.chunks = append(st.chunks, h.effectiveChunk(sf, n, h.corrected[f.Path][n]))
		cur = n + 1
	}
	if cur <= e {
		st.chunks = append(st.chunks, h.rawChunk(sf, st, cur, e))
	}
	st.cost = 0
	for _, c := range st.chunks {
		st.cost += h.o.Count.Of(brief.Chunk(c))
	}
	st.built = true
}

// rawChunk reads lines s..e of the surface as a chunk.
func (h *hydrator) rawChunk(sf *surface, st *step, s, e int) schema.Chunk {
	f := sf.file
	target := st.seg.target
	if target < s || target > e {
		target = s
	}
	lr := LineRange(s, e)
	c := MakeChunk(f, s, e, h.o.MaxLineRunes, h.o.Protect)
	c.EstTokens = h.o.Count.Of(c.Text)
	c.Envelope = record.Env(schema.KindChunk, schema.V1, f.Path, lr, f.SHA256)
	c.ChunkID = c.ID
	c.TargetLine = target
	c.Commit = h.o.Commit
	c.Rank = sf.rs.Rank
	hit := st.seg.hit
	if hit == nil || hit.Line < s || hit.Line > e {
		hit = h.bestHitIn(f.Path, s, e)
	}
	if hit != nil {
		c.ProbeID = hit.ProbeID
		c.TermOrShape = hit.Term
	} else if sf.known {
		c.TermOrShape = "known_target"
	} else {
		c.TermOrShape = strings.Join(sf.rs.Terms, ", ")
	}
	// The class is the strongest hit the chunk holds, not only its anchor's:
	// a whole file read for a body match may also hold the definition.
	classHit := hit
	if best := h.bestHitIn(f.Path, s, e); best != nil && (classHit == nil || classStrength(best.ConfidenceClass) > classStrength(classHit.ConfidenceClass)) {
		classHit = best
	}
	c.ConfidenceClass = h.class(sf, classHit, s, e)
	c.WhyIncluded = h.why(sf, st, hit, s, e)
	c.Limitation = h.limitation(sf, st, c, s, e)
	return c
}

// MakeChunk reads lines s..e of f into a chunk with its hashes, text, flags,
// token estimate and re-entry commands; the caller fills the provenance.
func MakeChunk(f *File, s, e, maxLineRunes int, protect Protector) schema.Chunk {
	lr := LineRange(s, e)
	text, truncated := f.Render(s, e, maxLineRunes)
	var flags []string
	if len(truncated) > 0 {
		flags = append(flags, "truncated_lines")
	}
	if protect != nil {
		var pf []string
		text, pf = protect(text)
		flags = append(flags, pf...)
	}
	// The text was redacted from the whole file (File.Render): its marks
	// name the rules, whatever the protector reported.
	for _, r := range secret.Rules(text) {
		if !slices.Contains(flags, "redacted:"+r) {
			flags = append(flags, "redacted:"+r)
		}
	}
	if flags == nil {
		flags = []string{}
	}
	return schema.Chunk{
		Path:               f.Path,
		LineRange:          lr,
		StartLine:          s,
		EndLine:            e,
		TargetLine:         s,
		SHA256:             f.SHA256Of(s, e),
		FileSHA256:         f.SHA256,
		NextReEntryCommand: ReEntryCommand(f.Path, s, e),
		SedCommand:         SedCommand(f.Path, s, e),
		Text:               text,
		EstTokens:          tokens.Estimate(text),
		Flags:              flags,
	}
}

// effectiveChunk is the effective view of a corrected record: the base row's
// raw bytes are never hydrated.
func (h *hydrator) effectiveChunk(sf *surface, n int, er schema.EffectiveRecord) schema.Chunk {
	f := sf.file
	view, _ := json.Marshal(er.EffectiveRecord)
	text := string(view) + "\n"
	sum := sha256.Sum256([]byte(text))
	var flags []string
	if h.o.Protect != nil {
		text, flags = h.o.Protect(text)
	}
	if flags == nil {
		flags = []string{}
	}
	lr := LineRange(n, n)
	c := schema.Chunk{
		Envelope:           record.Env(schema.KindChunk, schema.V1, f.Path, lr, "effective", er.TargetRecordID, hex.EncodeToString(sum[:])),
		Path:               f.Path,
		LineRange:          lr,
		StartLine:          n,
		EndLine:            n,
		TargetLine:         n,
		SHA256:             hex.EncodeToString(sum[:]),
		FileSHA256:         f.SHA256,
		Commit:             h.o.Commit,
		WhyIncluded:        fmt.Sprintf("rank %d: row L%d holds record %s, corrected by %s; its effective view replaces the raw row", sf.rs.Rank, n, er.TargetRecordID, strings.Join(er.AppliedCorrectionIDs, ", ")),
		TermOrShape:        "record:" + er.TargetRecordID,
		ConfidenceClass:    "effective_record_view",
		Limitation:         fmt.Sprintf("effective view (base row plus corrections %s) as the gate computed it; the raw row %s is superseded and was not hydrated; sha256 is over this view's JSON", strings.Join(er.AppliedCorrectionIDs, ", "), er.BaseLocation),
		NextReEntryCommand: EffectiveReEntryCommand(er.TargetRecordID),
		SedCommand:         SedCommand(f.Path, n, n),
		BaseReEntryCommand: ReEntryCommand(f.Path, n, n),
		Text:               text,
		EstTokens:          h.o.Count.Of(text),
		Flags:              flags,
		Rank:               sf.rs.Rank,
	}
	c.ChunkID = c.ID
	return c
}

// class is the chunk's confidence class after hydration (SPEC §8).
func (h *hydrator) class(sf *surface, hit *schema.Hit, s, e int) string {
	if sf.rs.NeighborOnly || h.neighbor[sf.rs.Path] {
		return "neighbor_only"
	}
	if hit == nil {
		if sf.known {
			return "hydrated_evidence"
		}
		return "hit"
	}
	switch hit.ConfidenceClass {
	case "source_bearing_hit":
		if h.truth[sf.rs.Path] && h.claimIn(sf.rs.Path, s, e) {
			return "claim_supporting"
		}
		return "hydrated_evidence"
	case "":
		return "hit"
	}
	return hit.ConfidenceClass
}

// claimIn reports whether lines s..e of p hold a source-bearing hit on a
// durable handle, explicit seed or manifest key: read in a truth file, that is
// claim-supporting evidence.
func (h *hydrator) claimIn(p string, s, e int) bool {
	for _, x := range h.hits[p] {
		if x.ConfidenceClass != "source_bearing_hit" || (x.Line != 0 && (x.Line < s || x.Line > e)) {
			continue
		}
		switch h.origin[x.Term] {
		case "durable_handle", "explicit_seed", "manifest_key":
			return true
		}
	}
	return false
}

func (h *hydrator) why(sf *surface, st *step, hit *schema.Hit, s, e int) string {
	var b strings.Builder
	if sf.rs.Rank > 0 {
		fmt.Fprintf(&b, "rank %d surface (score %.2f)", sf.rs.Rank, sf.rs.Score)
	} else {
		b.WriteString("known target from the intake")
	}
	if len(sf.rs.WhySelected) > 0 {
		fmt.Fprintf(&b, ": %s", sf.rs.WhySelected[0])
	}
	if hit != nil {
		fam := h.family[hit.ProbeID]
		if fam != "" {
			fam = " (" + fam + ")"
		}
		where := fmt.Sprintf("L%d", hit.Line)
		if hit.Line == 0 {
			where = "the path"
		}
		fmt.Fprintf(&b, "; probe %s%s matched %q at %s", hit.ProbeID, fam, hit.Term, where)
		if hit.Field != "" {
			fmt.Fprintf(&b, " (%s)", hit.Field)
		}
	}
	switch {
	case st.unit != nil:
		b.WriteString("; " + unitWhy(st))
	case st.deepen:
		fmt.Fprintf(&b, "; context next to a read range, added with budget left after every planned window")
	case st.half && s == st.seg.s && e == st.seg.e:
		fmt.Fprintf(&b, "; ±%d lines around L%d (half a window: a first look below the top %d surfaces)", h.o.Window/2, st.seg.target, fullFirstTop)
	case st.whole || (s == 1 && e == sf.file.Lines()):
		fmt.Fprintf(&b, "; whole file (%d lines)", sf.file.Lines())
	case s != st.seg.s || e != st.seg.e:
		fmt.Fprintf(&b, "; the rows of %s around L%d other than the corrected ones", LineRange(st.seg.s, st.seg.e), st.seg.target)
	case len(st.seg.anchors) > 1:
		fmt.Fprintf(&b, "; merged windows around %d target lines", len(st.seg.anchors))
	case st.seg.anchors[0] == -1:
		b.WriteString("; the known target's range")
	case st.seg.anchors[0] <= 0:
		b.WriteString("; head of the file (path match, no line)")
	default:
		fmt.Fprintf(&b, "; ±%d lines around L%d", h.o.Window, st.seg.target)
	}
	return b.String()
}

func (h *hydrator) limitation(sf *surface, st *step, c schema.Chunk, s, e int) string {
	var parts []string
	n := sf.file.Lines()
	if s == 1 && e == n {
		parts = append(parts, "whole file; its callers and dependents in other files are not read")
	} else {
		parts = append(parts, fmt.Sprintf("lines %d-%d of %d; the rest of the file is not read", s, e, n))
	}
	switch c.ConfidenceClass {
	case "hit", "weak_hit":
		parts = append(parts, "lexical match only: the term occurs here, its meaning is not confirmed")
	case "caution_only":
		parts = append(parts, "caution or source-of-truth phrasing, not evidence of behaviour")
	case "neighbor_only":
		parts = append(parts, "neighbor surface: context, not evidence for the claim")
	}
	for _, fl := range c.Flags {
		if fl == "truncated_lines" {
			parts = append(parts, fmt.Sprintf("lines longer than %d characters are cut in the text", pick(h.o.MaxLineRunes, DefaultMaxLineRunes)))
		}
		if strings.HasPrefix(fl, "redacted:") {
			parts = append(parts, "secrets redacted in the text; sha256 is over the original bytes")
			break
		}
	}
	if h.o.Commit == "" {
		parts = append(parts, "outside git: no commit pins this read")
	}
	return strings.Join(parts, "; ")
}
