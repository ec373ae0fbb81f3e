package codegraph

import (
	"strings"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// pyLine is one logical line of Python: continuation lines joined, string
// contents and comments blanked.
type pyLine struct {
	no     int // first physical line
	last   int // last physical line
	indent int
	code   string
}

// pyLogical splits src into logical lines. Strings keep their quotes but
// lose their contents, so a call inside a string is not a call; a line
// continues while a bracket is open, after a backslash, or inside a
// triple-quoted string.
func pyLogical(src []byte) []pyLine {
	var out []pyLine
	var cur strings.Builder
	depth, quote, tripled := 0, byte(0), false
	start, indent, atStart := 1, 0, true
	line := 1
	flush := func(last int) {
		code := strings.TrimSpace(cur.String())
		if code != "" {
			out = append(out, pyLine{no: start, last: last, indent: indent, code: code})
		}
		cur.Reset()
		atStart = true
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if atStart && quote == 0 {
			if c == ' ' || c == '\t' {
				indent++
				if c == '\t' {
					indent += 7
				}
				continue
			}
			atStart = false
			start = line
		}
		if c == '\n' {
			line++
			if quote != 0 && !tripled {
				quote = 0 // an unterminated string ends with its line
			}
			if quote == 0 && depth == 0 {
				if s := cur.String(); strings.HasSuffix(s, "\\") {
					cur.Reset()
					cur.WriteString(strings.TrimSuffix(s, "\\"))
					cur.WriteByte(' ')
					continue
				}
				flush(line - 1)
				indent = 0
				continue
			}
			cur.WriteByte(' ')
			continue
		}
		switch {
		case quote != 0:
			if c == '\\' {
				i++
				continue
			}
			if c == quote && (!tripled || (i+2 < len(src) && src[i+1] == quote && src[i+2] == quote)) {
				if tripled {
					i += 2
				}
				cur.WriteByte(c)
				quote = 0
			}
		case c == '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			quote, tripled = c, i+2 < len(src) && src[i+1] == c && src[i+2] == c
			if tripled {
				i += 2
			}
			cur.WriteByte(c)
		case c == '(' || c == '[' || c == '{':
			depth++
			cur.WriteByte(c)
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			cur.WriteByte(c)
		case c == '\r':
		default:
			cur.WriteByte(c)
		}
	}
	flush(line)
	return out
}

var (
	pyDef    = lazyre.New(`^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*[\(\[]`)
	pyClass  = lazyre.New(`^class\s+([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:\((.*)\))?\s*:`)
	pyImport = lazyre.New(`^import\s+(.+)$`)
	pyFrom   = lazyre.New(`^from\s+(\.*[\w.]*)\s+import\s+(.+)$`)
	pyAssign = lazyre.New(`^([A-Za-z_]\w*)\s*(?::[^=]+)?=[^=]`)
	pyCall   = lazyre.New(`([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\(`)
	pyName   = lazyre.New(`^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$`)
)

// pyKeywords are words a call pattern must not take for a callee.
var pyKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`and as assert async await break class continue def del elif else except
		finally for from global if import in is lambda nonlocal not or pass raise return try while with yield
		print exec match case`) {
		pyKeywords[k] = true
	}
}

type pyScope struct {
	indent int
	def    int  // index into Facts.Defs, -1 for a nested function
	class  bool // a class body
	key    string
}

