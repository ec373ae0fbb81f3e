package secret

import (
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
)

// gitleaksFile is the part of gitleaks' default configuration (its
// config/gitleaks.toml, embedded in the config package) that applies to text
// without a path or a commit.
type gitleaksFile struct {
	Allowlist gitleaksAllow  `toml:"allowlist"`
	Rules     []gitleaksRule `toml:"rules"`
}

type gitleaksRule struct {
	ID          string          `toml:"id"`
	Regex       string          `toml:"regex"`
	SecretGroup int             `toml:"secretGroup"`
	Entropy     float64         `toml:"entropy"`
	Keywords    []string        `toml:"keywords"`
	Path        string          `toml:"path"`
	SkipReport  bool            `toml:"skipReport"`
	Allowlists  []gitleaksAllow `toml:"allowlists"`
}

type gitleaksAllow struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

// ruleSet is the rule set, compiled as it is used. Each rule's regexp and
// allowlists are compiled the first time one of its keywords occurs in a
// text, the global allowlist the first time any rule matches: compiling all
// 200-odd patterns takes ~250 ms, and every tool run pays what is done at
// start-up (six stages in a lane), so the start-up work is building the
// keyword trie from a Go table (rules_gitleaks.go), not decoding TOML.
type ruleSet struct {
	rules  []*rule
	global func() []*allow
	// trie holds every literal that enables a rule: gitleaks' keywords and
	// the extra rules' literals, so one pass over a text finds them all.
	trie *matcher
	// enables[p] are the rules pattern p of the trie enables.
	enables [][]ruleRef
}

// ruleRef names a gitleaks rule (rules[i]) or an extra rule
// (extraRules[i]).
type ruleRef struct {
	extra bool
	i     int
}

type rule struct {
	src gitleaksRule
	// gate, when set, drops keyword hits that cannot start a match (gates.go)
	gate func(text string, at, n int) bool
	once sync.Once
	re   *regexp.Regexp
	// pre asks re without what opens it whether a window can hold a
	// match (prefilter.go).
	pre   *lazyPrefilter
	allow []*allow
	// whole says the secret is the whole match: the pattern's groups
	// label or repeat parts of it (labelGroups); set by compile
	whole bool
}

// compile compiles the rule's regexp and allowlists once, and reads its
// groups (labelGroups parses the pattern: every process that writes a
// record builds the rule set, and most run few rules or none, so nothing
// is parsed before a rule runs). The patterns are gitleaks' own
// (TestGitleaksTable compiles every one), so an error here is a broken
// module, not bad input.
func (r *rule) compile() {
	r.once.Do(func() {
		r.re = regexp.MustCompile(r.src.Regex)
		r.allow = mustAllows(r.src.Allowlists)
		r.whole = r.src.SecretGroup == 0 && labelGroups(r.src.Regex)
	})
}

type allow struct {
	and     bool
	target  string // secret, match or line
	regexes []*regexp.Regexp
	// stops finds the stop words (ASCII case folded, as every gitleaks
	// stop word is ASCII: TestStopWordsASCII)
	stops *matcher
	// other says the allowlist also needs a path or commit, which redaction
	// never has: under "AND" such a list never applies.
	other bool
}

var (
	loadOnce sync.Once
	loaded   *ruleSet
)

// defaultRules builds gitleaks' default rules (the table generated from
// its config package) once.
func defaultRules() *ruleSet {
	loadOnce.Do(func() { loaded = buildRules(gitleaksTable) })
	return loaded
}

