package secret

import (
	"strings"
)

// Lines is a whole text redacted range by range: the first Get runs the
// passes that need all of it (keyword hits and the windows they open,
// private-key blocks, base64 runs), and Get runs the rules' regexps only on the
// windows that reach the lines asked for, each window once. A tool that
// shows a few windows of a file (rtch-hydrate) so pays for what it shows,
// while a window inside a multi-line secret is masked as in the whole file.
//
// Get(a, b) is exactly lines a..b of Redact(text): a rule's findings lie in
// its windows, and the windows are those Find builds from every hit in the
// text, so the findings that reach a range come from the windows that
// reach it; findings that overlap are merged, so the range is widened until
// no finding outside it overlaps one inside (TestLinesMatchRedact).
type Lines struct {
	text   string
	starts []int // starts[i] is the offset of line i+1
	// plain[i] are the windows of rule i: gitleaks rules first, then the
	// extra rules, in the order findPlain runs them
	plain  []*windows
	blocks []Finding // private-key blocks, found over the whole text
	runs   [][2]int  // base64 runs, by offset
	// encoded[k] is what runs[k] decodes to (findEncoded), once computed
	encoded map[int]*Finding
	// shown[i] is line i+1 redacted, once some range held it
	shown []string
	have  []bool
	// scanned: the whole-text passes have run (scan)
	scanned bool
}

// windows are one rule's windows over the text and what it found in each.
type windows struct {
	find  func(w span) []Finding
	ws    []span
	found [][]Finding
	done  []bool
}

// NewLines prepares text for redaction by line ranges: the passes over the
// whole text run before the first Get.
func NewLines(text string) *Lines {
	l := &Lines{text: text, encoded: map[int]*Finding{}}
	l.starts = lineStarts(text)
	l.shown = make([]string, len(l.starts))
	l.have = make([]bool, len(l.starts))
	return l
}

// scan runs the passes that need the whole text, once.
func (l *Lines) scan() {
	if l.scanned {
		return
	}
	l.scanned = true
	if !enabled || l.text == "" {
		return
	}
	text := l.text
	rs := defaultRules()
	gl, ex := rs.keywordHits(text)
	for i, h := range gl {
		r := rs.rules[i]
		l.addWindows(windowsAt(text, h, 1), func(w span) []Finding { return w.widen(text, r.find(text, w, rs.global)) })
	}
	for i, h := range ex {
		r := extraRules[i]
		l.addWindows(windowsAt(text, h, r.more()), func(w span) []Finding { return w.widen(text, r.findIn(text, w)) })
	}
	l.blocks = findKeyBlocks(text)
	l.runs = base64Runs(text)
}

func (l *Lines) addWindows(ws []span, find func(span) []Finding) {
	if len(ws) > 0 {
		l.plain = append(l.plain, &windows{find: find, ws: ws, found: make([][]Finding, len(ws)), done: make([]bool, len(ws))})
	}
}

// lineStarts returns the offset of every line of text, as
// strings.Split(text, "\n") cuts it.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; ; {
		k := strings.IndexByte(text[i:], '\n')
		if k < 0 {
			return starts
		}
		i += k + 1
		starts = append(starts, i)
	}
}

// Count is the number of lines (strings.Split's count: one more than the
// newlines).
func (l *Lines) Count() int { return len(l.starts) }

// Get returns lines a..b (1-based, inclusive, clamped to the text) of
// Redact(text), each without its "\n".
func (l *Lines) Get(a, b int) []string {
	a, b = max(a, 1), min(b, len(l.starts))
	if a > b {
		return nil
	}
	if !l.held(a, b) {
		l.scan()
		l.redact(a, b)
	}
	return l.shown[a-1 : b]
}

// Raw returns lines a..b as Get cuts them, not redacted: for what only
// measures the text and never shows it.
func (l *Lines) Raw(a, b int) []string {
	a, b = max(a, 1), min(b, len(l.starts))
	if a > b {
		return nil
	}
	return strings.Split(l.text[l.starts[a-1]:l.end(b)], "\n")[:b-a+1]
}

// end is the offset past line b: the start of the next line, or the end
// of the text.
func (l *Lines) end(b int) int {
	if b < len(l.starts) {
		return l.starts[b]
	}
	return len(l.text)
}

func (l *Lines) held(a, b int) bool {
	for n := a; n <= b; n++ {
		if !l.have[n-1] {
			return false
		}
	}
	return true
}

// redact fills shown for lines a..b.
func (l *Lines) redact(a, b int) {
	lo, hi := l.starts[a-1], l.end(b)
	part := l.text[lo:hi]
	if fs := l.find(lo, hi); len(fs) > 0 {
		var sb strings.Builder
		sb.Grow(len(part))
		last := lo
		for _, f := range fs {
			s, e := max(f.Start, lo), min(f.End, hi)
			sb.WriteString(l.text[last:s])
			writeMarked(&sb, l.text[s:e], Mark(f.Rule))
			last = e
		}
		sb.WriteString(l.text[last:hi])
		part = sb.String()
	}
	// with b the last line, part is the rest of the text; else it ends
	// in the "\n" of line b, after which Split gives one more, empty piece
	for i, line := range strings.Split(part, "\n")[:b-a+1] {
		l.shown[a-1+i], l.have[a-1+i] = line, true
	}
}

// find returns the findings of Find(text) that overlap [lo, hi).
func (l *Lines) find(lo, hi int) []Finding {
	r := span{lo: lo, hi: hi}
	for {
		fs := l.collect(r)
		g := r
		for _, f := range fs {
			g.lo, g.hi = min(g.lo, f.Start), max(g.hi, f.End)
		}
		if g == r {
			var out []Finding
			for _, f := range merge(fs) {
				if f.Start < hi && f.End > lo {
					out = append(out, f)
				}
			}
			return out
		}
		r = g
	}
}

// collect returns the unmerged findings that overlap r, in the order Find
// gathers them (the order decides which rule names a merged finding).
func (l *Lines) collect(r span) []Finding {
	var out []Finding
	keep := func(fs []Finding) {
		for _, f := range fs {
			if f.Start < r.hi && f.End > r.lo && f.End > f.Start {
				out = append(out, f)
			}
		}
	}
	for _, p := range l.plain {
		for k, w := range p.ws {
			// a finding at a cut edge may be widened past its window
			if w.lo >= r.hi && !w.cutLo || w.hi <= r.lo && !w.cutHi {
				continue
			}
			if !p.done[k] {
				p.found[k], p.done[k] = p.find(w), true
			}
			keep(p.found[k])
		}
	}
	keep(l.blocks)
	for _, m := range l.runs {
		if m[0] < r.hi && m[1] > r.lo {
			if f := l.decoded(m); f != nil {
				keep([]Finding{*f})
			}
		}
	}
	return out
}

// decoded is findEncoded for one run, computed once.
func (l *Lines) decoded(m [2]int) *Finding {
	if f, ok := l.encoded[m[0]]; ok {
		return f
	}
	var f *Finding
	if found, ok := encodedAt(l.text, m); ok {
		f = &found
	}
	l.encoded[m[0]] = f
	return f
}
