package hydrate

import (
	"bytes"
	"math"

	"github.com/rtch/rtch/pkg/symbols"
)

// Bodies: a window centred on a line inside a function shows as many lines
// above the function's head (the end of the code before it) as below, while
// the change a goal asks for is in the function, often further down its
// body than the window reaches. So a window that holds the head of the
// function around its target line gives the lines above that head (and
// above the comments, doc and decorator lines that belong to it) to the
// body below the window: the same number of lines, so the same cost, moved
// where the function goes on.

// funcs lists the surface's function and method definitions, in line order
// (symbols.Extract), once.
func (sf *surface) funcs() []symbols.Symbol {
	if sf.defs == nil {
		sf.defs = []symbols.Symbol{}
		for _, s := range symbols.Extract(sf.rs.Path, sf.file.Data) {
			if s.Kind == "func" || s.Kind == "method" {
				sf.defs = append(sf.defs, s)
			}
		}
	}
	return sf.defs
}

// lineSlices is the file's lines without their terminators.
func (f *File) lineSlices() [][]byte {
	out := make([][]byte, f.Lines())
	for i := range out {
		out[i] = bytes.TrimRight(f.Bytes(i+1, i+1), "\r\n")
	}
	return out
}

// alignToBodies moves each segment down to the function around its target:
// when the segment holds the head of the innermost function whose body
// (symbols.End) holds the target and goes on past the segment, the lines
// above the head's lead-in are left out and as many lines added below, but
// never past the body's end, into the next segment or past another anchor
// the segment holds, so a segment never grows, never shrinks, never
// overlaps another and keeps every line it was cut around.
func (h *hydrator) alignToBodies(sf *surface, segs []segment) {
	defs := sf.funcs()
	if len(defs) == 0 {
		return
	}
	lang := symbols.Lang(sf.rs.Path)
	var lines [][]byte
	for i := range segs {
		sg := &segs[i]
		if sg.target < 1 {
			continue
		}
		for k := len(defs) - 1; k >= 0; k-- {
			d := defs[k].Line
			if d > sg.target || d < sg.s {
				continue
			}
			if lines == nil {
				lines = sf.file.lineSlices()
			}
			de := symbols.End(lang, lines, d)
			if de < sg.target {
				continue // a function that ends above the target
			}
			if lead := min(leadIn(sf.file, d, sg.s), firstAnchor(sg)); de > sg.e && lead > sg.s {
				e := min(de, sg.e+lead-sg.s, nextStart(segs, sg.e)-1)
				sg.s += e - sg.e
				sg.e = e
			}
			break
		}
	}
}

// firstAnchor is the segment's highest anchor line: a move never leaves
// one of the lines the segment was cut around above its start.
func firstAnchor(sg *segment) int {
	first := math.MaxInt
	for _, a := range sg.anchors {
		if a >= 1 {
			first = min(first, a)
		}
	}
	return first
}

// leadIn is the first line of the comment, doc or decorator lines directly
// above a definition's head at d, not above line s.
func leadIn(f *File, d, s int) int {
	for d > s {
		t := bytes.TrimSpace(f.Bytes(d-1, d-1))
		if !(bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("#")) || bytes.HasPrefix(t, []byte("@")) ||
			bytes.HasPrefix(t, []byte("/*")) || bytes.HasPrefix(t, []byte("*"))) {
			break
		}
		d--
	}
	return d
}

// nextStart is the first line of the segment that starts after line e
// (math.MaxInt when none does).
func nextStart(segs []segment, e int) int {
	n := math.MaxInt
	for _, o := range segs {
		if o.s > e {
			n = min(n, o.s)
		}
	}
	return n
}
