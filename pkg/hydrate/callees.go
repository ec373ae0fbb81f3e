package hydrate

import (
	"sort"

	"github.com/rtch/rtch/pkg/symbols"
)

// Callee windows: the change a goal asks for is often in a helper of the
// code that names the goal's words, and the helper never names them itself
// (gojq's delpaths calls update, whose body is the fix; requests'
// prepare_request calls merge_setting). So after a top surface's first
// window, the definitions in the same file of the functions that window
// calls get windows of their own, before the ranking's other anchors.

// Limits on callee windows per surface: those of the first window, and in
// all.
const (
	firstCallees = 2
	maxCallees   = 3
)

// callees finds the definitions a window calls in one file.
type callees struct {
	sf   *surface
	w    int
	lang string
	defs map[string][]int // function and method names → definition lines
	seen map[int]bool
	n    int // callee anchors handed out
}

func (h *hydrator) newCallees(sf *surface) *callees {
	c := &callees{sf: sf, w: h.o.Window, lang: symbols.Lang(sf.rs.Path), defs: map[string][]int{}, seen: map[int]bool{}}
	for _, s := range sf.funcs() {
		c.defs[s.Name] = append(c.defs[s.Name], s.Line)
	}
	return c
}

// of lists up to limit anchors (fewer when the surface's total is reached)
// for the definitions called in the window around anchor a, calls nearest a
// first. A call is a name followed by "(" that the file defines as a
// function or method once or twice (a name defined more often, like
// __init__ or String, does not say which definition is meant); in Python
// a method call counts only on self or cls, since obj.get( is as likely a
// dict's. A definition that a window around one of the held anchors
// already shows is left out. Each anchor is a window below the definition
// line, so its window starts at the definition and reads down the body.
func (c *callees) of(a int, held []int, limit int) []int {
	if a < 1 {
		return nil
	}
	n := c.sf.file.Lines()
	var out []int
	for _, name := range c.calls(max(1, a-c.w), min(n, a+c.w), a) {
		lines := c.defs[name]
		if len(lines) > 2 {
			continue
		}
		for _, d := range lines {
			if c.seen[d] || within(d, held, c.w) || len(out) == limit || c.n == maxCallees {
				continue
			}
			c.seen[d] = true
			c.n++
			out = append(out, min(n, d+c.w))
		}
	}
	return out
}

// within reports whether line is inside the window around one of anchors.
func within(line int, anchors []int, w int) bool {
	for _, a := range anchors {
		if a >= 1 && line >= a-w && line <= a+w {
			return true
		}
	}
	return false
}

// calls lists the names called on lines s..e, nearest line a first, each
// once.
func (c *callees) calls(s, e, a int) []string {
	type call struct {
		name string
		dist int
	}
	var cs []call
	seen := map[string]bool{}
	for l := s; l <= e; l++ {
		for _, cl := range calledNames(c.sf.file.Bytes(l, l)) {
			if seen[cl.name] || (c.lang == "python" && cl.recv != "" && cl.recv != "self" && cl.recv != "cls") {
				continue
			}
			seen[cl.name] = true
			cs = append(cs, call{cl.name, max(l-a, a-l)})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	out := make([]string, len(cs))
	for i, x := range cs {
		out[i] = x.name
	}
	return out
}

// calledName is a name called on a line, with the name before its dot
// ("self" in self.f(), "" for a bare call or a longer receiver).
type calledName struct{ name, recv string }

// calledNames are the identifiers of a line that "(" follows (blanks
// between allowed), except on a line that defines one: "def f(" and
// "func (r *T) f(" name what they define, not a call.
func calledNames(line []byte) []calledName {
	var out []calledName
	prev, prevEnd := "", -1
	for i := 0; i < len(line); i++ {
		if !identStart(line[i]) || (i > 0 && identPart(line[i-1])) {
			continue
		}
		j := i
		for j < len(line) && identPart(line[j]) {
			j++
		}
		word := string(line[i:j])
		if word == "def" || word == "func" || word == "fn" {
			return nil
		}
		k := j
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k < len(line) && line[k] == '(' && !callKeywords[word] {
			recv := ""
			if i > 0 && line[i-1] == '.' {
				recv = "."
				if prevEnd == i-1 {
					recv = prev
				}
			}
			out = append(out, calledName{word, recv})
		}
		prev, prevEnd = word, j
		i = j - 1
	}
	return out
}

// callKeywords are words a "(" follows that call nothing.
var callKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true,
	"elif": true, "and": true, "or": true, "not": true, "in": true, "print": true, "assert": true, "lambda": true,
	"catch": true, "sizeof": true, "typeof": true, "yield": true, "await": true, "with": true, "except": true}

func identStart(b byte) bool { return b == '_' || (b|0x20 >= 'a' && b|0x20 <= 'z') }

func identPart(b byte) bool { return identStart(b) || (b >= '0' && b <= '9') }
