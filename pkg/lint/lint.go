// Package lint is guild-lint's judge: a deterministic budget and integrity check
// of a context bundle's markdown. It never looks at the project, only at the
// bundle text, so the same bundle always gets the same verdict.
//
// Tokens are tokens.Estimate (ceil(code points / 4)) over the whole file. A graph
// section is a heading matching /knowledge.?graph/i and everything up to the next
// heading of the same or higher level; headings inside fenced code or inside a
// wrapped recall block are content, not structure. The bundle FAILs when it is
// over the hard cap, or when its graph sections are over the graph sub-cap and no
// dropped_for_budget: line records a cut. A frontmatter token_estimate that
// disagrees with the count is a reason, not a failure.
//
// Strict mode adds the integrity rules: no raw (unwrapped, non-operator) text in
// a recall section, the integrity notice before the first wrapped chunk,
// balanced, well-formed delimiters, and the ambient-context instruction in the
// Task-dependent layer. Run checks that every bundle of one run has a
// byte-identical Universal section, and that bundles of one specialist have a
// byte-identical Role-dependent section.
package lint

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/tokens"
	"github.com/rtch/rtch/pkg/wiki"
)

// Budget limits of SPEC §10.
const (
	HardCap  = 6000
	GraphCap = 1200
)

// Layer headings a bundle is built from; Run and Strict find the layers by them.
const (
	UniversalHeading = "## Universal"
	RoleHeading      = "## Role-dependent"
	TaskHeading      = "## Task-dependent"
	// RecallHeading opens the Task layer's recall section.
	RecallHeading = "### Recall"
)

// AmbientPhrase names the ambient-context instruction: strict mode fails a
// bundle whose Task-dependent layer has no line with it (outside fenced code
// and wrapped recall blocks, so recalled text cannot stand in for it).
const AmbientPhrase = "ambient context"

// ChunkHeaderPrefix starts the line a bundle puts before every recalled chunk:
// "recall: <source_path> · trust_tier: <tier> · score: <s>".
const ChunkHeaderPrefix = "recall: "

// Verdict is one bundle's result; its JSON keys and their order are guild-lint's
// output contract.
type Verdict struct {
	// Bundle is the bundle's path as given.
	Bundle string `json:"bundle"`
	// Pass is false when any FAIL rule fired.
	Pass bool `json:"pass"`
	// EstTokens is ceil(code points / 4) of the whole file.
	EstTokens int `json:"est_tokens"`
	// GraphEstTokens is the estimate of the graph sections together.
	GraphEstTokens int `json:"graph_est_tokens"`
	// HasDroppedForBudget reports a non-empty dropped_for_budget: line (or a
	// non-empty frontmatter dropped_for_budget list).
	HasDroppedForBudget bool `json:"has_dropped_for_budget"`
	// FrontmatterTokenEstimate is the frontmatter's token_estimate, null when absent.
	FrontmatterTokenEstimate *int `json:"frontmatter_token_estimate"`
	// Reasons explain every failure and every disagreement; never null.
	Reasons []string `json:"reasons"`
}

// Options select the rules.
type Options struct {
	// Strict adds the integrity rules.
	Strict bool
}

var (
	graphRE   = regexp.MustCompile(`(?i)knowledge.?graph`)
	droppedRE = regexp.MustCompile(`^\s*(?:[-*+]\s+)?dropped_for_budget:\s*(.*?)\s*$`)
	// dropLineRE finds a drop record anywhere in a line, as the original
	// linter does (it looks for the key in every line).
	dropLineRE = regexp.MustCompile(`dropped_for_budget:\s*(.*?)\s*$`)
	// frontEstimateRE reads token_estimate from a frontmatter that is not
	// YAML, as the original's lenient scan does.
	frontEstimateRE = regexp.MustCompile(`(?m)^\s*token_estimate:\s*([0-9]+)\s*$`)
	openRE          = regexp.MustCompile(`^<guild:recall trust_tier="([^"]*)">$`)
	fenceRE         = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
)

// line is one line of the bundle with what the structure scan learned of it.
type line struct {
	text    string
	heading int  // ATX level, 0 when not a structural heading
	wrapped bool // inside a canonical wrapped recall block, delimiters included
	fenced  bool // inside fenced code, fences included
}

// scan splits text into lines and marks structure: fenced code and canonical
// wrapped blocks hide the headings inside them.
func scan(text string) []line {
	raw := strings.Split(text, "\n")
	out := make([]line, len(raw))
	var fence string
	inWrap := false
	for i, l := range raw {
		out[i].text = l
		switch {
		case inWrap:
			out[i].wrapped = true
			if l == "</guild:recall>" {
				inWrap = false
			}
			continue
		case fence != "":
			out[i].fenced = true
			if m := fenceRE.FindStringSubmatch(l); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.Trim(strings.TrimSpace(l), m[1][:1]) == "" {
				fence = ""
			}
			continue
		}
		if openRE.MatchString(l) {
			out[i].wrapped, inWrap = true, true
			continue
		}
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			out[i].fenced, fence = true, m[1]
			continue
		}
		out[i].heading = headingLevel(l)
	}
	return out
}