func buildRules(f gitleaksFile) *ruleSet {
	rs := &ruleSet{}
	rs.global = sync.OnceValue(func() []*allow { return mustAllows([]gitleaksAllow{f.Allowlist}) })
	var kws []string
	pattern := map[string]int{}
	enable := func(k string, ref ruleRef) {
		p, ok := pattern[k]
		if !ok {
			p = len(kws)
			pattern[k] = p
			kws = append(kws, k)
			rs.enables = append(rs.enables, nil)
		}
		rs.enables[p] = append(rs.enables[p], ref)
	}
	rules := slices.Clone(f.Rules)
	sort.SliceStable(rules, func(i, j int) bool { return !isGeneric(rules[i].ID) && isGeneric(rules[j].ID) })
	for _, gr := range rules {
		// Rules bound to file paths (and path-only rules) need a file name the
		// redactor is not given; rules without keywords would run on every
		// text; the default set has neither kind beyond five path rules.
		if gr.Regex == "" || gr.Path != "" || gr.SkipReport || len(gr.Keywords) == 0 {
			continue
		}
		gr.Regex = closeTokens(gr.ID, gr.Regex)
		r := &rule{src: gr, gate: hitGates[gr.ID]}
		r.pre = newLazyPrefilter(func() string { return r.src.Regex })
		for _, k := range gr.Keywords {
			enable(strings.ToLower(k), ruleRef{i: len(rs.rules)})
		}
		rs.rules = append(rs.rules, r)
	}
	for i, r := range extraRules {
		for _, k := range r.need {
			enable(k, ruleRef{extra: true, i: i})
		}
	}
	rs.trie = newMatcher(kws)
	return rs
}

// keywordHits returns the offsets of the enabling literals in text (ASCII
// case folded), per gitleaks rule and per extra rule, in one pass; a rule
// with a gate keeps only the hits its gate passes. Both are nil when
// nothing was hit, as for most strings of a record.
func (rs *ruleSet) keywordHits(text string) (gl, ex [][]int) {
	rs.trie.each(text, func(at, n, p int) {
		for _, ref := range rs.enables[p] {
			if ref.extra {
				if r := &extraRules[ref.i]; gatesOff || (!r.assign || assignedAt(text, at)) && (r.gate == nil || r.gate(text, at)) {
					if ex == nil {
						ex = make([][]int, len(extraRules))
					}
					ex[ref.i] = append(ex[ref.i], at)
				}
				continue
			}
			if g := rs.rules[ref.i].gate; gatesOff || g == nil || g(text, at, n) {
				if gl == nil {
					gl = make([][]int, len(rs.rules))
				}
				gl[ref.i] = append(gl[ref.i], at)
			}
		}
	})
	return gl, ex
}

func mustAllows(as []gitleaksAllow) []*allow {
	out, err := compileAllows(as)
	if err != nil {
		panic("secret: gitleaks allowlist: " + err.Error())
	}
	return out
}

// isGeneric says a rule names no format (generic-api-key): where a
// specific rule finds the same secret, the specific name is kept.
func isGeneric(id string) bool { return strings.HasPrefix(id, "generic") }

// vagueness orders the names of one secret found by several rules: a
// format's name (0) before secret-assignment's (1), which names the key
// it was assigned to, before the generic rule's (2).
func vagueness(id string) int {
	switch {
	case isGeneric(id):
		return 2
	case id == "secret-assignment":
		return 1
	}
	return 0
}

func compileAllows(as []gitleaksAllow) ([]*allow, error) {
	var out []*allow
	for _, a := range as {
		c := &allow{and: strings.EqualFold(a.Condition, "AND"), target: a.RegexTarget,
			other: len(a.Paths) > 0 || len(a.Commits) > 0}
		if len(a.StopWords) > 0 {
			words := make([]string, len(a.StopWords))
			for i, w := range a.StopWords {
				words[i] = strings.ToLower(w)
			}
			c.stops = newMatcher(words)
		}
		for _, s := range a.Regexes {
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, err
			}
			c.regexes = append(c.regexes, re)
		}
		if len(c.regexes) > 0 || c.stops != nil {
			out = append(out, c)
		}
	}
	return out, nil
}

// find runs the gitleaks rules on the windows around their keyword hits
// the way gitleaks' detector does: the secret is the rule's secret group
// (else the first non-empty group, else the match), kept only above the
// rule's entropy and outside every allowlist.
func (rs *ruleSet) find(text string, hits [][]int) []Finding {
	var out []Finding
	for i, h := range hits {
		for _, w := range windowsAt(text, h, 1) {
			out = append(out, w.widen(text, rs.rules[i].find(text, w, rs.global))...)
		}
	}
	return out
}

