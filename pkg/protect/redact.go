package protect

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// redaction is one secret format. group is the submatch replaced (0: the
// whole match); check, when set, must accept the matched secret.
type redaction struct {
	rule  string
	re    *regexp.Regexp
	group int
	check func(secret string) bool
	// need lists literals one of which every match contains, in the text's
	// ASCII-lowercased form: a rule whose literals are all absent is skipped
	// without running its regexp.
	need []string
	// reach > 0 runs the regexp only on windows from reach/2 bytes before to
	// reach bytes after each need literal (merged), not on the whole text.
	reach int
	// starts: the regexp is anchored (^) and tried at each need literal
	// over reach bytes, so a text full of secret words costs the attempts.
	starts bool
}

var redactions = []redaction{
	{need: []string{"private key"}, rule: "private_key", re: regexp.MustCompile(`(?s)-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)`)},
	{need: []string{"akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "aipa"}, rule: "aws_access_key_id", re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b`)},
	{need: []string{"aws"}, rule: "aws_secret_access_key", group: 1, re: regexp.MustCompile(`(?i)aws_?secret(?:_?access)?_?key["']?\s*(?::=|=>|=|:)\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`)},
	{need: []string{"aiza"}, rule: "gcp_api_key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`)},
	{need: []string{"gocspx-"}, rule: "gcp_oauth_client_secret", re: regexp.MustCompile(`\bGOCSPX-[0-9A-Za-z_\-]{28}`)},
	{need: []string{"accountkey="}, rule: "azure_storage_key", group: 1, re: regexp.MustCompile(`(?i)AccountKey=([A-Za-z0-9+/]{86}==)`)},
	{need: []string{"sig="}, rule: "azure_sas_signature", group: 1, re: regexp.MustCompile(`[?&]sig=([A-Za-z0-9%+/=]{40,})`)},
	{need: []string{"q~"}, rule: "azure_client_secret", re: regexp.MustCompile(`\b[a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.\-]{31,34}`)},
	{need: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, rule: "github_token", re: regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b`)},
	{need: []string{"github_pat_"}, rule: "github_token", re: regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{82}\b`)},
	{need: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glcbt-"}, rule: "gitlab_token", re: regexp.MustCompile(`\bgl(?:pat|dt|rt|ptt|ft|cbt)-[A-Za-z0-9_\-]{20,}`)},
	{need: []string{"hooks.slack.com"}, rule: "slack_webhook", re: regexp.MustCompile(`https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}`)},
	{need: []string{"xox"}, rule: "slack_token", re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}`)},
	{need: []string{"_live_", "_test_"}, rule: "stripe_key", re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,}`)},
	{need: []string{"npm_"}, rule: "npm_token", re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`)},
	{need: []string{"eyj"}, rule: "jwt", re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{reach: 512, need: []string{"://"}, rule: "url_credentials", group: 1, check: notPlaceholder, re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s/:@]{1,100}:([^\s/@]{1,200})@`)},
	// name = "…" with a high-entropy quoted value
	{starts: true, reach: 300, need: secretWords, rule: "secret_assignment", group: 1, check: quotedSecret, re: regexp.MustCompile(secretKeyword + `["']?\s*(?::=|=>|=|:)\s*(?:"([^"\s\\]{8,200})"|'([^'\s\\]{8,200})'|` + "`([^`\\s]{8,200})`" + `)`)},
	// name=value unquoted (env files, YAML, shell) with a long high-entropy value
	{starts: true, reach: 300, need: secretWords, rule: "secret_assignment", group: 1, check: bareSecret, re: regexp.MustCompile(secretKeyword + `["']?[ \t]*(?:=|:)[ \t]*([A-Za-z0-9+/=_\-.~]{16,200})(?:[\s;,]|$)`)},
}

// secretWords are the literals (lowercase) every secretName contains.
var secretWords = []string{"password", "passwd", "pwd", "secret", "token", "apikey", "api_key", "accesskey",
	"access_key", "privatekey", "private_key", "authkey", "auth_key", "credential"}

// secretKeyword matches, anchored at a secretWords literal, the secret word
// that ends an identifier (db_password, API_TOKEN, clientSecret, secretKey):
// the word must end the name, so tokenizer, tokenType or passwordPolicy
// never match. Whatever precedes the word in the identifier is free.
const secretKeyword = `(?i)^(?:password|passwd|pwd|secret_?key|secret|token|api_?key|apikey|access_?key|private_?key|auth_?key|credentials?)s?\b`

