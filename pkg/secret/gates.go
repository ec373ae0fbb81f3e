package secret

// Gates drop keyword hits that cannot start a match before any regexp runs
// (gitleaks itself only checks that a keyword occurs somewhere). Each gate
// is exact about what follows its rule's keyword, so it never drops a hit
// the rule's regexp would match on: TestGatesKeepEveryFinding compares
// Find with and without them over GOROOT's net/http and the test texts.
// They matter on source code, where "key", "token" and "s." occur on most
// lines and almost never before a secret.

// gatesOff runs every rule on every hit (TestGatesKeepEveryFinding).
var gatesOff = false

// hitGates are the gates of gitleaks rules, by rule id.
var hitGates = map[string]func(text string, at, n int) bool{
	"generic-api-key":     operatorFollows,
	"vault-service-token": vaultTokenFollows,
	"jwt":                 jwtStarts,
}

// operatorFollows is generic-api-key's gate. After its keyword the rule
// reads (?:[ \t\w.-]{0,20})[\s'"]{0,3} and then an operator (=, >, :=, ::=,
// ||, :, =>, ?=, ","): the first byte after the keyword that is none of
// those filler bytes must open the operator, within 23 bytes. The value
// then starts within nine bytes of the operator's first (the operator is
// at most four bytes, and up to five quotes, blanks or '=' may follow)
// and is ten bytes or more of [\w.=+/-] (both of its forms' bytes).
func operatorFollows(text string, at, n int) bool {
	for k, steps := at+n, 0; k < len(text) && steps <= 23; k, steps = k+1, steps+1 {
		switch c := text[k]; {
		case c == '=' || c == '>' || c == ':' || c == '|' || c == '?' || c == ',':
			return valueAfter(text, k)
		case isWordByte(c) || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '.' || c == '-' || c == '\'' || c == '"':
		default:
			return false
		}
	}
	return false
}

// valueAfter reports whether a run of ten value bytes starts within
// text[k+1 : k+10].
func valueAfter(text string, k int) bool {
	start := -1
	for q := k + 1; q < len(text) && q < k+20; q++ {
		c := text[q]
		if !(isWordByte(c) || c == '.' || c == '=' || c == '+' || c == '/' || c == '-') {
			start = -1
			continue
		}
		if start < 0 {
			if q > k+9 {
				return false
			}
			start = q
		}
		if q-start+1 >= 10 {
			return true
		}
	}
	return false
}

// vaultTokenFollows is vault-service-token's gate: its keyword "s." starts
// a match only before 24 letters or digits (s\.(?i:[a-z0-9]{24})); "hvs."
// hits are kept.
func vaultTokenFollows(text string, at, n int) bool {
	return n != 2 || alnumAt(text, at+2, 24)
}

// jwtStarts is jwt's gate: its keyword "ey" (found in any case, in "key"
// and "they" on most lines of code) starts a match only as a lower-case
// "ey" at a word boundary before 17 letters or digits
// (\bey[a-zA-Z0-9]{17,}\.).
func jwtStarts(text string, at, n int) bool {
	return n == 2 && text[at:at+2] == "ey" && (at == 0 || !isWordByte(text[at-1])) && alnumAt(text, at+2, 17)
}

// alnumAt reports whether text holds n ASCII letters or digits from i.
func alnumAt(text string, i, n int) bool {
	if i+n > len(text) {
		return false
	}
	for _, c := range []byte(text[i : i+n]) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