// find runs the rule on the window w of text; offsets are text's.
func (r *rule) find(text string, w span, global func() []*allow) []Finding {
	r.compile()
	if !r.pre.mayMatch(text[w.lo:w.hi]) {
		return nil
	}
	var out []Finding
	eachMatch(r.re, text, w, func(m []int) int {
		lo, hi := secretSpan(m, r.src.SecretGroup)
		if r.whole {
			lo, hi = m[0], m[1]
		}
		// gitleaks trims newlines off the match before reading the secret
		for lo < hi && text[lo] == '\n' {
			lo++
		}
		for hi > lo && text[hi-1] == '\n' {
			hi--
		}
		secret := text[lo:hi]
		if secret == "" || strings.Contains(secret, markPrefix) || strings.Contains(secret, "REDACTED") {
			return 0
		}
		if r.src.Entropy != 0 && shannon(secret) <= r.src.Entropy {
			return 0
		}
		if v, ok := r.weakValue(secret); ok && closedAsCode(text, hi, v) {
			return lo // the value may hold the next name (eachMatch)
		}
		match, line := text[m[0]:m[1]], lineAround(text, m[0], m[1])
		if allowed(global(), secret, match, line) || allowed(r.allow, secret, match, line) {
			return 0
		}
		out = append(out, Finding{Rule: r.src.ID, Start: lo, End: hi})
		return 0
	})
	return out
}

// labelGroups reports whether the first group of pattern names a part of
// its token or repeats one rather than holding the token: a named group
// (jwt-base64 names the header field it starts with) or a group under a
// repeat (microsoft-teams-webhook's ([a-z0-9]{4}-){3}). gitleaks takes
// the first non-empty group for the secret when a rule names none, which
// for these masked a few bytes and left the rest of the token.
func labelGroups(pattern string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return false
	}
	var walk func(re *syntax.Regexp, repeated bool) (found, label bool)
	walk = func(re *syntax.Regexp, repeated bool) (bool, bool) {
		if re.Op == syntax.OpCapture {
			return true, repeated || re.Name != ""
		}
		switch re.Op {
		case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat, syntax.OpQuest:
			repeated = true
		}
		for _, sub := range re.Sub {
			if found, label := walk(sub, repeated); found {
				return true, label
			}
		}
		return false, false
	}
	_, label := walk(re, false)
	return label
}

// secretSpan picks the secret's byte range from a submatch index.
func secretSpan(m []int, group int) (int, int) {
	if group > 0 && 2*group+1 < len(m) && m[2*group] >= 0 {
		return m[2*group], m[2*group+1]
	}
	if group == 0 {
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
				return m[2*g], m[2*g+1]
			}
		}
	}
	return m[0], m[1]
}

func allowed(as []*allow, secret, match, line string) bool {
	for _, a := range as {
		target := secret
		switch a.target {
		case "match":
			target = match
		case "line":
			target = line
		}
		re := false
		for _, x := range a.regexes {
			if x.MatchString(target) {
				re = true
				break
			}
		}
		if !a.and && re {
			return true
		}
		if a.and && (a.other || len(a.regexes) > 0 && !re) {
			continue
		}
		if a.stops != nil && a.stops.any(secret) || a.and && a.stops == nil {
			return true
		}
	}
	return false
}

// lineAround returns the whole lines holding text[lo:hi], at most
// lineReach bytes of them on each side of it.
func lineAround(text string, lo, hi int) string {
	s := max(lo-lineReach, 0)
	s += strings.LastIndexByte(text[s:lo], '\n') + 1
	e := min(hi+lineReach, len(text))
	if k := strings.IndexByte(text[hi:e], '\n'); k >= 0 {
		e = hi + k
	}
	return text[s:e]
}

// shannon is gitleaks' entropy: bits per character over the runes of s,
// divided by its byte length.
func shannon(s string) float64 {
	inv := 1.0 / float64(len(s))
	h := 0.0
	add := func(n int) {
		if n > 0 {
			p := float64(n) * inv
			h -= p * math.Log2(p)
		}
	}
	var ascii [128]int
	var other map[rune]int // most secrets are ASCII: no map
	for _, c := range s {
		if c < 128 {
			ascii[c]++
			continue
		}
		if other == nil {
			other = map[rune]int{}
		}
		other[c]++
	}
	for _, n := range ascii {
		add(n)
	}
	for _, n := range other {
		add(n)
	}
	return h
}
