package ignore

import "strings"

// Results of the matcher core. Besides a plain match or mismatch, the two
// abort codes let an outer '*' or '**' stop retrying positions that can no
// longer succeed, which keeps matching linear in practice.
const (
	wmMatch           = 0
	wmNoMatch         = 1
	wmAbortAll        = -1
	wmAbortToStarStar = -2
)

// Wildmatch reports whether text matches the shell glob pattern with git's
// wildmatch semantics: '*', '?', bracket classes (with '!' or '^' negation,
// ranges and [:alpha:]-style classes) and backslash escapes. With pathname
// set, '*', '?' and brackets never match '/', and "**" matches across
// directories only where it forms a whole path component ("**/", "/**/",
// "/**"); elsewhere "**" behaves like '*'. Matching is byte-wise and
// case-sensitive, as git's is on Linux.
func Wildmatch(pattern, text string, pathname bool) bool {
	// git's matcher works on C strings: a NUL byte ends the pattern.
	if i := strings.IndexByte(pattern, 0); i >= 0 {
		pattern = pattern[:i]
	}
	return dowild(pattern, text, pathname) == wmMatch
}

// at returns s[i], or 0 past the end, mirroring a NUL-terminated string.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func dowild(p, t string, pathname bool) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		tc := at(t, ti)
		if ti >= len(t) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			// A backslash makes the next byte literal; a trailing
			// backslash compares as NUL and so never matches.
			pi++
			if at(p, pi) != tc {
				return wmNoMatch
			}
		default:
			if tc != pc {
				return wmNoMatch
			}
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for {
					pi++
					if at(p, pi) != '*' {
						break
					}
				}
				switch {
				case !pathname:
					matchSlash = true
				case (prev < 0 || p[prev] == '/') &&
					(pi >= len(p) || p[pi] == '/' || (p[pi] == '\\' && at(p, pi+1) == '/')):
					// "**/" may match no directory at all: try
					// the rest of the pattern right here first.
					if at(p, pi) == '/' && dowild(p[pi+1:], t[ti:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				default:
					matchSlash = false
				}
			} else {
				matchSlash = !pathname
			}
			if pi >= len(p) {
				// Trailing "**" matches everything; a trailing '*'
				// only what has no further slash.
				if !matchSlash && strings.IndexByte(t[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// One '*' followed by '/' eats exactly one path
				// component; the loop step consumes both slashes.
				slash := strings.IndexByte(t[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash
				continue
			}
			for ti < len(t) {
				if !isGlobSpecial(p[pi]) {
					// A literal follows the star: skip straight to
					// its next occurrence (not past a slash unless
					// the star may cross directories).
					lit := p[pi]
					for ti < len(t) && (matchSlash || t[ti] != '/') && t[ti] != lit {
						ti++
					}
					if at(t, ti) != lit {
						return wmNoMatch
					}
				}
				m := dowild(p[pi:], t[ti:], pathname)
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && t[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			pi++
			pc = at(p, pi)
			if pc == '^' {
				pc = '!'
			}
			negated := pc == '!'
			if negated {
				pi++
				pc = at(p, pi)
			}
			var prev byte
			matched := false
			for {
				if pc == 0 {
					return wmAbortAll
				}
				switch {
				case pc == '\\':
					pi++
					pc = at(p, pi)
					if pc == 0 {
						return wmAbortAll
					}
					if tc == pc {
						matched = true
					}
				case pc == '-' && prev != 0 && at(p, pi+1) != 0 && at(p, pi+1) != ']':
					pi++
					pc = p[pi]
					if pc == '\\' {
						pi++
						pc = at(p, pi)
						if pc == 0 {
							return wmAbortAll
						}
					}
					if tc <= pc && tc >= prev {
						matched = true
					}
					pc = 0 // a range cannot start another range
				case pc == '[' && at(p, pi+1) == ':':
					pi += 2
					s := pi
					for pi < len(p) && p[pi] != ']' {
						pi++
					}
					if pi >= len(p) {
						return wmAbortAll
					}
					n := pi - s - 1
					if n < 0 || p[pi-1] != ':' {
						// Not a "[:name:]": the '[' is an ordinary member.
						pi = s - 2
						pc = '['
						if tc == pc {
							matched = true
						}
						break
					}
					in, ok := inClass(p[s:s+n], tc)
					if !ok {
						return wmAbortAll
					}
					if in {
						matched = true
					}
					pc = 0
				default:
					if tc == pc {
						matched = true
					}
				}
				prev = pc
				pi++
				pc = at(p, pi)
				if pc == ']' {
					break
				}
			}
			if matched == negated || (pathname && tc == '/') {
				return wmNoMatch
			}
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// inClass tests c against a POSIX character class in the C locale; ok is
// false for an unknown class name, which makes the whole pattern fail.
func inClass(name string, c byte) (in, ok bool) {
	upper := c >= 'A' && c <= 'Z'
	lower := c >= 'a' && c <= 'z'
	digit := c >= '0' && c <= '9'
	switch name {
	case "alnum":
		return upper || lower || digit, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return lower, true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !upper && !lower && !digit, true
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r'), true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
