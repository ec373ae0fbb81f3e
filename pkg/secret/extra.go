package secret

import (
	"regexp"
	"strings"
	"sync"
)

// lazy compiles a pattern the first time it is used: a tool run pays at
// start-up for every package-level regexp, used or not.
func lazy(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}

// extraRule is a format the gitleaks default set does not cover. Every match
// contains one of need (lowercase literals): a rule whose literals are all
// absent from the text is not run. src is its pattern, compiled on first use
// (re), its prefilter (pre, prefilter.go) once it has scanned enough; group
// is the submatch that is the secret (0: the whole match); check, when set,
// must accept it.
type extraRule struct {
	id    string
	need  []string
	src   string
	re    func() *regexp.Regexp
	pre   *lazyPrefilter
	group int
	check func(string) bool
	// assign says every match is a name followed by an assignment: a
	// keyword hit is kept only when its identifier is (assignedAt).
	assign bool
	// gate, when set, drops keyword hits that cannot start a match
	gate func(text string, at int) bool
	// weak says the secret is found by its name alone: closed by a byte
	// other than white space, a quote or ;, it must not read as code
	// (closedAsCode)
	weak bool
}

// passKey is an identifier that ends in a password word: db_password,
// PGPASSWORD, "pass", smtp.passwd. Words such as passwordPolicy or passthrough
// do not end in one, so they never match.
const passKey = `[A-Za-z0-9_.-]*(?i:password|passwd|pwd|pass)`

// bareValue is an unquoted password: no blank, quote, bracket, comment or
// separator, nor a $ (of ${VAR}) or a backslash.
const bareValue = `([^\s"'` + "`" + `#;,(){}\[\]<>$\\]{3,200})`

var extraRules = compileLazily(append([]extraRule{
	// a password literal, whatever its entropy: password: "hunter2", "pass": "x1"
	{id: "password-assignment", need: []string{"pass", "pwd"}, group: 2, assign: true, check: plainPassword,
		src: `(?:^|[^A-Za-z0-9_])` + passKey + `["']?[ \t]*(?::=|=>|=|:)[ \t]*(["'` + "`" + `])([^"'` + "`" + `\s\\]{3,200})["'` + "`" + `]`},
	// the same unquoted, as the whole rest of a config line: password: hunter2, DB_PASSWORD=hunter2
	{id: "password-assignment", need: []string{"pass", "pwd"}, group: 1, assign: true, check: plainPassword,
		src: `(?m)^[ \t-]*(?:export[ \t]+)?` + passKey + `[ \t]*[=:][ \t]*` + bareValue + `[ \t]*(?:#.*)?\r?$`},
	// the same in prose or after other text on the line: "the staging
	// password: hunter2" (password words only: "first pass: compute" is prose)
	{id: "password-assignment", need: []string{"passw", "pwd"}, group: 1, assign: true, check: plainPassword,
		src: `(?:^|[\s,;({])[A-Za-z0-9_.-]*(?i:password|passwd|pwd)[ \t]*[=:][ \t]*` + bareValue + `(?:[\s,;]|$)`},
	// the same between any other bytes that end a name and a value
	// ("(password: hunter2)", "[pwd=Tr0ub4dor]", "<b>password: s3cret</b>"),
	// where code has its identifiers and paths ({pwd: cwd}, "PWD=/tmp"):
	// only a value shaped like a password, a digit or a symbol in it
	{id: "password-assignment", need: []string{"passw", "pwd"}, group: 1, assign: true, check: shapedPassword,
		src: `(?:^|[^A-Za-z0-9_.-])[A-Za-z0-9_.-]*(?i:password|passwd|pwd)[ \t]*[=:][ \t]*` + bareValue + `(?:[\s"'` + "`" + `#;,)}\]<>$\\]|$)`},
	// .netrc, on one line or several: machine h login u password p
	{id: "netrc-password", need: []string{"login"}, group: 1, check: netrcPassword,
		src: `(?s)\blogin\s+\S+\s+password\s+(\S+)`},
	// Docker config.json credentials: "auth": "dXNlcjpwYXNz"
	{id: "docker-config-auth", need: []string{`"auth"`, `"identitytoken"`}, group: 1,
		src: `"(?:auth|identitytoken)"\s*:\s*"([A-Za-z0-9+/=._-]{8,})"`},
	// GCP service-account key id
	{id: "gcp-private-key-id", need: []string{"private_key_id"}, group: 1,
		src: `"private_key_id"\s*:\s*"([0-9a-fA-F]{20,})"`},
	// kubeconfig: client-key-data (the user's private key, base64)
	{id: "kubeconfig-key-data", need: []string{"client-key-data"}, group: 1,
		src: `client-key-data["']?\s*:\s*["']?([A-Za-z0-9+/=]{16,})`},
	// AWS STS session tokens, by name or by their fixed prefixes
	{id: "aws-session-token", need: []string{"session"}, group: 1, assign: true,
		src: `(?i)aws_?session_?token["']?\s*(?::=|=>|=|:)\s*["']?([A-Za-z0-9/+=]{40,})`},
	{id: "aws-session-token", need: []string{"fwogzxivyxdz", "iqojb3jpz2lux2vj"},
		src: `\b(?:FwoGZXIvYXdz|IQoJb3JpZ2luX2Vj)[A-Za-z0-9/+=]{60,}`},
	{id: "aws-secret-access-key", need: []string{"aws"}, group: 1, assign: true,
		src: `(?i)aws_?secret(?:_?access)?_?key["']?\s*(?::=|=>|=|:)\s*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+]|$)`},
	{id: "azure-storage-key", need: []string{"accountkey="}, group: 1,
		src: `(?i)AccountKey=([A-Za-z0-9+/]{86}==)`},
	{id: "azure-sas-signature", need: []string{"sig="}, group: 1,
		src: `[?&]sig=([A-Za-z0-9%+/=]{40,})`},
	{id: "url-credentials", need: []string{"://"}, group: 1, check: notPlaceholder,
		src: `\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s/:@"']{1,100}:([^\s/@"']{1,200})@`},
	// a quoted high-entropy literal assigned to a name ending in a secret word
	{id: "secret-assignment", need: secretWords, group: 1, assign: true, check: quotedSecret,
		src: secretKeyword + `["']?\s*(?::=|=>|=|:)\s*(?:"([^"\s\\]{8,200})"|'([^'\s\\]{8,200})'|` + "`([^`\\s]{8,200})`" + `)`},
	// the same unquoted (env files, YAML, shell): long and high-entropy
	{id: "secret-assignment", need: secretWords, group: 1, assign: true, check: bareSecret,
		src: secretKeyword + `["']?[ \t]*(?:=|:)[ \t]*([A-Za-z0-9+/=_\-.~]{16,200})(?:[^A-Za-z0-9+/=_\-.~]|$)`, weak: true},
}, providerRules...))

