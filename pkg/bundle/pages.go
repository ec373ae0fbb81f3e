package bundle

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/wiki"
)

// Role groups of SPEC §10: which standards each specialist reads.
var roleStandards = map[string][]string{
	"engineering": {"coding-standards"},
	"writing":     {"writing-voice", "branding"},
	"social":      {"writing-voice", "branding", "seo-rules"},
	"commercial":  {"branding", "pricing-policy"},
}

var roleGroups = map[string]string{
	"architect": "engineering", "backend": "engineering", "frontend": "engineering",
	"qa": "engineering", "devops": "engineering", "data": "engineering",
	"copywriter": "writing", "tech-writer": "writing",
	"seo": "social", "social": "social",
	"marketing": "commercial", "sales": "commercial",
}

// RoleGroup returns the role group of a specialist, "" when it is in none.
func RoleGroup(specialist string) string { return roleGroups[strings.ToLower(specialist)] }

// protected is a page (or chunk) as it may enter a bundle.
type protected struct {
	// path is the source path.
	path string
	// prov is what the tier was decided from (kept for the page's extract).
	prov protect.Provenance
	// tier is operator, trusted or untrusted.
	tier protect.Tier
	// text is the rendered text: escaped operator text, a wrapped block, or a
	// quarantine marker.
	text string
	// quarantined reports withheld text.
	quarantined bool
	// event is the security event of a quarantined page (run id unset).
	event *protect.SecurityEvent
}

func (p protected) wrapped() bool { return p.tier != protect.TierOperator && !p.quarantined }

// provenance is what protect.Classify may know of a page: its path and
// frontmatter, never its text. Reviewed is decided as guild-recall decides it,
// so a page gets the same tier whether it is recalled or included whole.
func provenance(p *wiki.Page) protect.Provenance {
	f := p.Front
	owner := strings.ToLower(strings.TrimSpace(f.Owner))
	synthesized := f.Synthesized || owner == "synthesized"
	return protect.Provenance{
		Path:        p.Path,
		Category:    p.Category,
		Owner:       f.Owner,
		Synthesized: f.Synthesized,
		Confidence:  f.Confidence,
		SourceRefs:  len(f.SourceRefs),
		Reviewed:    (f.Reviewed || owner == "reviewed") && !synthesized,
		Harvested:   f.Harvested,
	}
}

// protectText runs text through protect.ProtectChunk, the pipeline every
// recalled chunk gets too: probe, quarantine or classify and wrap. claims are
// frontmatter keys that claim a trust tier: like guild-recall, the bundle
// quarantines such a page (the claim never changes the tier).
func protectText(source, text string, prov protect.Provenance, claims []string) protected {
	text = strings.Trim(text, "\n")
	r := protect.ProtectChunk(source, text, prov)
	if len(claims) > 0 {
		r.Findings = append(r.Findings, protect.Finding{Pattern: "trust_claim", Excerpt: "frontmatter " + strings.Join(claims, ", "), Count: len(claims)})
		r.Quarantined, r.Wrapped = true, false
		r.Rendered = protect.Quarantined(source, r.Findings)
	}
	p := protected{path: source, prov: prov, tier: r.Tier, text: r.Rendered, quarantined: r.Quarantined}
	if r.Quarantined {
		ev := protect.QuarantineEvent("guild-bundle", "", source, text, r)
		p.event = &ev
	}
	return p
}

func protectPage(p *wiki.Page) protected {
	return protectText(p.Path, p.Body, provenance(p), p.Front.TrustClaims)
}

// expired reports a page whose expires_at lies before now.
func expired(p *wiki.Page, now time.Time) bool {
	s := strings.TrimSpace(p.Front.ExpiresAt)
	if s == "" {
		return false
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Before(now)
		}
	}
	return false
}

// stopwords are dropped from relevance queries so that "the" and "and" never
// make a page "match" a task.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have in into is it its
		of on or that the this to was were will with we our you your not no all any can should must
		may do does done use using via per each when then than so if but also new add make ensure`) {
		stopwords[w] = true
	}
}

func queryTerms(s string) []string {
	var out []string
	for _, t := range bm25.Tokenize(s) {
		if len(t) > 1 && !stopwords[t] {
			out = append(out, t)
		}
	}
	return out
}

// scored is a page with its relevance to a query.
type scored struct {
	page  *wiki.Page
	score float64
}

// rank orders pages by BM25 relevance to query (title and body), keeping pages
// that share at least minTerms distinct non-stopword terms with it; ties go to
// the path order. It is a relevance choice between pages the bundle includes
// whole, not a recall: recalled text comes only from the recall path.
func rank(pages []*wiki.Page, query string, minTerms int) []scored {
	q := bm25.Unique(queryTerms(query))
	if len(q) == 0 || len(pages) == 0 {
		return nil
	}
	ix := bm25.New(bm25.Recall)
	terms := make([]map[string]bool, len(pages))
	for i, p := range pages {
		toks := queryTerms(p.Title + "\n" + p.Body)
		ix.Add(toks)
		terms[i] = map[string]bool{}
		for _, t := range toks {
			terms[i][t] = true
		}
	}
	var out []scored
	for _, r := range ix.Search(q, len(pages)) {
		n := 0
		for _, t := range q {
			if terms[r.Doc][t] {
				n++
			}
		}
		if n >= minTerms {
			out = append(out, scored{page: pages[r.Doc], score: r.Score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].page.Path < out[j].page.Path
	})
	return out
}

var sentenceEnd = regexp.MustCompile(`[.!?](\s|$)`)

// extract is the first n sentences of a page body's prose (headings, fences
// and list markers skipped), used when a named ref is cut to a summary.
func extract(body string, n int) string {
	var prose []string
	inFence := false
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") {
			continue
		}
		t = strings.TrimLeft(t, "-*+> ")
		prose = append(prose, t)
	}
	text := strings.Join(prose, " ")
	end := 0
	for i := 0; i < n; i++ {
		loc := sentenceEnd.FindStringIndex(text[end:])
		if loc == nil {
			end = len(text)
			break
		}
		end += loc[0] + 1
	}
	return strings.TrimSpace(text[:end])
}

// oneLine flattens text from the tree (paths, reasons) to one line and escapes
// any spelling of the recall delimiter in it.
func oneLine(s string) string {
	return strings.Join(strings.Fields(protect.Wrap(s, protect.TierOperator)), " ")
}

// onePath is oneLine for a path in the record spelling (pkg/pathenc), or a
// command quoting one: its escapes are decoded first, so the escaping
// writes each once (a name spelling the recall tag reads guild¤-:recall,
// not guild¤¤-:recall).
func onePath(p string) string { return oneLine(pathenc.Decode(p)) }

// isUnder reports p below dir (both slash paths).
func isUnder(p, dir string) bool {
	return strings.HasPrefix(path.Clean(p), dir+"/")
}
