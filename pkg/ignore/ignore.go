// Package ignore parses gitignore-style pattern files and matches paths
// against them with git's own rules (dir.c and wildmatch.c semantics):
// comments, blank lines, escaped leading '#' and '!', trailing spaces
// trimmed unless escaped, a trailing CR before LF dropped, a leading UTF-8
// BOM skipped, negation, patterns anchored by any non-trailing '/', the
// directory-only trailing '/', and '**' components.
//
// A List holds the patterns of one file; which lists apply to a path, and
// in which order, is the caller's business (see package walk). Within one
// list the last matching pattern decides, as in git.
package ignore

import (
	"bytes"
	"strings"
)

// Pattern is one parsed line of an ignore file.
type Pattern struct {
	// Line is the 1-based line number in the source file.
	Line int
	// Text is the line as written (after CR and trailing-space trimming).
	Text string
	// Negate is set for a leading '!': a match re-includes the path.
	Negate bool
	// DirOnly is set for a trailing '/': only directories match.
	DirOnly bool
	// Basename is set when the pattern has no '/' (other than a trailing
	// one): it is matched against the last path component at any depth.
	Basename bool

	glob   string // the glob proper: no '!', no leading or trailing '/'
	prefix int    // length of glob's leading run without glob specials
}

// List is the parsed content of one ignore file.
type List struct {
	// Source names the file, for diagnostics ("sub/.gitignore").
	Source string
	// Base is the directory the file applies to, relative to the
	// matching root, '/'-separated, "" for the root itself.
	Base string
	// Patterns in file order.
	Patterns []Pattern
}

// Parse reads the patterns of an ignore file whose directory is base
// (relative to the root paths will be matched against; "" for the root).
func Parse(data []byte, base, source string) *List {
	l := &List{Source: source, Base: strings.Trim(base, "/")}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	line := 0
	for len(data) > 0 {
		line++
		var entry []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			entry, data = data[:i], data[i+1:]
			entry = bytes.TrimSuffix(entry, []byte("\r"))
		} else {
			entry, data = data, nil
		}
		if len(entry) == 0 || entry[0] == '#' {
			continue
		}
		if i := bytes.IndexByte(entry, 0); i >= 0 {
			entry = entry[:i]
		}
		text := trimTrailingSpaces(string(entry))
		if p, ok := NewPattern(text); ok {
			p.Line = line
			l.Patterns = append(l.Patterns, p)
		}
	}
	return l
}

// NewPattern parses one pattern line (no comment or blank-line handling
// beyond reporting ok=false for a pattern that can never match).
func NewPattern(text string) (Pattern, bool) {
	p := Pattern{Text: text}
	g := text
	if strings.HasPrefix(g, "!") {
		p.Negate = true
		g = g[1:]
	}
	if strings.HasSuffix(g, "/") {
		p.DirOnly = true
		g = g[:len(g)-1]
	}
	p.Basename = !strings.Contains(g, "/")
	if !p.Basename {
		g = strings.TrimPrefix(g, "/")
	}
	if g == "" {
		return p, false
	}
	p.glob = g
	p.prefix = len(g)
	for i := 0; i < len(g); i++ {
		if isGlobSpecial(g[i]) {
			p.prefix = i
			break
		}
	}
	return p, true
}

// trimTrailingSpaces drops trailing spaces unless the first of them is
// escaped by a backslash; tabs are kept, as git keeps them.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// Matches reports whether the pattern matches path (relative to the
// matching root, '/'-separated, no trailing slash) for a list whose
// directory is base. isDir tells whether path is a directory.
func (p *Pattern) Matches(base, path string, isDir bool) bool {
	if p.DirOnly && !isDir {
		return false
	}
	if p.Basename {
		name := path
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			name = path[i+1:]
		}
		if p.prefix == len(p.glob) {
			return name == p.glob
		}
		return Wildmatch(p.glob, name, true)
	}
	// Anchored: the path must lie under base; the glob is matched
	// against the remainder, its literal prefix compared first exactly
	// as git does (which matters for a "**" right after that prefix).
	name := path
	if base != "" {
		if len(path) <= len(base) || path[len(base)] != '/' || path[:len(base)] != base {
			return false
		}
		name = path[len(base)+1:]
	}
	g := p.glob
	if p.prefix > 0 {
		if p.prefix > len(name) || name[:p.prefix] != g[:p.prefix] {
			return false
		}
		g, name = g[p.prefix:], name[p.prefix:]
		if g == "" && name == "" {
			return true
		}
	}
	return Wildmatch(g, name, true)
}

// Match returns the last pattern of the list that matches path, or nil.
// path is relative to the matching root; only paths under the list's Base
// can match its patterns.
func (l *List) Match(path string, isDir bool) *Pattern {
	if l == nil {
		return nil
	}
	if l.Base != "" && !(len(path) > len(l.Base) && path[len(l.Base)] == '/' && strings.HasPrefix(path, l.Base)) {
		return nil
	}
	for i := len(l.Patterns) - 1; i >= 0; i-- {
		if l.Patterns[i].Matches(l.Base, path, isDir) {
			return &l.Patterns[i]
		}
	}
	return nil
}
