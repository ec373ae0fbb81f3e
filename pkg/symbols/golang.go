package symbols

import "bytes"

// goSymbols reads gofmt-laid-out Go: top-level declarations begin in column
// 0 ("func", "type", "const", "var"), grouped specs ("type (", "const (",
// "var (") hold one spec per line indented by one tab, and the group ends
// with ")" in column 0. Multi-line raw strings are tracked so their content
// is never read as a declaration.
func goSymbols(out []Symbol, src []byte) []Symbol {
	group := "" // "type", "const" or "var" inside a grouped declaration
	inRaw, inComment := false, false
	// Most files have no raw string at all: then no line needs looking at
	// for a backquote.
	ticks := bytes.IndexByte(src, '`') >= 0
	forLines(src, func(no int, line []byte) {
		if inComment {
			if bytes.Contains(line, []byte("*/")) {
				inComment = false
			}
			return
		}
		if bytes.HasPrefix(line, []byte("/*")) && !bytes.Contains(line, []byte("*/")) {
			inComment = true
			return
		}
		if inRaw {
			i := bytes.IndexByte(line, '`')
			if i < 0 {
				return
			}
			inRaw = rawToggles(line[i+1:])%2 == 1
			return
		}
		if ticks && bytes.IndexByte(line, '`') >= 0 && rawToggles(line)%2 == 1 {
			inRaw = true
		}
		if group != "" {
			if len(line) > 0 && line[0] == ')' {
				group = ""
				return
			}
			// One tab of indent: a spec. Deeper lines belong to a spec's body.
			if len(line) > 1 && line[0] == '\t' && isIdentStart(line[1]) {
				for _, n := range goSpecNames(line[1:]) {
					out = append(out, Symbol{Name: n, Kind: group, Line: no})
				}
			}
			return
		}
		if len(line) == 0 {
			return
		}
		switch line[0] {
		case 'f':
			rest, ok := cutWord(line, "func")
			if !ok {
				return
			}
			if len(rest) > 0 && rest[0] == '(' {
				recv, after := goReceiver(rest)
				if n := ident(skipSpace(after)); n != "" {
					out = append(out, Symbol{Name: n, Kind: "method", Line: no, Container: recv})
				}
				return
			}
			if n := ident(rest); n != "" {
				out = append(out, Symbol{Name: n, Kind: "func", Line: no})
			}
		case 't', 'c', 'v':
			for _, kw := range [...]string{"type", "const", "var"} {
				rest, ok := cutWord(line, kw)
				if !ok {
					continue
				}
				if len(rest) > 0 && rest[0] == '(' {
					if len(skipSpace(rest[1:])) == 0 {
						group = kw
					} else if n := goSpecNames(skipSpace(rest[1:])); len(n) > 0 && rest[len(rest)-1] == ')' {
						// "var ( x = 1 )" on one line.
						for _, s := range n {
							out = append(out, Symbol{Name: s, Kind: kw, Line: no})
						}
					}
					return
				}
				for _, n := range goSpecNames(rest) {
					out = append(out, Symbol{Name: n, Kind: kw, Line: no})
				}
				return
			}
		}
	})
	return out
}

// goSpecNames returns the names a spec line declares: "A, B = 1, 2" gives A
// and B; "T struct {" gives T; "T = U" (alias) gives T.
func goSpecNames(b []byte) []string {
	var names []string
	for {
		n := ident(b)
		if n == "" || n == "_" {
			if n == "_" {
				b = skipSpace(b[1:])
				if len(b) > 0 && b[0] == ',' {
					b = skipSpace(b[1:])
					continue
				}
			}
			return names
		}
		names = append(names, n)
		b = skipSpace(b[len(n):])
		if len(b) > 0 && b[0] == ',' {
			b = skipSpace(b[1:])
			continue
		}
		return names
	}
}

// goReceiver parses "(r *T[K]) Name(" and returns T and the text after the
// receiver's closing parenthesis.
func goReceiver(b []byte) (string, []byte) {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return goRecvType(b[1:i]), b[i+1:]
			}
		}
	}
	return "", nil
}

func goRecvType(b []byte) string {
	// Last identifier before any '[' of type parameters, skipping '*'.
	var last string
	for len(b) > 0 {
		b = skipSpace(b)
		if len(b) == 0 || b[0] == '[' {
			break
		}
		if b[0] == '*' {
			b = b[1:]
			continue
		}
		n := ident(b)
		if n == "" {
			b = b[1:]
			continue
		}
		last = n
		b = b[len(n):]
	}
	return last
}

// rawToggles counts backquotes on a line that open or close raw strings:
// those outside interpreted strings, rune literals and line comments.
func rawToggles(line []byte) int {
	n := 0
	inStr := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if inStr != 0 {
			if c == '\\' && inStr != '`' {
				i++
			} else if c == inStr {
				if c == '`' {
					n++
				}
				inStr = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			inStr = c
		case '`':
			n++
			inStr = '`'
		case '/':
			if i+1 < len(line) && line[i+1] == '/' {
				return n
			}
		}
	}
	return n
}
