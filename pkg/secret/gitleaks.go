package secret

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/BurntSushi/toml"
	gitleaks "github.com/zricethezav/gitleaks/v8/config"
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

// ruleSet is the compiled rule set. Each rule's regexp is compiled the first
// time one of its keywords occurs in a text: compiling all 200-odd patterns
// takes ~100 ms, more than most tool runs spend on redaction.
type ruleSet struct {
	rules  []*rule
	global []*allow
	trie   *ahocorasick.Trie
	// byKeyword maps a lowercase keyword to the rules it enables.
	byKeyword map[string][]int
}

type rule struct {
	src   gitleaksRule
	once  sync.Once
	re    *regexp.Regexp
	allow []*allow
}

type allow struct {
	and       bool
	target    string // secret, match or line
	regexes   []*regexp.Regexp
	stopWords []string
	// other says the allowlist also needs a path or commit, which redaction
	// never has: under "AND" such a list never applies.
	other bool
}

var (
	loadOnce sync.Once
	loaded   *ruleSet
)

// defaultRules parses gitleaks' default configuration once. It cannot fail
// at run time: TestDefaultRulesLoad guards the embedded file.
func defaultRules() *ruleSet {
	loadOnce.Do(func() {
		rs, err := parseRules(gitleaks.DefaultConfig)
		if err != nil {
			panic("secret: gitleaks default config: " + err.Error())
		}
		loaded = rs
	})
	return loaded
}

func parseRules(src string) (*ruleSet, error) {
	var f gitleaksFile
	if _, err := toml.Decode(src, &f); err != nil {
		return nil, err
	}
	rs := &ruleSet{byKeyword: map[string][]int{}}
	var err error
	if rs.global, err = compileAllows([]gitleaksAllow{f.Allowlist}); err != nil {
		return nil, err
	}
	var kws []string
	sort.SliceStable(f.Rules, func(i, j int) bool { return !isGeneric(f.Rules[i].ID) && isGeneric(f.Rules[j].ID) })
	for _, gr := range f.Rules {
		// Rules bound to file paths (and path-only rules) need a file name the
		// redactor is not given; rules without keywords would run on every
		// text; the default set has neither kind beyond five path rules.
		if gr.Regex == "" || gr.Path != "" || gr.SkipReport || len(gr.Keywords) == 0 {
			continue
		}
		r := &rule{src: gr}
		if r.allow, err = compileAllows(gr.Allowlists); err != nil {
			return nil, err
		}
		for _, k := range gr.Keywords {
			k = strings.ToLower(k)
			if _, ok := rs.byKeyword[k]; !ok {
				kws = append(kws, k)
			}
			rs.byKeyword[k] = append(rs.byKeyword[k], len(rs.rules))
		}
		rs.rules = append(rs.rules, r)
	}
	rs.trie = ahocorasick.NewTrieBuilder().AddStrings(kws).Build()
	return rs, nil
}

// isGeneric says a rule names no format (generic-api-key): where a
// specific rule finds the same secret, the specific name is kept.
func isGeneric(id string) bool { return strings.HasPrefix(id, "generic") }

func compileAllows(as []gitleaksAllow) ([]*allow, error) {
	var out []*allow
	for _, a := range as {
		c := &allow{and: strings.EqualFold(a.Condition, "AND"), target: a.RegexTarget, stopWords: a.StopWords,
			other: len(a.Paths) > 0 || len(a.Commits) > 0}
		for _, s := range a.Regexes {
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, err
			}
			c.regexes = append(c.regexes, re)
		}
		if len(c.regexes) > 0 || len(c.stopWords) > 0 {
			out = append(out, c)
		}
	}
	return out, nil
}

// find runs the rules whose keywords occur in lower (text lowercased) the
// way gitleaks' detector does: the secret is the rule's secret group (else
// the first non-empty group, else the match), kept only above the rule's
// entropy and outside every allowlist.
func (rs *ruleSet) find(text, lower string) []Finding {
	hits := map[int][]int{} // rule → keyword offsets
	for _, m := range rs.trie.MatchString(lower) {
		for _, i := range rs.byKeyword[m.MatchString()] {
			hits[i] = append(hits[i], int(m.Pos()))
		}
	}
	var out []Finding
	for i := range rs.rules {
		if h := hits[i]; len(h) > 0 {
			for _, w := range windowsAt(text, h, 1) {
				out = append(out, rs.rules[i].find(text, w, rs.global)...)
			}
		}
	}
	return out
}

// find runs the rule on the window w of text; offsets are text's.
func (r *rule) find(text string, w span, global []*allow) []Finding {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src.Regex) })
	var out []Finding
	for _, m := range r.re.FindAllStringSubmatchIndex(text[w.lo:w.hi], -1) {
		for k := range m {
			if m[k] >= 0 {
				m[k] += w.lo
			}
		}
		lo, hi := secretSpan(m, r.src.SecretGroup)
		// gitleaks trims newlines off the match before reading the secret
		for lo < hi && text[lo] == '\n' {
			lo++
		}
		for hi > lo && text[hi-1] == '\n' {
			hi--
		}
		secret := text[lo:hi]
		if secret == "" || strings.Contains(secret, markPrefix) || strings.Contains(secret, "REDACTED") {
			continue
		}
		if r.src.Entropy != 0 && shannon(secret) <= r.src.Entropy {
			continue
		}
		match, line := text[m[0]:m[1]], lineAround(text, m[0], m[1])
		if allowed(global, secret, match, line) || allowed(r.allow, secret, match, line) {
			continue
		}
		out = append(out, Finding{Rule: r.src.ID, Start: lo, End: hi})
	}
	return out
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
		stop := containsStopWord(secret, a.stopWords)
		if a.and {
			if a.other || (len(a.regexes) > 0 && !re) || (len(a.stopWords) > 0 && !stop) {
				continue
			}
			return true
		}
		if re || stop {
			return true
		}
	}
	return false
}

func containsStopWord(s string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	s = strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(s, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// lineAround returns the whole lines holding text[lo:hi].
func lineAround(text string, lo, hi int) string {
	s := strings.LastIndexByte(text[:lo], '\n') + 1
	e := strings.IndexByte(text[hi:], '\n')
	if e < 0 {
		return text[s:]
	}
	return text[s : hi+e]
}

// shannon is gitleaks' entropy: bits per character over the runes of s,
// divided by its byte length.
func shannon(s string) float64 {
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	inv := 1.0 / float64(len(s))
	h := 0.0
	for _, n := range counts {
		p := float64(n) * inv
		h -= p * math.Log2(p)
	}
	return h
}
