package symbols

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// A lineRule is a pattern tried on lines that pass a cheap prefilter; group
// Name of the pattern holds the defined name.
type lineRule struct {
	kind string
	re   *regexp.Regexp
}

// rules are the patterns, compiled by the first call (a binary that finds
// no symbols of the language does not pay for them).
func rules(kindPatterns ...string) func() []lineRule {
	return sync.OnceValue(func() []lineRule {
		var rs []lineRule
		for i := 0; i+1 < len(kindPatterns); i += 2 {
			rs = append(rs, lineRule{kindPatterns[i], regexp.MustCompile(kindPatterns[i+1])})
		}
		return rs
	})
}

// apply returns the first rule's match on line.
func apply(rs []lineRule, line []byte) (name, kind string) {
	for _, r := range rs {
		m := r.re.FindSubmatch(line)
		if m == nil {
			continue
		}
		i := r.re.SubexpIndex("name")
		if i > 0 && len(m[i]) > 0 {
			return string(m[i]), r.kind
		}
	}
	return "", ""
}

func hasAny(line []byte, words ...string) bool {
	for _, w := range words {
		if bytes.Contains(line, []byte(w)) {
			return true
		}
	}
	return false
}

// --- Python -----------------------------------------------------------------

var pyRules = rules(
	"func", `^(?P<indent>\s*)(?:async\s+)?def\s+(?P<name>[A-Za-z_]\w*)\s*[\(\[]`,
	"class", `^\s*class\s+(?P<name>[A-Za-z_]\w*)\s*[\(:\[]`,
	"var", `^(?P<name>[A-Za-z_]\w*)\s*(?::[^=]+)?=[^=]`,
)

func pythonSymbols(out []Symbol, src []byte) []Symbol {
	inDoc := ""
	var classes []struct {
		indent int
		name   string
	}
	forLines(src, func(no int, line []byte) {
		if inDoc != "" {
			if bytes.Count(line, []byte(inDoc))%2 == 1 {
				inDoc = ""
			}
			return
		}
		for _, q := range [...]string{`"""`, `'''`} {
			if bytes.Count(line, []byte(q))%2 == 1 {
				inDoc = q
			}
		}
		t := skipSpace(line)
		if len(t) == 0 || t[0] == '#' {
			return
		}
		indent := len(line) - len(t)
		for len(classes) > 0 && indent <= classes[len(classes)-1].indent {
			classes = classes[:len(classes)-1]
		}
		if !(bytes.HasPrefix(t, []byte("def ")) || bytes.HasPrefix(t, []byte("async ")) ||
			bytes.HasPrefix(t, []byte("class ")) || (indent == 0 && bytes.IndexByte(t, '=') > 0)) {
			return
		}
		name, kind := apply(pyRules(), line)
		if name == "" || (kind == "var" && (name == "if" || name == "else")) {
			return
		}
		s := Symbol{Name: name, Kind: kind, Line: no}
		if len(classes) > 0 {
			s.Container = classes[len(classes)-1].name
			if kind == "func" {
				s.Kind = "method"
			}
		}
		if kind == "var" && s.Container == "" && indent > 0 {
			return
		}
		out = append(out, s)
		if kind == "class" {
			classes = append(classes, struct {
				indent int
				name   string
			}{indent, name})
		}
	})
	return out
}

// --- JavaScript / TypeScript -------------------------------------------------

var jsRules = rules(
	"func", `^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*(?P<name>[A-Za-z_$][\w$]*)`,
	"class", `^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+(?P<name>[A-Za-z_$][\w$]*)`,
	"interface", `^\s*(?:export\s+)?(?:declare\s+)?interface\s+(?P<name>[A-Za-z_$][\w$]*)`,
	"type", `^\s*(?:export\s+)?(?:declare\s+)?type\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*=`,
	"enum", `^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+(?P<name>[A-Za-z_$][\w$]*)`,
	"func", `^\s*(?:export\s+)?(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)`,
	"var", `^(?:export\s+)?(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=`,
	"func", `^\s*(?P<name>[A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?function\b`,
	"method", `^\s+(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*\*?(?P<name>[A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\s*\([^;]*\)\s*(?::\s*[^={;]+)?\{\s*$`,
)

var jsKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"return": true, "function": true, "with": true, "else": true, "do": true, "try": true, "new": true,
	"typeof": true, "await": true, "super": true, "constructor": false}

func jsSymbols(out []Symbol, src []byte) []Symbol {
	forCodeLines(src, func(no int, line, t []byte) {
		if t[0] == '*' || t[0] == '}' || t[0] == '.' {
			return
		}
		if !hasAny(line, "function", "class", "interface", "type", "enum", "const", "let", "var", "(") {
			return
		}
		name, kind := apply(jsRules(), line)
		if name == "" || jsKeywords[name] {
			return
		}
		out = append(out, Symbol{Name: name, Kind: kind, Line: no})
	})
	return out
}