func headingLevel(l string) int {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(l) && l[n] != ' ' && l[n] != '\t') {
		return 0
	}
	return n
}

// sections returns [start, end) line ranges for the headings that match keep,
// each running to the next heading of the same or higher level.
func sections(ls []line, keep func(i int) bool) [][2]int {
	var out [][2]int
	for i, l := range ls {
		if l.heading == 0 || !keep(i) {
			continue
		}
		end := len(ls)
		for j := i + 1; j < len(ls); j++ {
			if ls[j].heading > 0 && ls[j].heading <= l.heading {
				end = j
				break
			}
		}
		out = append(out, [2]int{i, end})
	}
	return out
}

// GraphTokens is the estimate of the graph sections of text, as the original
// Guild linter counts them: each section's body (the lines after its heading,
// joined by newlines) estimated on its own and the estimates summed; a graph
// section nested in another is part of the outer one's body. The bundle
// builder uses it to measure the graph exactly as the linter will.
func GraphTokens(text string) int {
	ls := scan(text)
	return graphTokens(ls)
}

func graphTokens(ls []line) int {
	total, covered := 0, 0
	for _, s := range sections(ls, func(i int) bool { return graphRE.MatchString(ls[i].text) }) {
		if s[0] < covered {
			continue // inside the body of the section before
		}
		total += tokens.Estimate(joinLines(ls[s[0]+1 : s[1]]))
		covered = s[1]
	}
	return total
}

// Check lints one bundle. name is reported as the verdict's bundle.
func Check(name, text string, opt Options) Verdict {
	v := Verdict{Bundle: name, Pass: true, Reasons: []string{}, EstTokens: tokens.Estimate(text)}
	failf := func(format string, args ...any) {
		v.Pass = false
		v.Reasons = append(v.Reasons, fmt.Sprintf(format, args...))
	}
	notef := func(format string, args ...any) {
		v.Reasons = append(v.Reasons, fmt.Sprintf(format, args...))
	}
	ls := scan(text)
	v.GraphEstTokens = graphTokens(ls)

	front, _, _, ok, unterminated := wiki.SplitFrontmatter(wiki.NormalizeText([]byte(text)))
	switch {
	case unterminated:
		notef("frontmatter opened with --- but never closed (not a failure)")
	case ok:
		var fm map[string]any
		if err := yaml.Unmarshal([]byte(front), &fm); err != nil {
			notef("frontmatter is not valid YAML: %v (not a failure)", err)
			if m := frontEstimateRE.FindStringSubmatch(front); m != nil {
				if n, err := strconv.Atoi(m[1]); err == nil {
					v.FrontmatterTokenEstimate = &n
				}
			}
			break
		}
		switch te := fm["token_estimate"].(type) {
		case int:
			v.FrontmatterTokenEstimate = &te
		case nil:
		default:
			notef("frontmatter token_estimate %v is not an integer (not a failure)", te)
		}
		if d, isList := fm["dropped_for_budget"].([]any); isList && len(d) > 0 {
			v.HasDroppedForBudget = true
		}
	}
	for _, l := range ls {
		if l.wrapped || l.fenced {
			continue
		}
		if m := dropLineRE.FindStringSubmatch(l.text); m != nil && m[1] != "" && m[1] != "[]" {
			v.HasDroppedForBudget = true
		}
	}

	if v.EstTokens > HardCap {
		failf("est_tokens %d exceeds the %d-token hard cap", v.EstTokens, HardCap)
	}
	if v.GraphEstTokens > GraphCap && !v.HasDroppedForBudget {
		failf("knowledge graph sections hold %d tokens, over the %d-token sub-cap, and no dropped_for_budget: line records a cut", v.GraphEstTokens, GraphCap)
	}
	if fe := v.FrontmatterTokenEstimate; fe == nil {
		if ok {
			notef("frontmatter has no token_estimate (not a failure)")
		}
	} else if *fe != v.EstTokens {
		notef("frontmatter token_estimate %d disagrees with est_tokens %d (not a failure)", *fe, v.EstTokens)
	}
	if opt.Strict {
		for _, r := range strictReasons(text, ls) {
			failf("%s", r)
		}
	}
	return v
}

