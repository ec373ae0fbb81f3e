package intake

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