// Redact replaces secrets in text with "[REDACTED:<rule>]" and returns the
// rules that fired, sorted and distinct. It recognises private key blocks
// (also cut off by a chunk boundary), AWS, GCP and Azure keys, GitHub,
// GitLab, Slack, Stripe and npm tokens, JWTs, passwords in URLs, and quoted or
// long bare high-entropy values assigned to names ending in password, secret,
// token, api_key and the like. Code that merely names these things
// (password := flag.String(…), token.Pos, secretName = "db") is left alone:
// an assignment is redacted only when its value is a literal that looks
// random (mixed letters and digits, high entropy, not a placeholder).
func Redact(text string) (string, []string) {
	fired := map[string]bool{}
	lower := asciiLower(text)
	for _, r := range redactions {
		if !containsAny(lower, r.need) {
			continue
		}
		if out := replaceSecrets(text, lower, r, fired); out != text {
			text = out
			lower = asciiLower(text)
		}
	}
	rules := make([]string, 0, len(fired))
	for k := range fired {
		rules = append(rules, k)
	}
	sort.Strings(rules)
	return text, rules
}

func replaceSecrets(text, lower string, r redaction, fired map[string]bool) string {
	var b strings.Builder
	last := 0
	mark := "[REDACTED:" + r.rule + "]"
	var ws [][2]int
	if r.starts {
		for _, h := range literalHits(lower, r.need) {
			ws = append(ws, [2]int{h, min(h+r.reach, len(text))})
		}
	} else {
		ws = windows(lower, r.need, r.reach)
	}
	for _, w := range ws {
		for _, m := range r.re.FindAllStringSubmatchIndex(text[w[0]:w[1]], -1) {
			for k := range m {
				if m[k] >= 0 {
					m[k] += w[0]
				}
			}
			lo, hi := m[0], m[1]
			if r.group > 0 {
				lo, hi = -1, -1
				// the first participating group from r.group on (alternatives)
				for g := r.group; 2*g+1 < len(m); g++ {
					if m[2*g] >= 0 {
						lo, hi = m[2*g], m[2*g+1]
						break
					}
				}
				if lo < 0 {
					continue
				}
			}
			if lo < last {
				continue // already replaced through an overlapping window
			}
			secret := text[lo:hi]
			if strings.Contains(secret, "[REDACTED:") || (r.check != nil && !r.check(secret)) {
				continue
			}
			b.WriteString(text[last:lo])
			b.WriteString(mark)
			last = hi
			fired[r.rule] = true
		}
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// windows returns the byte ranges a redaction's regexp runs on: the whole
// text when reach is 0, else merged windows around the need literals,
// widened to line boundaries (at most 256 bytes) so no match is cut.
func windows(lower string, need []string, reach int) [][2]int {
	if reach == 0 {
		return [][2]int{{0, len(lower)}}
	}
	var out [][2]int
	for _, h := range literalHits(lower, need) {
		lo, hi := max(h-reach/2, 0), min(h+reach, len(lower))
		for k := 0; k < 256 && lo > 0 && lower[lo-1] != '\n'; k++ {
			lo--
		}
		for k := 0; k < 256 && hi < len(lower) && lower[hi] != '\n'; k++ {
			hi++
		}
		if n := len(out); n > 0 && lo <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], hi)
			continue
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}

// literalHits returns the sorted, distinct offsets of the literals in s.
func literalHits(s string, lits []string) []int {
	var hits []int
	for _, n := range lits {
		for i := 0; ; {
			k := strings.Index(s[i:], n)
			if k < 0 {
				break
			}
			hits = append(hits, i+k)
			i += k + len(n)
		}
	}
	sort.Ints(hits)
	return slices.Compact(hits)
}

// placeholderRE recognises documentation placeholders and template
// references, which are not secrets.
var placeholderRE = regexp.MustCompile(`(?i)^(?:\$|\{|<|%|\[)|\$\{|\{\{|xxxx|\*\*\*|\.\.\.|example|changeme|change_me|your[_-]|my[_-]?(?:password|secret|token)|placeholder|dummy|redacted|^(?:pass(?:word)?|passwd|pwd|secret|token|test|user|admin|root|foo|bar|none|null|empty)$`)

func notPlaceholder(s string) bool { return !placeholderRE.MatchString(s) }

// quotedSecret accepts a quoted literal that looks random: at least 8
// characters, letters and digits both, Shannon entropy ≥ 3 bits per char.
func quotedSecret(s string) bool {
	return notPlaceholder(s) && hasLetterAndDigit(s) && entropy(s) >= 3.0
}

// bareSecret is stricter (an unquoted value is more often an identifier): at
// least 16 characters, letters and digits, entropy ≥ 3.5, and not a dotted or
// path-like name.
func bareSecret(s string) bool {
	if strings.Count(s, ".") > 1 || strings.HasPrefix(s, "/") {
		return false
	}
	return notPlaceholder(s) && hasLetterAndDigit(s) && entropy(s) >= 3.5
}

func hasLetterAndDigit(s string) bool {
	l, d := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			d = true
		case (c|0x20) >= 'a' && (c|0x20) <= 'z':
			l = true
		}
	}
	return l && d
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// asciiLower lowercases ASCII letters only, keeping byte offsets.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func containsAny(s string, lits []string) bool {
	for _, l := range lits {
		if strings.Contains(s, l) {
			return true
		}
	}
	return false
}
