package secret

import (
	"regexp"
	"strings"
)

// Where a token ends. gitleaks closes 151 of its patterns with the byte
// after the token: (?:[\x60'"\s;]|\\[nr]|$), a quote, white space, a
// semicolon, an escaped line break or the end of the text. A token followed
// by a full stop, a comma, a bracket, a colon or a pipe (the end of a
// sentence, a markdown link, a list, an HTML attribute, a URL query) was
// not found. The close is there to refuse a prefix of a longer word, so
// every such pattern is given one that accepts any byte that cannot
// continue a token: anything but a letter, a digit, '_', '-' and '+' (a
// byte of base64 runs only; a token-shaped piece of a run is not a token,
// and the run itself is decoded and searched, encoded.go). A '/' closes a
// token (a URL path, a directory) except where the token is a value after
// a name (valueClose: a value of [\w.=-] followed by '/' is the first part
// of a base64 one, which the pattern's other form takes whole) or its
// prefix is what base64 of binary data reads as (Square's EAAA).
const (
	gitleaksClose = `(?:[\x60'"\s;]|\\[nr]|$)`
	tokenClose    = `(?:[^0-9A-Za-z_+-]|$)`
	valueClose    = `(?:[^0-9A-Za-z_+/-]|$)`
	// gitleaksOperator is the assignment of gitleaks' keyword rules: a
	// name, then one of these, then the value
	gitleaksOperator = `(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`
)

// closeTokens rewrites pattern's gitleaks closes (to valueClose in a
// keyword rule's pattern, to tokenClose otherwise), and the bounds of the
// rules that close their tokens their own way (boundFixes).
func closeTokens(id, pattern string) string {
	for _, f := range boundFixes[id] {
		pattern = strings.Replace(pattern, f[0], f[1], 1)
	}
	if strings.Contains(pattern, gitleaksOperator) {
		return strings.ReplaceAll(pattern, gitleaksClose, valueClose)
	}
	return strings.ReplaceAll(pattern, gitleaksClose, tokenClose)
}

// boundFixes are, by rule id, the other bounds of gitleaks' patterns that
// refused a token's neighbours, each with what replaces it (old, new).
// TestBoundFixesApply fails when a gitleaks upgrade changes one.
var boundFixes = map[string][][2]string{
	// Azure client secrets were found only after white space, a quote or
	// one of >=:(,) and before white space, a quote or one of <),; the
	// token's own '.' and '~' may also bound it (the end of a sentence)
	"azure-ad-client-secret": {
		{`(?:^|[\\'"\x60\s>=:(,)])`, `(?:^|[^a-zA-Z0-9_-])`},
		{`(?:$|[\\'"\x60\s<),])`, `(?:$|[^a-zA-Z0-9_-])`},
	},
	// curl -u user:password was found only before white space; the
	// value's own bounds (its quotes, or the greedy run of a bare one)
	// suffice
	"curl-auth-user": {{`(?:\s|\z)`, ``}},
	// EAAA is how base64 of a 0x10 byte and zeros starts: in a base64
	// dump a '/' after the "token" continues the run
	"square-access-token": {{gitleaksClose, valueClose}},
}

// A value found by its name alone (gitleaks' generic rule: api_key = …)
// has no shape of its own, and in code the
// name is as often followed by another identifier: `PrivateKey:
// testRSA2048PrivateKey}`, `Sign(rand, key, crypto.SHA512)`. Such a value
// closed by a byte gitleaks' close refused is kept only when it does not
// read as code: it is not followed by an opening bracket (a call, an
// index, a literal), and it is no selector, spells no secret word and is
// not made of two capitalised words (codeValue). Values closed as gitleaks
// closes them are kept as before. On GOROOT/src this keeps the findings
// gitleaks' close gave and adds none; a random value reads as code in
// under 3% of draws (TestCodeValueRarelyRandom).

// plainClose reports whether text[i] closes a token the way gitleaks'
// own close does (or the text ends there).
func plainClose(text string, i int) bool {
	if i >= len(text) {
		return true
	}
	switch text[i] {
	case '`', '\'', '"', ' ', '\t', '\n', '\r', '\f', '\v', ';', '\\':
		return true
	}
	return false
}

