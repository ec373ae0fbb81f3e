package intake

import (
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/schema"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// Goal-term kinds, most specific first. When one term string is recognised as
// several kinds, the most specific kind is kept and the counts are summed.
const (
	KindStackFrame    = "stack_frame"
	KindPath          = "path"
	KindFileName      = "file_name"
	KindQualified     = "qualified"
	KindDotted        = "dotted"
	KindScope         = "scope"
	KindIdentifier    = "identifier"
	KindFlag          = "flag"
	KindErrorFragment = "error_fragment"
	KindQuoted        = "quoted"
	KindAbbreviation  = "abbreviation"
	KindCamelPart     = "camel_part"
	KindSnakePart     = "snake_part"
	KindWord          = "word"
)

var kindRank = map[string]int{
	KindStackFrame: 0, KindPath: 1, KindFileName: 2, KindQualified: 3, KindDotted: 4,
	KindScope: 5, KindIdentifier: 6, KindFlag: 7, KindErrorFragment: 8, KindQuoted: 9,
	KindCamelPart: 10, KindSnakePart: 11, KindWord: 12, KindAbbreviation: 13,
}

// Limits on the length of phrase terms, in bytes.
const (
	maxQuoted   = 120
	maxFragment = 160
)

var (
	reHTMLComment = lazyre.New(`(?s)<!--.*?-->`)
	reURL         = lazyre.New("(?i)\\b(?:https?|ftp|file)://[^\\s<>()\\[\\]\"'`]+")
	reGitHubBlob  = lazyre.New(`(?i)^https?://github\.com/[^/]+/[^/]+/(?:blob|tree)/[^/]+/([^#?]+)`)
	reEmail       = lazyre.New(`[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b`)
	reBoilerLine  = lazyre.New(`(?m)^[ \t>]*(?:Traceback \(most recent call last\):|goroutine \d+ \[[^\]]*\]:|During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)[ \t\r]*$`)
	reTemplate    = lazyre.New(`(?im)^[ \t]*(?:#{1,6}[ \t]*|\*\*)(?:describe the bug|bug description|description|to reproduce|(?:how|steps) to reproduce|expected (?:behaviou?r|results?|output)|actual (?:behaviou?r|results?|output)|your project|screenshots?|os|operating system|platform|environment|[\w ]{0,20} versions?|[\w ]{0,20} extensions|extra tools|environment info(?:rmation)?|additional (?:context|information|notes)|code sample[^\n]*|problem description|output of [^\n]*|minimal (?:complete )?verifiable example|mvce confirmation|relevant log output|anything else[^\n]*|installed versions|system (?:details|information)|motivation|proposed solution|alternatives[^\n]*|feature request|bug report|what happened\??|what did you expect to happen\??|is your feature request related to a problem[^\n]*|describe the solution[^\n]*|describe alternatives[^\n]*|checklist)[ \t]*:?(?:\*\*)?[ \t\r]*$|_No response_`)
	rePrompt      = lazyre.New(`(?m)^[ \t>]*(?:In|Out)[ \t]*\[\d*\]:`)
	reFence       = lazyre.New("(?ms)^[ \\t>]*(```+|~~~+)([^\\n]*)\\n(.*?)(?:^[ \\t>]*(?:```+|~~~+)[ \\t\\r]*$|\\z)")
	reInlineCode  = lazyre.New("`([^`\\n]+)`")
	rePyFrame     = lazyre.New(`File "([^"\n]+)", line (\d+)(?:, in ([\p{L}_<>][\p{L}\p{N}_<>.]*))?`)
	reFileLine    = lazyre.New(`((?:[A-Za-z]:[\\/])?[\p{L}\p{N}_.@+~\\/-]*[\p{L}\p{N}_-]\.([A-Za-z][A-Za-z0-9]{0,7})):(\d+)`)
	reExcMessage  = lazyre.New(`((?:[\p{L}_][\p{L}\p{N}_]*\.)*[A-Z][\p{L}\p{N}_]*(?:Error|Exception|Warning|Exit|Interrupt|Failure|Fault)):[ \t]*(\S[^\n]*)`)
	reErrMessage  = lazyre.New(`(?i)\b(panic|fatal error|fatal|error|warning):[ \t]*(\S[^\n]*)`)
	rePath        = lazyre.New(`(?:~|\.{1,2})?/?(?:[\p{L}\p{N}_.@+-]+/)+[\p{L}\p{N}_.@+-]*`)
	reWinPath     = lazyre.New("[A-Za-z]:\\\\(?:[^\\\\\\s:*?\"<>|`]+\\\\)+[^\\\\\\s:*?\"<>|,`]+")
	reFlag        = lazyre.New(`--([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*)`)
	reHyphenated  = lazyre.New(`[\p{L}][\p{L}\p{N}]*(?:-[\p{L}\p{N}]+)+`)
	reToken       = lazyre.New(`[\p{L}_][\p{L}\p{N}_]*(?:(?:\.|::)[\p{L}_][\p{L}\p{N}_]*)*`)
	reVersionTok  = lazyre.New(`^[vV]\d+$`)
	reQuoteDouble = lazyre.New(`"([^"\n]+)"|“([^”\n]+)”`)
	reQuoteSingle = lazyre.New(`'([^'\n]+)'|‘([^’\n]+)’`)
	reVersionLine = lazyre.New(`(?m)^[ \t>*-]*(?:[\w.-]+(?: [\w.-]+){0,2}[ \t]*:[ \t]*(?:None|No|Yes|N/A|v?\d[^\n]*)|INSTALLED VERSIONS|-{3,})[ \t\r]*$`)
	reHTMLTag     = lazyre.New(`(?i)</?(?:a|b|br|code|details|div|em|h[1-6]|hr|i|img|kbd|li|ol|p|pre|source|span|strong|sub|summary|sup|table|td|th|tr|ul|video)\b[^<>\n]*>`)
	reEnvLine     = lazyre.New(`(?im)^[ \t>*-]*(?:os|os-release|platform|machine|processor|byteorder|lc_all|lang|locale|python-bits|python|python version|sys\.version|sys\.platform|system|executable|encoding|browser|device|operating system|commit)[ \t]*:[^\n]*$`)
	reAngle       = lazyre.New(`<[A-Za-z][\w-]{0,30}>`)
	reScopeWord   = lazyre.New(`[A-Za-z][\w.-]*`)
	// reIssueRef is a reference to an issue or pull request with the
	// keyword that closes it on merge ("close #56", "Fixes owner/repo#12",
	// "resolves GH-7", "closes https://github.com/o/r/issues/9"), or a
	// reference that cannot be anything else ("owner/repo#12", "GH-7"). A
	// bare "#56" is left alone: numbers are never terms, and "#333333" in a
	// quoted string or "token #1" in an error message belong to the literal.
	reIssueRef = lazyre.New(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[ \t]*:?[ \t]+(?:(?:[\w.-]+/[\w.-]+)?#\d+\b|gh-\d+\b|https?://[^\s/]+/[^\s/]+/[^\s/]+/(?:issues|pull)/\d+)|\b[\w.-]+/[\w.-]+#\d+\b|\bgh-\d+\b`)
)

// htmlTags are the tags of issue markup, never literals of the program.
var htmlTags = setOf(`a b br code details div em h1 h2 h3 h4 hr i img kbd li ol p pre span strong sub summary sup table td th tr ul`)

// ExtractTerms extracts the goal terms of a goal text (SPEC §5): stack-trace
// frames (file and line), paths and file names, qualified and dotted names
// (pkg.Func, a.b.c), identifiers (CamelCase, snake_case, names with digits,
// names in code and names called with "()") with their split parts,
// command-line flags, error-message fragments, quoted strings, and plain words
// less stopwords. Every term is "exploratory" and carries the byte offset and
// length of its first occurrence as its recorded kind (a split part points at
// its whole identifier) and the number of places it occurs.
//
// The function is pure and deterministic: terms are ordered by kind (most
// specific first), then by offset, then by text.
func ExtractTerms(goal string) []schema.GoalTerm {
	x := &extractor{
		s:     goal,
		mask:  make([]bool, len(goal)),
		code:  make([]bool, len(goal)),
		terms: map[string]*schema.GoalTerm{},
		seen:  map[occurrence]bool{},
	}
	x.body = bodyStart(goal)
	x.maskNoise()
	x.markCode()
	x.frames()
	x.maskVersionDump()
	x.errorFragments()
	x.quoted()
	x.angles()
	x.paths()
	x.flags()
	x.hyphenated()
	x.scope()
	x.tokens()
	return x.sorted()
}

type extractor struct {
	s string
	// body is the byte offset where the body of a multi-line goal starts
	// (len(s) for a one-line goal).
	body int
	// mask marks bytes the later passes skip: URLs, comments, e-mail addresses,
	// traceback boilerplate, and text already taken as a frame, path or flag.
	mask []bool
	// code marks bytes inside fenced or inline code.
	code  []bool
	terms map[string]*schema.GoalTerm
	seen  map[occurrence]bool
}

// occurrence is a term at a byte offset.
type occurrence struct {
	term string
	off  int
}

func (x *extractor) setMask(a, b int) {
	for i := a; i < b && i < len(x.mask); i++ {
		x.mask[i] = true
	}
}

func (x *extractor) masked(a, b int) bool {
	for i := a; i < b && i < len(x.mask); i++ {
		if x.mask[i] {
			return true
		}
	}
	return false
}

func (x *extractor) add(term, kind string, off, length int, parent, file string, line int) {
	if term == "" {
		return
	}
	// One occurrence is counted once, however many passes recognise it.
	at := occurrence{term, off}
	seen := x.seen[at]
	x.seen[at] = true
	t, ok := x.terms[term]
	if !ok {
		x.terms[term] = &schema.GoalTerm{Term: term, Kind: kind, Origin: "exploratory", Offset: off, Length: length, Parent: parent, File: file, Line: line, Count: 1}
		return
	}
	if !seen {
		t.Count++
	}
	if kindRank[kind] < kindRank[t.Kind] {
		t.Kind, t.Offset, t.Length, t.Parent, t.File, t.Line = kind, off, length, parent, file, line
	}
}

func (x *extractor) sorted() []schema.GoalTerm {
	out := make([]schema.GoalTerm, 0, len(x.terms))
	for _, t := range x.terms {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if kindRank[a.Kind] != kindRank[b.Kind] {
			return kindRank[a.Kind] < kindRank[b.Kind]
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return a.Term < b.Term
	})
	return out
}

// maskNoise hides what is never a term: HTML comments (issue-template
// instructions) and markup tags with their attributes (<img src=…>), URLs
// (keeping the file path of a GitHub blob link), e-mail addresses, issue
// references with their closing keyword ("close #56": the word names what the
// merge does to the issue, not the code), traceback headers, issue-template
// headings and IPython prompts.
func (x *extractor) maskNoise() {
	for _, re := range []*regexp.Regexp{reHTMLComment(), reHTMLTag()} {
		for _, m := range re.FindAllStringIndex(x.s, -1) {
			x.setMask(m[0], m[1])
		}
	}
	for _, m := range reURL().FindAllStringIndex(x.s, -1) {
		if x.masked(m[0], m[0]+1) {
			continue
		}
		u := strings.TrimRight(x.s[m[0]:m[1]], ".,;:!?")
		if b := reGitHubBlob().FindStringSubmatch(u); b != nil {
			p := strings.TrimRight(b[1], "/")
			x.add(p, KindPath, m[0], len(u), "", "", 0)
			x.addFileName(p, m[0], len(u))
		}
		x.setMask(m[0], m[1])
	}
	for _, re := range []*regexp.Regexp{reEmail(), reIssueRef(), reBoilerLine(), reTemplate(), rePrompt()} {
		for _, m := range re.FindAllStringIndex(x.s, -1) {
			x.setMask(m[0], m[1])
		}
	}
}

// markCode marks fenced code blocks and inline code. Inline code that is not a
// single name becomes a quoted term.
func (x *extractor) markCode() {
	for _, m := range reFence().FindAllStringSubmatchIndex(x.s, -1) {
		x.setMask(m[4], m[5]) // the info string: ```py, ```pytb
		for i := m[6]; i < m[7]; i++ {
			x.code[i] = true
		}
	}
	for _, m := range reInlineCode().FindAllStringSubmatchIndex(x.s, -1) {
		if x.code[m[0]] || x.masked(m[0], m[1]) {
			continue
		}
		for i := m[2]; i < m[3]; i++ {
			x.code[i] = true
		}
		inner := strings.Trim(strings.TrimSpace(x.s[m[2]:m[3]]), `\`)
		if !isSingleName(inner) {
			x.addQuoted(inner, m[2], m[3]-m[2])
		}
	}
}

// isSingleName reports whether inline code is one name, call, path or flag the
// token passes will take on their own.
func isSingleName(s string) bool {
	s = strings.TrimSuffix(s, "()")
	if reToken().FindString(s) == s || reFlag().FindString(s) == s {
		return true
	}
	if loc := rePath().FindStringIndex(s); loc != nil && loc[0] == 0 && loc[1] == len(s) {
		return true
	}
	return false
}

// frames finds stack-trace frames: Python's `File "x.py", line 12, in f` and
// the "file.ext:line" of Go panics, compilers, linters and test runners.
func (x *extractor) frames() {
	for _, m := range rePyFrame().FindAllStringSubmatchIndex(x.s, -1) {
		if x.masked(m[0], m[1]) {
			continue
		}
		file := normalizePath(x.s[m[2]:m[3]])
		line, _ := strconv.Atoi(x.s[m[4]:m[5]])
		x.addFrame(file, line, m[0], m[1]-m[0])
		if m[6] >= 0 {
			fn := x.s[m[6]:m[7]]
			if !strings.HasPrefix(fn, "<") {
				x.classify(fn, m[6], true, true, "")
			}
		}
		x.setMask(m[0], m[1])
	}
	for _, m := range reFileLine().FindAllStringSubmatchIndex(x.s, -1) {
		if x.masked(m[0], m[1]) || !leftBoundary(x.s, m[0]) {
			continue
		}
		if !knownExt[strings.ToLower(x.s[m[4]:m[5]])] {
			continue
		}
		file := normalizePath(x.s[m[2]:m[3]])
		line, err := strconv.Atoi(x.s[m[6]:m[7]])
		if err != nil || line == 0 {
			continue
		}
		x.addFrame(file, line, m[0], m[1]-m[0])
		x.setMask(m[0], m[1])
	}
}

func (x *extractor) addFrame(file string, line, off, length int) {
	if file == "" || strings.HasPrefix(file, "<") {
		return // <stdin>, <string>, <frozen importlib._bootstrap>
	}
	x.add(file+":"+strconv.Itoa(line), KindStackFrame, off, length, "", file, line)
	if strings.Contains(file, "/") {
		x.add(file, KindPath, off, length, "", "", 0)
	}
	x.addFileName(file, off, length)
}

func (x *extractor) addFileName(p string, off, length int) {
	base := path.Base(p)
	if base == "." || base == "/" || !strings.Contains(strings.TrimPrefix(base, "."), ".") {
		return
	}
	parent := ""
	if base != p {
		parent = p
	}
	x.add(base, KindFileName, off, length, parent, "", 0)
	boff := off
	if end := off + length; end <= len(x.s) {
		if i := strings.LastIndex(x.s[off:end], base); i >= 0 {
			boff = off + i
		}
	}
	x.stemParts(base, boff)
}

// stemParts adds the snake_case and CamelCase parts of a file name's stem:
// tests/test_pycode_ast.py names the module pycode/ast.py, and
// rtchintake_test.go the package beside it.
func (x *extractor) stemParts(base string, off int) {
	stem := strings.TrimSuffix(base, path.Ext(base))
	if strings.Contains(stem, ".") || !(strings.Contains(stem, "_") || isCamel(stem)) {
		return
	}
	x.splitParts(stem, off)
}

// normalizePath turns a path from a trace into the path most likely to exist
// in the repository: "/" separators, no "./", and no installation prefix
// (site-packages/, dist-packages/, a Go module cache's module@version/).
func normalizePath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for _, marker := range []string{"/site-packages/", "/dist-packages/"} {
		if i := strings.LastIndex(p, marker); i >= 0 {
			p = p[i+len(marker):]
		}
	}
	if i := strings.Index(p, "/pkg/mod/"); i >= 0 {
		rest := p[i+len("/pkg/mod/"):]
		if j := strings.Index(rest, "@"); j >= 0 {
			if k := strings.Index(rest[j:], "/"); k >= 0 {
				p = rest[j+k+1:]
			}
		}
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// maskVersionDump hides "name: version" lines (the environment dumps of
// show_versions(), pip freeze and issue templates): package names that are not
// the topic. It runs after frames(), which has already taken "file.py:12:".
func (x *extractor) maskVersionDump() {
	for _, re := range []*regexp.Regexp{reVersionLine(), reEnvLine()} {
		for _, m := range re.FindAllStringIndex(x.s, -1) {
			if m[0] < x.body {
				continue // the first line is the topic: "os: add Readlink" is Go's os package
			}
			x.setMask(m[0], m[1])
		}
	}
}

// errorFragments takes the message of "SomeError: message", "panic: …",
// "fatal: …" and "error: …" lines: the text most likely to be a literal in the
// code that raised it. One fragment per line, the leftmost.
func (x *extractor) errorFragments() {
	off := 0
	for _, line := range strings.SplitAfter(x.s, "\n") {
		body := strings.TrimRight(line, "\r\n")
		best := []int(nil)
		for _, re := range []*regexp.Regexp{reExcMessage(), reErrMessage()} {
			m := re.FindStringSubmatchIndex(body)
			for m != nil && x.masked(off+m[0], off+m[0]+1) {
				next := re.FindStringSubmatchIndex(body[m[1]:])
				if next == nil {
					m = nil
					break
				}
				for i := range next {
					if next[i] >= 0 {
						next[i] += m[1]
					}
				}
				m = next
			}
			if m != nil && (best == nil || m[0] < best[0]) {
				best = m
			}
		}
		if best != nil {
			end := best[5]
			// A message quoted in prose ends at its closing quote.
			if best[0] > 0 && strings.IndexByte("\"'`", body[best[0]-1]) >= 0 {
				if q := strings.IndexByte(body[best[4]:end], body[best[0]-1]); q >= 0 {
					end = best[4] + q
				}
			}
			// It never runs into text taken as a frame or URL.
			for i := best[4]; i < end; i++ {
				if x.mask[off+i] {
					end = i
					break
				}
			}
			msg, moff := cleanFragment(body[best[4]:end])
			if len(msg) >= 3 && strings.IndexFunc(msg, unicode.IsLetter) >= 0 {
				x.add(msg, KindErrorFragment, off+best[4]+moff, len(msg), "", "", 0)
			}
		}
		off += len(line)
	}
}

// cleanFragment trims a message, drops surrounding quotes and a final period,
// and caps it at maxFragment bytes on a word boundary. It returns the message
// and its offset within the input.
func cleanFragment(s string) (string, int) {
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] && !strings.ContainsRune(s[1:len(s)-1], rune(s[0])) {
		s = s[1 : len(s)-1]
		lead++
	}
	s = strings.TrimRight(s, ". ")
	if len(s) > maxFragment {
		cut := maxFragment
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if sp := strings.LastIndexByte(s[:cut], ' '); sp > maxFragment/2 {
			cut = sp
		}
		s = strings.TrimSpace(s[:cut])
	}
	return s, lead
}

// quoted takes strings in double, single and typographic quotes. A single
// quote must open after a space or bracket and close before one, so the
// apostrophes of "it's" and "don't" never pair up.
func (x *extractor) quoted() {
	for _, m := range reQuoteDouble().FindAllStringSubmatchIndex(x.s, -1) {
		a, b := m[2], m[3]
		if a < 0 {
			a, b = m[4], m[5]
		}
		if x.masked(m[0], m[1]) {
			continue
		}
		x.addQuoted(x.s[a:b], a, b-a)
	}
	pos := 0
	for pos < len(x.s) {
		m := reQuoteSingle().FindStringSubmatchIndex(x.s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		a, b := m[2], m[3]
		if a < 0 {
			a, b = m[4], m[5]
		}
		if x.s[m[0]] == '\'' && (!quoteOpens(x.s, m[0]) || !quoteCloses(x.s, m[1])) {
			pos = m[0] + 1
			continue
		}
		if !x.masked(m[0], m[1]) {
			x.addQuoted(x.s[a:b], a, b-a)
		}
		pos = m[1]
	}
}

// angles takes literals in angle brackets such as <nil> or <none>: printed
// placeholders that the code spells exactly so. HTML tags are not terms.
func (x *extractor) angles() {
	for _, m := range reAngle().FindAllStringIndex(x.s, -1) {
		t := x.s[m[0]:m[1]]
		if x.masked(m[0], m[1]) || htmlTags[strings.ToLower(t[1:len(t)-1])] {
			continue
		}
		x.add(t, KindQuoted, m[0], m[1]-m[0], "", "", 0)
	}
}

func (x *extractor) addQuoted(s string, off, length int) {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > maxQuoted {
		return
	}
	if isStop(strings.ToLower(t), true) {
		return
	}
	if strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && !unicode.IsSpace(r) }) < 0 {
		return
	}
	x.add(t, KindQuoted, off, length, "", "", 0)
}

