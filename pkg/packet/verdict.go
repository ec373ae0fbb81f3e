package packet

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/schema"
)

// verdict is the halting decision with the reasons behind it.
type verdict struct {
	reason string
	// unmet lists requirements of the enough-evidence definition not met.
	unmet []string
	// met lists the requirements found and met.
	met []string
	// named are the named items of the definition (for next probes).
	named []string
	// next is the call that reads the first unmet requirement ("" when
	// none is known or every requirement is met).
	next string
}

var (
	quotedRe = regexp.MustCompile("`([^`]+)`|\"([^\"]+)\"|'([^'\\s][^']*[^'\\s])'")
	tokenRe  = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:[./][A-Za-z0-9_][A-Za-z0-9_-]*)*(?:\(\))?`)
	countRe  = regexp.MustCompile(`(?i)\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:[a-z-]+\s+){0,2}?(chunks?|surfaces?|files?|locations?|sites?|places?|definitions?|call\s?sites?)\b`)
	claimRe  = regexp.MustCompile(`(?i)\bclaim`)
	numWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
)

// namedItems extracts what the definition names concretely: quoted or
// backquoted strings, paths and file names, and identifiers shaped like code
// (CamelCase inside, snake_case, dotted, or called "()"). Plain words name
// nothing checkable and are left out.
func namedItems(def string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		s = strings.TrimSuffix(strings.TrimSpace(s), "()")
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	rest := def
	for _, m := range quotedRe.FindAllStringSubmatch(def, -1) {
		add(m[1] + m[2] + m[3])
		rest = strings.Replace(rest, m[0], " ", 1)
	}
	for _, t := range tokenRe.FindAllString(rest, -1) {
		if codeShaped(t) {
			add(t)
		}
	}
	return out
}

func codeShaped(t string) bool {
	if strings.HasSuffix(t, "()") || strings.Contains(t, "_") || strings.Contains(t, "/") {
		return true
	}
	if i := strings.LastIndexByte(t, '.'); i > 0 && i < len(t)-1 {
		return true
	}
	for i, r := range t {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// evidenceClass reports whether a chunk's class makes it evidence rather than a
// lead.
func evidenceClass(c string) bool {
	return c == "claim_supporting" || c == "hydrated_evidence" || c == "effective_record_view"
}

// bearing reports whether a chunk of class c can meet a requirement: an
// evidence class, or a hit read where its term occurs. A weak hit (a
// generic term alone), a neighbour or a caution meets none.
func bearing(c string) bool {
	return evidenceClass(c) || c == "hit"
}

// halting decides the halting reason. The rule, in order:
//  1. no chunk of an evidence class (claim_supporting, hydrated_evidence,
//     effective_record_view) and no source-bearing hit: no_signal_at_normal_fanout;
//  2. every requirement met, and at least one bearing chunk (an evidence
//     class, or a hit): enough_evidence_definition_satisfied. The
//     requirements of the enough-evidence definition: each named item
//     (quoted text, path, code-shaped identifier) appears in a bearing
//     chunk's text or path; "N chunks/locations/sites" needs N bearing
//     chunks and "N files/surfaces" N files with one; "claim" needs a
//     claim_supporting chunk. A definition naming nothing checkable takes
//     its requirements from the goal: a bearing chunk on the best-ranked
//     surface, and each identifier, path or quoted text of the goal that
//     the probes found in the tree in a bearing chunk;
//  3. otherwise budget_exhausted when hydration left ranked surfaces or
//     ranges unread for budget, else partial_evidence_only.
func halting(in *Input, p *schema.Packet, ptr Pointers) verdict {
	var ev, bear []schema.Chunk
	for _, c := range p.HydratedChunks {
		if evidenceClass(c.ConfidenceClass) {
			ev = append(ev, c)
		}
		if bearing(c.ConfidenceClass) {
			bear = append(bear, c)
		}
	}
	signal := len(ev) > 0
	for _, h := range in.Hits {
		if h.ConfidenceClass == "source_bearing_hit" {
			signal = true
			break
		}
	}
	v := verdict{}
	def := in.Intake.EnoughEvidenceDefinition
	v.named = namedItems(def)
	for _, item := range v.named {
		v.require(in, bear, item, "", ptr)
	}
	v.counts(def, bear)
	if claimRe.MatchString(def) {
		v.claim(ev)
	}
	if len(v.named) == 0 && len(v.met)+len(v.unmet) == 0 {
		v.fromGoal(in, p, bear, ptr)
	}
	switch {
	case !signal:
		v.reason = HaltNoSignal
	case len(bear) > 0 && len(v.unmet) == 0:
		v.reason = HaltSatisfied
	case budgetSkipped(in):
		v.reason = HaltBudget
	default:
		v.reason = HaltPartial
	}
	return v
}

// require checks that item appears in a bearing chunk's text or path
// (case-insensitively when fold); whence says where the item comes from.
// An item not read names the call that reads it: re-entry at its best hit
// when the probes found it, else a rerun with it as a seed.
func (v *verdict) require(in *Input, bear []schema.Chunk, item, whence string, ptr Pointers) {
	if c, ok := holding(bear, item); ok {
		v.met = append(v.met, fmt.Sprintf("%q%s found in %s:%s", item, whence, c.Path, c.LineRange))
		return
	}
	next := ptr.seed(item)
	if at := bestHit(in, item); at != "" {
		v.unmet = append(v.unmet, fmt.Sprintf("%q%s is in the tree at %s but in no chunk read", item, whence, at))
		next = ptr.reenter(at)
	} else {
		v.unmet = append(v.unmet, fmt.Sprintf("%q%s appears in no hydrated evidence chunk", item, whence))
	}
	if v.next == "" {
		v.next = next
	}
}

// holding finds the first chunk holding item (hydrate.Covers).
func holding(cs []schema.Chunk, item string) (schema.Chunk, bool) {
	for _, c := range cs {
		if hydrate.Covers(c, item) {
			return c, true
		}
	}
	return schema.Chunk{}, false
}

// bestHit is PATH:LINE of the probes' hit on term in the best-ranked
// surface holding one, "" when no probe found it.
func bestHit(in *Input, term string) string {
	rank := map[string]int{}
	for _, rs := range in.Rank.Surfaces {
		rank[rs.Path] = rs.Rank
	}
	best, bestRank := "", 0
	for _, h := range in.Hits {
		if h.Line < 1 || !strings.EqualFold(h.Term, term) {
			continue
		}
		r, ok := rank[h.Path]
		if !ok {
			r = len(in.Rank.Surfaces) + 1
		}
		if best == "" || r < bestRank {
			best, bestRank = fmt.Sprintf("%s:%d", h.Path, h.Line), r
		}
	}
	return best
}

// counts checks the definition's "N chunks" and "N files" against the
// bearing chunks.
func (v *verdict) counts(def string, bear []schema.Chunk) {
	files := map[string]bool{}
	for _, c := range bear {
		files[c.Path] = true
	}
	for _, m := range countRe.FindAllStringSubmatch(def, -1) {
		n, ok := numWords[strings.ToLower(m[1])]
		if !ok {
			n, _ = strconv.Atoi(m[1])
		}
		noun := strings.ToLower(m[2])
		have, what := len(bear), "chunks read where their terms occur"
		if strings.HasPrefix(noun, "file") || strings.HasPrefix(noun, "surface") {
			have, what = len(files), "files read where their terms occur"
		}
		if have >= n {
			v.met = append(v.met, fmt.Sprintf("%d %s (asked: %s)", have, what, m[0]))
		} else {
			v.unmet = append(v.unmet, fmt.Sprintf("%d %s, the definition asks for %q", have, what, m[0]))
		}
	}
}

// claim checks for a claim_supporting chunk.
func (v *verdict) claim(ev []schema.Chunk) {
	for _, c := range ev {
		if c.ConfidenceClass == "claim_supporting" {
			v.met = append(v.met, fmt.Sprintf("a claim_supporting chunk is present (%s:%s)", c.Path, c.LineRange))
			return
		}
	}
	v.unmet = append(v.unmet, "the definition asks for a claim, and no chunk is claim_supporting (a durable handle, explicit seed or manifest key read in a truth file)")
}

// fromGoal holds a definition that names nothing checkable to the goal: a
// bearing chunk on the best-ranked surface, and each checkable goal term
// the probes found in the tree read in a bearing chunk.
func (v *verdict) fromGoal(in *Input, p *schema.Packet, bear []schema.Chunk, ptr Pointers) {
	top := ""
	for _, s := range p.SelectedSurfaces {
		if s.Rank >= 1 {
			top = s.Path
			break
		}
	}
	var held []string
	for _, c := range bear {
		if c.Path == top {
			held = append(held, c.LineRange)
		}
	}
	switch {
	case len(held) > 0:
		v.met = append(v.met, fmt.Sprintf("the best-ranked surface %s is read (%s)", top, strings.Join(held, ", ")))
	case top != "":
		v.unmet = append(v.unmet, fmt.Sprintf("the best-ranked surface %s holds no chunk read where its terms occur", top))
		v.next = ptr.reenter(topTarget(in, top))
	default:
		v.unmet = append(v.unmet, "no surface was ranked")
	}
	found := map[string]bool{}
	for _, h := range in.Hits {
		found[strings.ToLower(h.Term)] = true
	}
	seen := map[string]bool{}
	for _, gt := range in.Intake.GoalTerms {
		t := gt.Term
		if !intake.Named(gt.Kind) || seen[t] || !found[strings.ToLower(t)] {
			continue
		}
		seen[t] = true
		v.require(in, bear, t, " (named in the goal)", ptr)
	}
}

// topTarget is PATH:LINE of the surface's best anchor, PATH:1 without one.
func topTarget(in *Input, path string) string {
	for _, rs := range in.Rank.Surfaces {
		if rs.Path == path && len(rs.Anchors) > 0 && rs.Anchors[0] >= 1 {
			return fmt.Sprintf("%s:%d", path, rs.Anchors[0])
		}
	}
	return path + ":1"
}

func budgetSkipped(in *Input) bool {
	for _, s := range in.Skips {
		if (s.Stage == hydrate.Stage || s.Stage == Stage) && s.Reason == "budget" {
			return true
		}
	}
	return false
}

// packetVerdict is the verdict as the packet carries it.
func packetVerdict(v verdict) schema.Verdict {
	pv := schema.Verdict{Satisfied: v.reason == HaltSatisfied, By: v.met, Missing: v.unmet, Next: v.next}
	if pv.By == nil {
		pv.By = []string{}
	}
	if pv.Missing == nil {
		pv.Missing = []string{}
	}
	if pv.Satisfied {
		pv.Missing, pv.Next = []string{}, ""
	}
	return pv
}
