package intake

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// hyphenPrefixes and hyphenSuffixes make an ordinary English compound
// (non-default, built-in, config-related), never a name.
var (
	hyphenPrefixes = setOf(`anti auto built co cross double e end half high long low multi non one out over post pre re self semi short single so sub two under user well`)
	hyphenSuffixes = setOf(`agnostic aware based compatible defined dependent driven enabled free friendly independent level like made oriented related safe sensitive side specific style wide`)
)

// hyphenated takes compounds such as rtch-zone, content-length or
// inheritance-diagram: command, file, header and directive names that a
// search for their parts alone would dilute. Their parts are still words.
func (x *extractor) hyphenated() {
	for _, m := range reHyphenated().FindAllStringIndex(x.s, -1) {
		a, b := m[0], m[1]
		if x.masked(a, b) || !leftBoundary(x.s, a) {
			continue
		}
		if b < len(x.s) && (x.s[b] == '-' || x.s[b] == '_') {
			continue
		}
		tok := x.s[a:b]
		parts := strings.Split(tok, "-")
		if hyphenPrefixes[strings.ToLower(parts[0])] || hyphenSuffixes[strings.ToLower(parts[len(parts)-1])] {
			continue
		}
		ok := true
		letters := 0
		for _, p := range parts {
			if utf8.RuneCountInString(p) < 2 && !(len(p) == 1 && p[0] >= 'A' && p[0] <= 'Z') {
				ok = false // e-mail, but X-Request-ID is a name
			}
			if strings.IndexFunc(p, unicode.IsLetter) >= 0 {
				letters++
			}
		}
		if !ok || letters < 2 {
			continue
		}
		if !x.code[a] {
			tok = strings.ToLower(tok)
		}
		x.add(tok, KindIdentifier, a, b-a, "", "", 0)
	}
}

// tokens classifies every remaining name and word.
func (x *extractor) tokens() {
	for _, m := range reToken().FindAllStringIndex(x.s, -1) {
		a, b := m[0], m[1]
		if x.masked(a, b) {
			continue
		}
		if a > 0 {
			r, _ := utf8.DecodeLastRuneInString(x.s[:a])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
				continue // the tail of something like 0x1d or 2nd
			}
		}
		tok := x.s[a:b]
		call := b < len(x.s) && x.s[b] == '('
		code := x.code[a] || call
		if strings.Contains(tok, ".") || strings.Contains(tok, "::") {
			x.dotted(tok, a, code)
			continue
		}
		x.classify(tok, a, code, call, "")
	}
}