// --- Rust --------------------------------------------------------------------

var rustRules = rules(
	"func", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+(?P<name>[A-Za-z_]\w*)`,
	"struct", `^\s*(?:pub(?:\([^)]*\))?\s+)?struct\s+(?P<name>[A-Za-z_]\w*)`,
	"enum", `^\s*(?:pub(?:\([^)]*\))?\s+)?enum\s+(?P<name>[A-Za-z_]\w*)`,
	"trait", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:auto\s+)?trait\s+(?P<name>[A-Za-z_]\w*)`,
	"type", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:union|type)\s+(?P<name>[A-Za-z_]\w*)`,
	"module", `^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(?P<name>[A-Za-z_]\w*)`,
	"macro", `^\s*macro_rules!\s*(?P<name>[A-Za-z_]\w*)`,
	"const", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?(?P<name>[A-Za-z_]\w*)\s*:`,
	"impl", `^\s*(?:unsafe\s+)?impl(?:\s*<[^{]*?>)?\s+(?:[\w:<>, ]+?\s+for\s+)?(?P<name>[A-Za-z_]\w*)`,
)

func rustSymbols(out []Symbol, src []byte) []Symbol {
	forLines(src, func(no int, line []byte) {
		t := skipSpace(line)
		if len(t) == 0 || bytes.HasPrefix(t, []byte("//")) {
			return
		}
		if !hasAny(t, "fn ", "struct ", "enum ", "trait ", "type ", "union ", "mod ", "macro_rules!", "const ", "static ", "impl") {
			return
		}
		if name, kind := apply(rustRules(), line); name != "" {
			out = append(out, Symbol{Name: name, Kind: kind, Line: no})
		}
	})
	return out
}

// --- Java --------------------------------------------------------------------

var javaRules = rules(
	"class", `^\s*(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp)\s+)*(?:class|record)\s+(?P<name>[A-Za-z_$][\w$]*)`,
	"interface", `^\s*(?:(?:public|protected|private|static|abstract|sealed|non-sealed)\s+)*@?interface\s+(?P<name>[A-Za-z_$][\w$]*)`,
	"enum", `^\s*(?:(?:public|protected|private|static|final)\s+)*enum\s+(?P<name>[A-Za-z_$][\w$]*)`,
	"method", `^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|protected|private|static|final|abstract|synchronized|native|default|strictfp)\s+)*(?:<[^>]+>\s+)?[\w$.]+(?:<[^()]*>)?(?:\[\])*\s+(?P<name>[A-Za-z_$][\w$]*)\s*\([^;]*$`,
	"method", `^\s*(?:public|protected|private)\s+(?P<name>[A-Z][\w$]*)\s*\([^;]*$`,
)

var javaKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"return": true, "new": true, "else": true, "throw": true, "synchronized": true, "try": true, "do": true}

func javaSymbols(out []Symbol, src []byte) []Symbol {
	forCodeLines(src, func(no int, line, t []byte) {
		if t[0] == '*' || t[0] == '}' || t[0] == '@' && !bytes.Contains(t, []byte("interface")) {
			return
		}
		first := ident(t)
		if javaKeywords[first] || first == "" {
			return
		}
		if name, kind := apply(javaRules(), line); name != "" && !javaKeywords[name] {
			out = append(out, Symbol{Name: name, Kind: kind, Line: no})
		}
	})
	return out
}

// --- C / C++ -----------------------------------------------------------------

var cRules = rules(
	"macro", `^\s*#\s*define\s+(?P<name>[A-Za-z_]\w*)`,
	"type", `^\s*(?:typedef\s+)?(?:template\s*<[^>]*>\s*)?(?:struct|union|enum(?:\s+class)?|class)\s+(?:\w+\s+)*?(?P<name>[A-Za-z_]\w*)\s*(?:final\s*)?(?::[^;{]*)?(?:\{.*)?$`,
	"typedef", `^\s*typedef\b[^;]*\(\s*\*\s*(?P<name>[A-Za-z_]\w*)\s*\)`,
	"typedef", `^\s*typedef\b[^;(]*?\b(?P<name>[A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;`,
	"typedef", `^\s*\}\s*(?P<name>[A-Za-z_]\w*)\s*;`,
)

var cKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true,
	"else": true, "do": true, "sizeof": true, "case": true, "goto": true, "typedef": true, "static_assert": true}

