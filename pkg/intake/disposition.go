package intake

import (
	"regexp"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/schema"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// dispositionVerbs maps the words of a decision to its kind.
var dispositionVerbs = map[string]string{
	"keep": "keep", "retain": "keep",
	"merge": "merge", "fold": "merge", "consolidate": "merge", "combine": "merge",
	"sunset": "sunset", "retire": "sunset", "decommission": "sunset",
	"deprecate":  "deprecate",
	"reposition": "reposition",
	"delete":     "delete", "remove": "delete", "drop": "delete", "kill": "delete",
}

const verbAlt = `keep|retain|merge|fold|consolidate|combine|sunset|retire|decommission|deprecate|reposition|delete|remove|drop|kill`

var dispositionPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// "should we merge pkg/refs into pkg/graph?", "can we delete the legacy
		// billing client?", "is it safe to remove X?", "do we still need to keep X"
		regexp.MustCompile(`(?i)\b(?:should|shall|can|could|may|must) (?:we|i|you|they) (?:still |safely |just |now )?(?:` + verbAlt + `)\b`),
		regexp.MustCompile(`(?i)\b(?:is it (?:safe|ok|okay|time) to|do we (?:still )?need to|time to|whether to|decide (?:whether|if) (?:to|we should)) (?:` + verbAlt + `)\b`),
	}
})

var (
	verbAt     = lazyre.New(`(?i)\b(` + verbAlt + `)\b\s+(.+)`)
	buildNext  = lazyre.New(`(?i)\b(?:what|which \w+) (?:should|shall|do) (?:we|i) build next\b|\bbuild next\?`)
	targetSep  = lazyre.New(`(?i)\s+(?:into|with|in favou?r of|and replace it with|for)\s+`)
	artifactRe = lazyre.New(`^(?:the|our|this|that|a|an)\s+`)
)

// ParseDisposition recognises a goal that asks for a decision about an
// artifact. Only a question or a deliberation counts ("should we merge X
// into Y", "can we delete X", "is it safe to remove X"): an order to act
// ("remove the flag from Run") is a code change, not a disposition.
func ParseDisposition(goal string) *schema.Disposition {
	first := strings.TrimSpace(goal)
	if i := strings.IndexAny(first, "\n"); i >= 0 {
		first = first[:i]
	}
	if m := buildNext().FindString(first); m != "" {
		return &schema.Disposition{Decision: "build_next", Phrase: m}
	}
	for _, re := range dispositionPatterns() {
		loc := re.FindStringIndex(first)
		if loc == nil {
			continue
		}
		m := verbAt().FindStringSubmatch(first[loc[0]:])
		if m == nil {
			continue
		}
		rest := strings.TrimRight(cutClause(m[2]), "?.! ")
		art, target := rest, ""
		if parts := targetSep().Split(rest, 2); len(parts) == 2 {
			art, target = parts[0], strings.TrimSpace(parts[1])
		}
		art = strings.Trim(artifactRe().ReplaceAllString(strings.TrimSpace(art), ""), "`'\"")
		target = strings.Trim(artifactRe().ReplaceAllString(target, ""), "`'\"")
		if art == "" {
			continue
		}
		return &schema.Disposition{Decision: dispositionVerbs[strings.ToLower(m[1])], Artifact: art, Target: target,
			Phrase: strings.TrimSpace(first[loc[0]:])}
	}
	return nil
}

// cutClause ends the artifact at the first clause boundary.
func cutClause(s string) string {
	for _, sep := range []string{"?", ",", ";", " because ", " since ", " or ", " now that ", " given ", " if ", " when "} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	return s
}