// extractPython reads definitions, imports and call names line by line.
func extractPython(f *Facts, src []byte) {
	var stack []pyScope
	closeTo := func(indent, last int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			if d := stack[len(stack)-1].def; d >= 0 {
				f.Defs[d].End = max(f.Defs[d].End, last)
			}
			stack = stack[:len(stack)-1]
		}
	}
	lines := strings.Split(string(src), "\n")
	firstLine := func(no int) string { return lines[no-1] }
	lastCode := 0
	for _, l := range pyLogical(src) {
		closeTo(l.indent, lastCode)
		lastCode = l.last
		from, inClass, nested := "", "", false
		for _, s := range stack {
			if s.def < 0 {
				nested = true
			}
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			from = nearestKey(stack)
			if top.class {
				inClass = top.key
			}
		}
		code := strings.TrimSpace(strings.TrimPrefix(l.code, "@"))
		switch {
		case pyDef().MatchString(code):
			name := pyDef().FindStringSubmatch(code)[1]
			if nested || (len(stack) > 0 && inClass == "") {
				stack = append(stack, pyScope{indent: l.indent, def: -1})
				pyCalls(f, from, code[strings.Index(code, "("):], l.no)
				continue
			}
			d := Def{Name: name, Kind: "func", Start: l.no, End: l.last, Signature: signature(firstLine(l.no))}
			if inClass != "" {
				d.Kind, d.Container = "method", inClass
			}
			f.Defs = append(f.Defs, d)
			stack = append(stack, pyScope{indent: l.indent, def: len(f.Defs) - 1, key: d.Key()})
			pyCalls(f, d.Key(), code[strings.Index(code, "("):], l.no)
		case pyClass().MatchString(code):
			m := pyClass().FindStringSubmatch(code)
			if nested || (len(stack) > 0 && inClass == "") {
				stack = append(stack, pyScope{indent: l.indent, def: -1})
				continue
			}
			d := Def{Name: m[1], Kind: "class", Start: l.no, End: l.last, Signature: signature(firstLine(l.no)), Container: inClass}
			f.Defs = append(f.Defs, d)
			stack = append(stack, pyScope{indent: l.indent, def: len(f.Defs) - 1, class: true, key: d.Key()})
			for _, b := range strings.Split(m[2], ",") {
				b = strings.TrimSpace(b)
				if pyName().MatchString(b) && b != "object" {
					q, n := splitLast(b)
					f.Uses = append(f.Uses, Use{From: d.Key(), Qual: q, Name: n, Kind: UseInherit, Line: l.no})
				}
			}
		case pyImport().MatchString(code):
			for _, part := range strings.Split(pyImport().FindStringSubmatch(code)[1], ",") {
				mod, alias, _ := strings.Cut(strings.TrimSpace(part), " as ")
				mod = strings.TrimSpace(mod)
				if pyName().MatchString(mod) {
					f.Imports = append(f.Imports, Import{Spec: mod, Alias: strings.TrimSpace(alias), Line: l.no})
				}
			}
		case pyFrom().MatchString(code):
			m := pyFrom().FindStringSubmatch(code)
			var names []string
			for _, part := range strings.Split(strings.Trim(strings.TrimSpace(m[2]), "()"), ",") {
				part = strings.Join(strings.Fields(part), " ")
				if part != "" {
					names = append(names, part)
				}
			}
			f.Imports = append(f.Imports, Import{Spec: m[1], Names: names, Line: l.no})
		default:
			if len(stack) == 0 {
				if m := pyAssign().FindStringSubmatch(code); m != nil {
					f.Defs = append(f.Defs, Def{Name: m[1], Kind: "var", Start: l.no, End: l.last, Signature: signature(firstLine(l.no))})
				}
			}
			pyCalls(f, from, code, l.no)
		}
	}
	closeTo(-1, lastCode)
}

func nearestKey(stack []pyScope) string {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].def >= 0 {
			return stack[i].key
		}
	}
	return ""
}

// pyCalls records every name called in code.
func pyCalls(f *Facts, from, code string, line int) {
	for _, m := range pyCall().FindAllStringSubmatchIndex(code, -1) {
		if m[2] > 0 {
			// A call on a value (x().y(), "s".join()) qualifies nothing.
			if p := code[m[2]-1]; p == '.' || p == ')' || p == ']' || p == '"' || p == '\'' {
				continue
			}
		}
		name := strings.Join(strings.Fields(code[m[2]:m[3]]), "")
		name = strings.ReplaceAll(name, " ", "")
		first, _, _ := strings.Cut(name, ".")
		if pyKeywords[first] {
			continue
		}
		q, n := splitLast(name)
		f.Uses = append(f.Uses, Use{From: from, Qual: q, Name: n, Kind: UseCall, Line: line})
	}
}

func splitLast(s string) (string, string) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return "", s
	}
	return s[:i], s[i+1:]
}
