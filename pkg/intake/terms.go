package intake

import (
	"regexp"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/internal/lazyre"
	"github.com/rtch/rtch/pkg/schema"
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

// Named reports whether a goal term of kind names something checkable in a
// tree (a frame, path, file name, qualified or dotted name, identifier,
// flag, error fragment or quoted text), as a plain word, a part split from
// an identifier, a scope word or an abbreviation does not.
func Named(kind string) bool {
	r, ok := kindRank[kind]
	return ok && r <= kindRank[KindQuoted] && kind != KindScope
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