// quoteOpens: the byte before an opening ' is the start, a space, a bracket or
// one of "=,:", or a Python string prefix (u”, b”, r”, f”) after one.
func quoteOpens(s string, i int) bool {
	j := i
	for k := 0; k < 2 && j > 0 && strings.IndexByte("ubrfUBRF", s[j-1]) >= 0; k++ {
		j--
	}
	if j == 0 {
		return true
	}
	return strings.IndexByte(" \t\n\r([{=,:", s[j-1]) >= 0
}

// quoteCloses: the byte after a closing ' is the end, a space, a bracket or
// punctuation.
func quoteCloses(s string, end int) bool {
	if end >= len(s) {
		return true
	}
	return strings.IndexByte(" \t\n\r)]},.:;!?", s[end]) >= 0
}

// paths takes slash-separated paths (and Windows paths). A slash word like
// "and/or" is not a path: a path has an extension, starts at "/", "./", "../"
// or "~/", ends with "/", or has at least two slashes.
func (x *extractor) paths() {
	for _, m := range reWinPath().FindAllStringIndex(x.s, -1) {
		if x.masked(m[0], m[1]) || !leftBoundary(x.s, m[0]) {
			continue
		}
		p := normalizePath(strings.TrimRight(x.s[m[0]:m[1]], ".:;"))
		x.add(p, KindPath, m[0], m[1]-m[0], "", "", 0)
		x.addFileName(p, m[0], m[1]-m[0])
		x.setMask(m[0], m[1])
	}
	for _, m := range rePath().FindAllStringIndex(x.s, -1) {
		a, b := m[0], m[1]
		if x.masked(a, b) || !leftBoundary(x.s, a) {
			continue
		}
		raw := x.s[a:b]
		trimmed := strings.TrimRight(raw, ".-")
		b = a + len(trimmed)
		if !isPath(trimmed) {
			continue
		}
		p := normalizePath(trimmed)
		if p != "/" && strings.HasSuffix(p, "/") {
			p = strings.TrimSuffix(p, "/")
		}
		if p == "" || p == "~" || p == "." || p == ".." {
			continue
		}
		x.add(p, KindPath, a, b-a, "", "", 0)
		x.addFileName(p, a, b-a)
		x.setMask(a, b)
	}
}