// strictReasons applies the integrity rules.
func strictReasons(text string, ls []line) []string {
	var out []string
	open, closing := protect.CountDelimiters(text)
	if open != closing {
		out = append(out, fmt.Sprintf("unbalanced recall delimiters: %d opening, %d closing", open, closing))
	}
	// Canonical blocks: each opening on its own line, a valid tier, closed before
	// the next opening, and its text exactly as the wrapper escapes it.
	canonical := 0
	for i := 0; i < len(ls); i++ {
		m := openRE.FindStringSubmatch(ls[i].text)
		if m == nil || ls[i].fenced {
			continue
		}
		canonical++
		j := i + 1
		for j < len(ls) && ls[j].text != "</guild:recall>" {
			j++
		}
		if j == len(ls) {
			out = append(out, fmt.Sprintf("line %d: recall block is never closed", i+1))
			break
		}
		block := strings.Join(func() []string {
			var s []string
			for _, l := range ls[i : j+1] {
				s = append(s, l.text)
			}
			return s
		}(), "\n")
		if _, _, err := protect.Unwrap(block); err != nil {
			out = append(out, fmt.Sprintf("line %d: %v", i+1, err))
		}
		i = j
	}
	if open > 0 {
		first := strings.Index(text, "<guild:recall ")
		notice := strings.Index(text, protect.IntegrityNotice)
		switch {
		case notice < 0:
			out = append(out, fmt.Sprintf("%d wrapped recall chunk(s) but no integrity notice", open))
		case first >= 0 && notice > first:
			out = append(out, fmt.Sprintf("line %d: the integrity notice comes after the first wrapped chunk", 1+strings.Count(text[:first], "\n")))
		}
		if canonical != open {
			out = append(out, fmt.Sprintf("%d recall delimiter(s) in a non-canonical spelling", open-canonical))
		}
	}
	out = append(out, rawRecall(ls)...)
	if r := ambientReason(ls); r != "" {
		out = append(out, r)
	}
	return out
}

// ambientReason checks that the Task-dependent layer carries the
// ambient-context instruction; "" when it does.
func ambientReason(ls []line) string {
	start := -1
	for i, l := range ls {
		if l.heading == 2 && strings.TrimRight(l.text, " \t") == TaskHeading {
			start = i
			break
		}
	}
	if start < 0 {
		return "no " + TaskHeading + " layer, so no ambient-context instruction (a line saying \"" + AmbientPhrase + "\")"
	}
	for _, l := range ls[start+1:] {
		if l.heading == 2 && (strings.TrimRight(l.text, " \t") == UniversalHeading || strings.TrimRight(l.text, " \t") == RoleHeading) {
			break
		}
		if !l.wrapped && !l.fenced && strings.Contains(strings.ToLower(l.text), AmbientPhrase) {
			return ""
		}
	}
	return "the " + TaskHeading + " layer has no ambient-context instruction (a line saying \"" + AmbientPhrase + "\", outside fences and recall blocks)"
}

// rawRecall finds text in recall and graph sections that is neither a chunk
// header, a wrapped block, a quarantine marker, the integrity notice, nor the
// text of a chunk whose header gives an operator path and tier.
func rawRecall(ls []line) []string {
	var out []string
	recallish := func(i int) bool {
		t := ls[i].text
		return strings.HasPrefix(t, RecallHeading) || graphRE.MatchString(t)
	}
	seen := map[int]bool{}
	for _, s := range sections(ls, recallish) {
		tier := "" // tier of the current chunk header; "" before the first
		for i := s[0] + 1; i < s[1]; i++ {
			if seen[i] {
				continue
			}
			seen[i] = true
			l := ls[i]
			t := strings.TrimSpace(l.text)
			switch {
			case l.wrapped || t == "" || t == protect.IntegrityNotice || strings.HasPrefix(t, "[QUARANTINED: "):
				continue
			case l.heading > 0:
				tier = ""
				continue
			case droppedRE.MatchString(t):
				continue
			case strings.HasPrefix(t, ChunkHeaderPrefix):
				src, tr := parseChunkHeader(t)
				tier = tr
				if tr == string(protect.TierOperator) && !operatorPath(src) {
					out = append(out, fmt.Sprintf("line %d: recall chunk from %s claims the operator tier, which only principles, project overview, goals and standards hold", i+1, src))
					tier = "bad"
				}
				continue
			}
			if tier != string(protect.TierOperator) && tier != "bad" {
				out = append(out, fmt.Sprintf("line %d: raw recall text outside any wrapper: %q", i+1, clip(t)))
				tier = "bad" // one reason per chunk is enough
			}
		}
	}
	return out
}

// ChunkHeader renders the line placed before a recalled chunk.
func ChunkHeader(source, tier string, score float64) string {
	return ChunkHeaderPrefix + source + " · trust_tier: " + tier + " · score: " + strconv.FormatFloat(score, 'f', 3, 64)
}

func parseChunkHeader(t string) (source, tier string) {
	parts := strings.Split(strings.TrimPrefix(t, ChunkHeaderPrefix), " · ")
	source = parts[0]
	for _, p := range parts[1:] {
		if v, ok := strings.CutPrefix(p, "trust_tier: "); ok {
			tier = v
		}
	}
	return source, tier
}

// operatorPath reports the paths Classify may give the operator tier, also
// below a workspace sub-guild's directory (recall prefixes those chunks' paths
// with the sub-guild root).
func operatorPath(p string) bool {
	for {
		switch {
		case p == ".guild/principles.md", p == "wiki/context/project-overview.md", p == "wiki/context/goals.md":
			return true
		case path.Dir(p) == "wiki/standards" && strings.HasSuffix(p, ".md"):
			return true
		}
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[i+1:]
	}
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