// dotted handles a.b.c and a::b: a file name (known extension), a host name
// (skipped), a qualified name (pkg.Func), or a dotted name; each part is then
// classified as an identifier of its own.
func (x *extractor) dotted(tok string, off int, code bool) {
	// Split on both separators (a.b::C.d), keeping each part's offset.
	var parts []string
	var offs []int
	start := 0
	for i := 0; i < len(tok); {
		switch {
		case tok[i] == '.':
			parts, offs = append(parts, tok[start:i]), append(offs, off+start)
			i++
			start = i
		case strings.HasPrefix(tok[i:], "::"):
			parts, offs = append(parts, tok[start:i]), append(offs, off+start)
			i += 2
			start = i
		default:
			i++
		}
	}
	parts, offs = append(parts, tok[start:]), append(offs, off+start)
	colons := strings.Contains(tok, "::")
	last := parts[len(parts)-1]
	if !colons && len(parts) >= 2 && knownExt[strings.ToLower(last)] && !isUpperStart(last) {
		x.add(tok, KindFileName, off, len(tok), "", "", 0)
		x.stemParts(tok, off)
		return
	}
	short := true
	for _, p := range parts {
		if utf8.RuneCountInString(p) > 1 {
			short = false
		}
	}
	if short { // e.g, i.e
		return
	}
	if !colons && (tlds[strings.ToLower(last)] || strings.EqualFold(parts[0], "www")) {
		return
	}
	kind := KindDotted
	if len(parts) == 2 && !isUpperStart(parts[0]) && isUpperStart(parts[1]) {
		kind = KindQualified
	}
	x.add(tok, kind, off, len(tok), "", "", 0)
	for i, p := range parts {
		x.classify(p, offs[i], true, false, tok)
	}
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func isUpperStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// classify files one name: an identifier (with its split parts) when it is
// CamelCase, snake_case, has digits, or sits in code; otherwise a lowercased
// plain word unless it is a stopword.
func (x *extractor) classify(tok string, off int, code, call bool, parent string) {
	if utf8.RuneCountInString(tok) < 2 || reVersionTok().MatchString(tok) {
		return
	}
	lw := strings.ToLower(tok)
	camel := isCamel(tok)
	snake := strings.Contains(tok, "_")
	digits := strings.IndexFunc(tok, unicode.IsDigit) >= 0
	switch {
	case camel || snake || digits:
		x.add(tok, KindIdentifier, off, len(tok), parent, "", 0)
		x.splitParts(tok, off)
	case code:
		// Keywords are never terms; English stopwords are not terms in code
		// either (comments, prose in backticks) unless called or capitalized:
		// get() and String are names.
		if isKeyword(tok) || (parent == "" && !call && (tok == lw || tok == capitalize(lw)) && x.stop(lw, off)) {
			return
		}
		x.add(tok, KindIdentifier, off, len(tok), parent, "", 0)
	default:
		if x.stop(lw, off) {
			return
		}
		x.add(lw, KindWord, off, len(tok), "", "", 0)
		if off < x.body {
			for _, ab := range abbreviations[lw] {
				x.add(ab, KindAbbreviation, off, len(tok), lw, "", 0)
			}
		}
	}
}

// stop reports whether a plain word at off is a stopword there: a title
// word is one in the body of the goal only.
func (x *extractor) stop(lw string, off int) bool {
	return isStop(lw, false) || (titleWords[lw] && off >= x.body)
}

// scope takes the scope of a commit-style first line as terms of kind
// scope: the words before the colon of "api: return structured error" or
// inside the parentheses of "fix(release): …" name the package or directory
// the change is about; each word of "net/http:" is a scope word. A scope is
// written in lower case, as package and directory names are: "TypeError: …"
// is an exception's message and "README.md: …" a file name, each a term of
// its own kind. A bare leading word that names the kind of change or a
// symptom ("fix:", "feat:", "panic:") is no scope, and the parenthesised
// form needs a change type before it: "setState(items): …" is a call.
func (x *extractor) scope() {
	t := ParseTitle(x.s[:x.body])
	a, b, typed := t.ScopeStart, t.ScopeEnd, t.Type != ""
	if a < 0 || (typed && !changeTypes[t.Type]) || x.masked(a, b) || x.code[a] {
		return
	}
	words := reScopeWord().FindAllStringIndex(x.s[a:b], -1)
	for _, w := range words {
		if w := x.s[a+w[0] : a+w[1]]; strings.ToLower(w) != w {
			return // "TypeError: …", "cmd, API: …": a scope is written in lower case
		}
	}
	if typed {
		// The type before the parenthesis ("fix(") is the kind of change,
		// not a call of fix.
		x.setMask(a-len(t.Type)-1, a)
	}
	for _, w := range words {
		wa, wb := a+w[0], a+w[1]
		if w := x.s[wa:wb]; (typed || !changeTypes[w]) && !englishStop[w] {
			x.add(w, KindScope, wa, wb-wa, "", "", 0)
		}
	}
}

// splitParts adds the snake_case and CamelCase parts of an identifier,
// lowercased, each pointing at the whole identifier.
func (x *extractor) splitParts(tok string, off int) {
	if utf8.RuneCountInString(tok) < 4 {
		return // NaN, iOS: too short to be made of words
	}
	seen := map[string]bool{}
	addPart := func(p, kind string) {
		lp := strings.ToLower(p)
		if utf8.RuneCountInString(lp) < 2 || lp == strings.ToLower(tok) || seen[lp] || isStop(lp, true) {
			return
		}
		if strings.IndexFunc(lp, unicode.IsLetter) < 0 {
			return
		}
		seen[lp] = true
		x.add(lp, kind, off, len(tok), tok, "", 0)
	}
	for _, sp := range strings.Split(tok, "_") {
		if sp == "" {
			continue
		}
		if isCamel(sp) {
			for _, cp := range splitCamel(sp) {
				addPart(cp, KindCamelPart)
			}
			if strings.Contains(tok, "_") {
				addPart(sp, KindSnakePart)
			}
			continue
		}
		if strings.Contains(tok, "_") {
			addPart(sp, KindSnakePart)
		}
	}
}

// isCamel: a lower-case letter followed by an upper-case one (getValue,
// UnicodeDecodeError) or an upper-case run followed by a lower-case letter
// after more than one capital (HTTPServer).
func isCamel(s string) bool {
	rs := []rune(s)
	if n := len(rs); n >= 3 && rs[n-1] == 's' && strings.IndexFunc(string(rs[:n-1]), func(r rune) bool { return !unicode.IsUpper(r) }) < 0 {
		return false // a plural acronym: URLs, UDLs
	}
	for i := 1; i < len(rs); i++ {
		if unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i]) {
			return true
		}
		if i >= 2 && unicode.IsUpper(rs[i-2]) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i]) {
			return true
		}
	}
	return false
}