func isPath(p string) bool {
	if strings.IndexFunc(p, unicode.IsLetter) < 0 || !strings.Contains(p, "/") {
		return false
	}
	if strings.Contains(p, "//") {
		return false
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "~/") {
		return len(p) > 2
	}
	if strings.HasSuffix(p, "/") || strings.Count(p, "/") >= 2 {
		return true
	}
	base := path.Base(p)
	if i := strings.LastIndexByte(base, '.'); i > 0 && i < len(base)-1 {
		return knownExt[strings.ToLower(base[i+1:])]
	}
	return false
}

// leftBoundary: a match at i does not start in the middle of a word.
func leftBoundary(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '/' || r == '-' || r == '\\')
}

// flags takes "--long-flags" (the name, without dashes, is the term: that is
// how the code defines it).
func (x *extractor) flags() {
	for _, m := range reFlag().FindAllStringSubmatchIndex(x.s, -1) {
		if x.masked(m[0], m[1]) {
			continue
		}
		if m[0] > 0 {
			r, _ := utf8.DecodeLastRuneInString(x.s[:m[0]])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' {
				continue
			}
		}
		x.add(x.s[m[2]:m[3]], KindFlag, m[0], m[1]-m[0], "", "", 0)
		x.setMask(m[0], m[1])
	}
}

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

// bodyStart is the byte offset of the second non-blank line of a goal whose
// first line is followed by more text, or len(goal).
func bodyStart(goal string) int {
	lead := len(goal) - len(strings.TrimLeft(goal, " \t\r\n"))
	i := strings.IndexByte(goal[lead:], '\n')
	if i < 0 || strings.TrimSpace(goal[lead+i:]) == "" {
		return len(goal)
	}
	return lead + i
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