// compileLazily gives each rule its pattern's and its prefilter's lazy
// compilation.
func compileLazily(rules []extraRule) []extraRule {
	for i := range rules {
		src := rules[i].src
		rules[i].re = lazy(src)
		rules[i].pre = newLazyPrefilter(func() string { return src })
	}
	return rules
}

// secretWords are the literals (lowercase) every secretKeyword match holds.
var secretWords = []string{"password", "passwd", "pwd", "secret", "token", "apikey", "api_key", "accesskey",
	"access_key", "privatekey", "private_key", "authkey", "auth_key", "credential"}

// secretKeyword is a name ending in a secret word (db_password, API_TOKEN,
// clientSecret, secretKey); tokenizer, tokenType or passwordPolicy do not end
// in one.
const secretKeyword = `(?i)(?:password|passwd|pwd|secret_?key|secret|token|api_?key|apikey|access_?key|private_?key|auth_?key|credentials?)s?\b`

// findExtra runs the extra rules on the windows around their literal hits
// (hits[i] for extraRules[i]), then the multi-line key rules.
func findExtra(text string, hits [][]int) []Finding {
	var out []Finding
	for i, h := range hits {
		r := extraRules[i]
		for _, w := range windowsAt(text, h, r.more()) {
			if !r.pre.mayMatch(text[w.lo:w.hi]) {
				continue
			}
			out = append(out, w.widen(text, r.findIn(text, w))...)
		}
	}
	out = append(out, findKeyBlocks(text)...)
	return out
}

// more is how many lines after its literal's line a match of r may reach.
func (r extraRule) more() int {
	if r.id == "netrc-password" {
		return 3 // login and password may be on lines of their own
	}
	return 1
}

// findIn runs r on the window w of text; offsets are text's.
func (r extraRule) findIn(text string, w span) []Finding {
	var out []Finding
	eachMatch(r.re(), text, w, func(m []int) int {
		lo, hi := m[0], m[1]
		if r.group > 0 {
			lo, hi = firstGroup(m, r.group)
		}
		if lo < 0 || hi <= lo {
			return 0
		}
		s := text[lo:hi]
		if !strings.Contains(s, "REDACTED") && (r.check == nil || r.check(s)) && !(r.weak && closedAsCode(text, hi, s)) {
			out = append(out, Finding{Rule: r.id, Start: lo, End: hi})
			return 0
		}
		if r.assign {
			return lo // the value may hold the next name (eachMatch)
		}
		return 0
	})
	return out
}

// firstGroup is the first participating submatch from g on (alternatives).
func firstGroup(m []int, g int) (int, int) {
	for ; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 {
			return m[2*g], m[2*g+1]
		}
	}
	return -1, -1
}

// assignedAt reports whether the identifier holding text[i] is followed by
// an assignment: an optional closing quote, white space, then = or : (which
// begins :=, => and == too). Every match of an assign rule has that shape
// after its keyword, and the keyword ends where its identifier ends, so a
// hit that fails this cannot start a match: in source code most hits of
// "token" or "secret" are selectors and calls, and the regexp is not run on
// their lines.
func assignedAt(text string, i int) bool {
	j := i
	for j < len(text) && isWordByte(text[j]) {
		j++
	}
	if j < len(text) && (text[j] == '"' || text[j] == '\'') {
		j++
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r' || text[j] == '\f') {
		j++
	}
	return j < len(text) && (text[j] == '=' || text[j] == ':')
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