func cSymbols(out []Symbol, src []byte) []Symbol {
	typedefBlock := false
	// Function definitions need to look ahead for "{" before ";", so keep
	// the offsets of each line.
	var starts []int
	off := 0
	for {
		starts = append(starts, off)
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	forCodeLines(src, func(no int, line, t []byte) {
		if bytes.HasPrefix(t, []byte("typedef")) && bytes.HasSuffix(bytes.TrimSpace(t), []byte("{")) {
			typedefBlock = true
		}
		if t[0] == '}' {
			if typedefBlock {
				if name, kind := apply(cRules()[4:], line); name != "" {
					out = append(out, Symbol{Name: name, Kind: kind, Line: no})
				}
				typedefBlock = false
			}
			return
		}
		if t[0] == '#' || hasAny(t, "struct", "union", "enum", "class", "typedef") {
			if name, kind := apply(cRules()[:4], line); name != "" {
				out = append(out, Symbol{Name: name, Kind: kind, Line: no})
				return
			}
		}
		// Function definitions start in column 0.
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			return
		}
		if name := cFuncName(line); name != "" && no-1 < len(starts) && cIsDefinition(src[starts[no-1]:]) {
			out = append(out, Symbol{Name: name, Kind: "func", Line: no})
		}
	})
	return out
}

// cFuncName returns the (possibly qualified) name before the first '(' on a
// column-0 line, or "".
func cFuncName(line []byte) string {
	p := bytes.IndexByte(line, '(')
	if p <= 0 || bytes.IndexByte(line[:p], '=') >= 0 || bytes.IndexByte(line[:p], '"') >= 0 {
		return ""
	}
	head := bytes.TrimRight(line[:p], " \t")
	i := len(head)
	for i > 0 && (isIdent(head[i-1]) || head[i-1] == ':' || head[i-1] == '~') {
		i--
	}
	name := string(head[i:])
	for len(name) > 0 && name[0] == ':' {
		name = name[1:]
	}
	if j := bytes.LastIndex([]byte(name), []byte("::")); j >= 0 {
		name = name[j+2:]
	}
	if name == "" || cKeywords[name] || cKeywords[ident(line)] || !isIdentStart(name[0]) {
		return ""
	}
	return name
}

// cIsDefinition reports whether the declaration starting at b reaches "{"
// before ";" within a few lines (a definition, not a prototype).
func cIsDefinition(b []byte) bool {
	if len(b) > 2048 {
		b = b[:2048]
	}
	depth := 0
	for _, c := range b {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth <= 0 {
				return false
			}
		case '{':
			return depth <= 0
		case '=':
			if depth <= 0 {
				return false
			}
		}
	}
	return false
}

// --- Ruby --------------------------------------------------------------------

var rubyRules = rules(
	"method", `^\s*def\s+(?:self\.)?(?P<name>[A-Za-z_]\w*[?!=]?)`,
	"class", `^\s*class\s+(?:[A-Z]\w*::)*(?P<name>[A-Z]\w*)`,
	"module", `^\s*module\s+(?:[A-Z]\w*::)*(?P<name>[A-Z]\w*)`,
	"const", `^\s*(?P<name>[A-Z][A-Z0-9_]*)\s*=[^=~]`,
)

var rubyAttr = lazyre.New(`:([A-Za-z_]\w*)`)

func rubySymbols(out []Symbol, src []byte) []Symbol {
	inDoc := false
	forLines(src, func(no int, line []byte) {
		if inDoc {
			if bytes.HasPrefix(line, []byte("=end")) {
				inDoc = false
			}
			return
		}
		if bytes.HasPrefix(line, []byte("=begin")) {
			inDoc = true
			return
		}
		t := skipSpace(line)
		if len(t) == 0 || t[0] == '#' {
			return
		}
		if rest, ok := cutWord(t, "attr_accessor"); ok {
			out = appendAttrs(out, rest, no)
			return
		}
		if rest, ok := cutWord(t, "attr_reader"); ok {
			out = appendAttrs(out, rest, no)
			return
		}
		if rest, ok := cutWord(t, "attr_writer"); ok {
			out = appendAttrs(out, rest, no)
			return
		}
		if name, kind := apply(rubyRules(), line); name != "" {
			out = append(out, Symbol{Name: name, Kind: kind, Line: no})
		}
	})
	return out
}

func appendAttrs(out []Symbol, rest []byte, no int) []Symbol {
	for _, m := range rubyAttr().FindAllSubmatch(rest, -1) {
		out = append(out, Symbol{Name: string(m[1]), Kind: "attr", Line: no})
	}
	return out
}

// forCodeLines calls fn for each line of C-family source (C, C++, Java,
// JavaScript/TypeScript) that is not blank, not a // comment and not inside a
// /* … */ block comment; t is the line without its leading space.
func forCodeLines(src []byte, fn func(no int, line, t []byte)) {
	inComment := false
	forLines(src, func(no int, line []byte) {
		t := skipSpace(line)
		if inComment {
			if bytes.Contains(line, []byte("*/")) {
				inComment = false
			}
			return
		}
		if bytes.HasPrefix(t, []byte("/*")) && !bytes.Contains(t, []byte("*/")) {
			inComment = true
			return
		}
		if len(t) == 0 || bytes.HasPrefix(t, []byte("//")) {
			return
		}
		fn(no, line, t)
	})
}
