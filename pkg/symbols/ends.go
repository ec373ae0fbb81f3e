package symbols

import "bytes"

// MaxBody is how many lines End reads past a definition's head before it
// gives up: a longer body is not one a reader takes in at once.
const MaxBody = 400

// End returns the last line of the definition whose head is on line head
// (1-based) of a file in language lang, given as its lines without
// terminators; 0 when the language has no rule, or the end is not found
// within MaxBody lines. Like the extractors it builds no syntax tree: braces
// are matched outside strings and comments (Go, C, C++, Java, JavaScript,
// TypeScript, Rust), Python's body is the lines indented deeper than the
// head once its parentheses close, Ruby's the lines down to the "end" at
// the head's indentation.
func End(lang string, lines [][]byte, head int) int {
	return endWithin(lang, lines, head, MaxBody)
}

// endWithin is End looking at most body lines past the head.
func endWithin(lang string, lines [][]byte, head, body int) int {
	if head < 1 || head > len(lines) {
		return 0
	}
	switch lang {
	case "go", "c", "cpp", "java", "javascript", "typescript", "rust":
		return braceEnd(lang, lines, head, body)
	case "python":
		return pythonEnd(lines, head, body)
	case "ruby":
		return rubyEnd(lines, head, body)
	}
	return 0
}

// braceEnd matches the first brace block that opens at or after the head,
// outside parentheses and brackets; a ";" at depth 0 before any brace ends a declaration
// without a body.
func braceEnd(lang string, lines [][]byte, head, body int) int {
	sc := braceScanner{goSemi: lang == "go"}
	last := min(len(lines), head+body)
	for n := head; n <= last; n++ {
		switch sc.line(lines[n-1]) {
		case blockClosed, bodiless:
			return n
		}
	}
	return 0
}

type braceState int

const (
	open braceState = iota
	blockClosed
	bodiless
)

// braceScanner counts braces across lines, skipping string, character and
// comment text; raw (backquoted) strings and block comments may span lines.
type braceScanner struct {
	depth   int
	parens  int // braces inside parentheses or brackets (a parameter's struct{}, a type parameter's interface{ M() }, a closure argument) are not the block
	opened  bool
	inBlock bool // inside /* */
	inRaw   bool // inside `...`
	// goSemi: a line that Go's semicolon rule ends before any brace ends a
	// declaration without a body (a function written in assembly).
	goSemi bool
}

func (b *braceScanner) line(l []byte) braceState {
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case b.inBlock:
			if c == '*' && i+1 < len(l) && l[i+1] == '/' {
				b.inBlock = false
				i++
			}
		case b.inRaw:
			if c == '`' {
				b.inRaw = false
			}
		case c == '/' && i+1 < len(l) && l[i+1] == '/':
			return open
		case c == '/' && i+1 < len(l) && l[i+1] == '*':
			b.inBlock = true
			i++
		case c == '`':
			b.inRaw = true
		case c == '"':
			i = skipQuoted(l, i, '"')
		case c == '\'':
			// A character literal ('x', '\n'); otherwise a Rust lifetime
			// or label, which is only the quote.
			if i+2 < len(l) && (l[i+2] == '\'' || l[i+1] == '\\') {
				i = skipQuoted(l, i, '\'')
			}
		case c == '(' || c == '[':
			b.parens++
		case c == ')' || c == ']':
			b.parens = max(0, b.parens-1)
		case b.parens > 0:
		case c == '{' && i+1 < len(l) && l[i+1] == '}' && emptyType(l[:i]):
			i++ // struct{}, interface{}: a type, not the block
		case c == '{':
			b.depth++
			b.opened = true
		case c == '}':
			b.depth--
			if b.opened && b.depth <= 0 {
				return blockClosed
			}
		case c == ';' && !b.opened && b.depth == 0:
			return bodiless
		}
	}
	if b.goSemi && !b.opened && b.parens == 0 && !b.inBlock && !b.inRaw && goStatementEnd(l) {
		return bodiless
	}
	return open
}

// emptyType reports whether the text before a "{}" ends in struct or
// interface.
func emptyType(before []byte) bool {
	before = bytes.TrimRight(before, " \t")
	return bytes.HasSuffix(before, []byte("struct")) || bytes.HasSuffix(before, []byte("interface"))
}

// goStatementEnd reports whether Go inserts a semicolon after line l: it
// ends, before any comment, in an identifier, a number, ")" or "]".
func goStatementEnd(l []byte) bool {
	if i := bytes.Index(l, []byte("//")); i >= 0 {
		l = l[:i]
	}
	l = bytes.TrimRight(l, " \t\r")
	if len(l) == 0 {
		return false
	}
	c := l[len(l)-1]
	return isIdent(c) || c == ')' || c == ']'
}

// skipQuoted returns the index of the quote that closes the literal opening
// at i (the line's last index when it does not close on the line).
func skipQuoted(l []byte, i int, q byte) int {
	for j := i + 1; j < len(l); j++ {
		switch l[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return len(l) - 1
}

// pythonEnd: the head ends where its brackets close; the body is every line
// after it indented deeper than the head, blank lines and lines inside a
// triple-quoted string included; the end is the body's last non-blank line.
func pythonEnd(lines [][]byte, head, body int) int {
	indent := indentOf(lines[head-1])
	last := min(len(lines), head+body)
	n, depth := head, 0
	for ; n <= last; n++ {
		depth += bracketDelta(lines[n-1])
		if depth <= 0 {
			break
		}
	}
	end, doc := n, ""
	for n++; n <= last; n++ {
		l := lines[n-1]
		if doc != "" {
			if bytes.Count(l, []byte(doc))%2 == 1 {
				doc = ""
			}
			end = n
			continue
		}
		t := bytes.TrimSpace(l)
		if len(t) == 0 {
			continue
		}
		if indentOf(l) <= indent {
			return end
		}
		for _, q := range [...]string{`"""`, `'''`} {
			if bytes.Count(l, []byte(q))%2 == 1 {
				doc = q
			}
		}
		end = n
	}
	if n > len(lines) {
		return end
	}
	return 0
}

// bracketDelta is the change in bracket depth over a Python line, outside
// strings and the comment.
func bracketDelta(l []byte) int {
	d := 0
	for i := 0; i < len(l); i++ {
		switch c := l[i]; c {
		case '#':
			return d
		case '"', '\'':
			i = skipQuoted(l, i, c)
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
		}
	}
	return d
}

// rubyEnd: the first later non-blank line indented no deeper than the head
// ends it; if it is the head's "end", that line is the last.
func rubyEnd(lines [][]byte, head, body int) int {
	indent := indentOf(lines[head-1])
	if t := bytes.TrimSpace(lines[head-1]); bytes.HasSuffix(t, []byte(" end")) || bytes.HasSuffix(t, []byte(";end")) {
		return head
	}
	end := head
	for n := head + 1; n <= min(len(lines), head+body); n++ {
		t := bytes.TrimSpace(lines[n-1])
		if len(t) == 0 {
			continue
		}
		if indentOf(lines[n-1]) <= indent {
			if bytes.Equal(t, []byte("end")) || bytes.HasPrefix(t, []byte("end ")) {
				return n
			}
			return end
		}
		end = n
	}
	return 0
}

// indentOf counts a line's leading blanks, a tab as eight.
func indentOf(l []byte) int {
	n := 0
	for _, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		default:
			return n
		}
	}
	return n
}