// IdentifierParts are the words an identifier is written from, split at
// underscores, dots and hyphens and at CamelCase boundaries: "parseOpts"
// → parse, Opts; "opt_list" → opt, list.
func IdentifierParts(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '.' || r == '-' }) {
		out = append(out, splitCamel(w)...)
	}
	return out
}

// splitCamel splits CamelCase into words: "HTTPServerError" → HTTP, Server,
// Error; "utf8Decode" → utf8, Decode.
func splitCamel(s string) []string {
	rs := []rune(s)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		boundary := false
		switch {
		case (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur):
			boundary = true
		case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			boundary = true
		}
		if boundary {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	return append(parts, string(rs[start:]))
}

// abbreviations are the short forms code conventionally writes for an
// English word ("modulo" is funcOpMod, "arguments" are args): a plain goal
// word also looks for them, as a term of its own, so its own document
// frequency decides its weight. Forms that nearly every file of a language
// uses (err, ctx, func, str, len, fmt, cmd) are left out: they would find
// everything.
var abbreviations = func() map[string][]string {
	m := map[string][]string{}
	for _, e := range []struct {
		forms string
		words string
	}{
		{"arg args", "argument arguments"},
		{"attr attrs", "attribute attributes"},
		{"auth", "authentication authenticate authorization authorize"},
		{"cfg", "configuration configurations configure"},
		{"cond", "condition conditions conditional"},
		{"desc", "description descriptions"},
		{"dest", "destination destinations"},
		{"dir", "directory directories"},
		{"env", "environment environments"},
		{"eval", "evaluate evaluation evaluating"},
		{"exec", "execute execution executing"},
		{"expr", "expression expressions"},
		{"idx", "index indexes indices"},
		{"impl", "implementation implementations"},
		{"init", "initialize initialization initialise initialisation"},
		{"iter", "iterator iterators iterate iteration"},
		{"msg", "message messages"},
		{"mod", "modulo modulus"},
		{"mul", "multiply multiplication multiplying"},
		{"div", "divide division dividing divided"},
		{"add", "addition"},
		{"sub", "subtract subtraction subtracting"},
		{"num", "number numbers numeric"},
		{"obj", "object objects"},
		{"opt opts", "option options"},
		{"param params", "parameter parameters"},
		{"pkg", "package packages"},
		{"pos", "position positions"},
		{"prev", "previous"},
		{"proc", "process processes"},
		{"prop props", "property properties"},
		{"ptr", "pointer pointers"},
		{"repo", "repository repositories"},
		{"req", "request requests"},
		{"resp", "response responses"},
		{"sep", "separator separators"},
		{"seq", "sequence sequences"},
		{"spec", "specification specifications"},
		{"src", "source sources"},
		{"tmp", "temporary"},
		{"util", "utility utilities"},
		{"val", "value values"},
		{"tmpl", "template templates"},
		{"ref", "reference references"},
		{"info", "information"},
	} {
		forms := strings.Fields(e.forms)
		for _, w := range strings.Fields(e.words) {
			m[w] = forms
		}
	}
	return m
}()