// weakValue returns the part of secret that has no shape of its own, when
// rule r finds secrets by a name alone (gitleaks' generic rule) or, for
// Vault's legacy s. tokens, by a two-byte prefix. The other keyword rules
// find values of a fixed length or with a prefix of their own.
func (r *rule) weakValue(secret string) (string, bool) {
	switch {
	case r.src.ID == "generic-api-key":
		return secret, true
	case r.src.ID == "vault-service-token" && strings.HasPrefix(secret, "s."):
		return secret[2:], true
	}
	return "", false
}

// closedAsCode reports whether the weak value v, ending at text[end], is
// closed by a byte gitleaks refused and reads as code.
func closedAsCode(text string, end int, v string) bool {
	if plainClose(text, end) {
		return false
	}
	switch text[end] {
	case '(', '[', '{':
		return true
	}
	return codeValue(v)
}

// codeWords name secrets; a value that spells one is an identifier
// (NewPrivateKey65, tls13.NewEarlySecret, api_v1), not a secret.
var codeWords = []string{"key", "token", "secret", "passw", "auth", "api", "access", "cred", "priv"}

// codeValue reports whether v reads as an identifier or an expression: it
// is a dotted path (tls13.NewEarlySecret) or starts with a version
// (v0.5.2-…), spells a secret word, or is mostly capitalised words
// (ReadUint16LengthPrefixed).
func codeValue(v string) bool {
	if dottedRE().MatchString(v) {
		return true
	}
	lower := strings.ToLower(v)
	for _, w := range codeWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return camelWords(v) || slashPath(v)
}

// slashPath reports whether v is a path of letter-only segments
// (pkg/cmd/root/alias, closed by its ".go"): the base64 form of the generic
// rule reads letters and slashes, but a key has digits or capitals.
func slashPath(v string) bool {
	if !strings.Contains(v, "/") {
		return false
	}
	for _, seg := range strings.Split(v, "/") {
		if seg == "" || strings.Trim(seg, "abcdefghijklmnopqrstuvwxyz_-") != "" {
			return false
		}
	}
	return true
}

// camelWords reports whether v has two or more capitalised words of four
// letters or more (a capital, then lower-case letters) and they hold at
// least 60% of its letters: ReadUint16LengthPrefixed, not the odd
// "Ylkfwq" of a random key.
func camelWords(v string) bool {
	words, inWords, letters := 0, 0, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c|0x20 >= 'a' && c|0x20 <= 'z' {
			letters++
		}
		if c >= 'A' && c <= 'Z' {
			if n := lowerRun(v[i+1:]); n >= 3 {
				words++
				inWords += n + 1
			}
		}
	}
	return words >= 2 && inWords*10 >= letters*6
}

// dottedRE is a dotted path of identifiers, or a version's start.
var dottedRE = lazy(`^(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|v?[0-9]+\.[0-9]+\.)`)

// lowerRun is how many lower-case ASCII letters s starts with.
func lowerRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= 'a' && s[n] <= 'z' {
		n++
	}
	return n
}

// eachMatch calls each for the matches of re in the window w of text, as
// FindAll gives them (offsets are text's). When each returns a position
// (beyond the match's start), matching starts again there: a value
// rejected as code may hold the name of the next assignment
// (token=credentials=…), which FindAll would have passed over. The
// position is a value's first byte, after an operator, a quote or a
// blank, so the window cut there loses no word boundary.
func eachMatch(re *regexp.Regexp, text string, w span, each func(m []int) int) {
	for from := w.lo; from < w.hi; {
		next := -1
		for _, m := range re.FindAllStringSubmatchIndex(text[from:w.hi], -1) {
			for k := range m {
				if m[k] >= 0 {
					m[k] += from
				}
			}
			if p := each(m); p > m[0] {
				next = p
				break
			}
		}
		if next < 0 {
			return
		}
		from = next
	}
}
