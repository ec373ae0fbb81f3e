package probe

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/fields"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/scout"
)

func TestPhraseInPath(t *testing.T) {
	cases := []struct {
		phrase, path string
		atEnd, ok    bool
	}{
		{"gh pr view", "pkg/cmd/pr/view/view", true, true},
		{"pr view", "pkg/cmd/pr/view/http", true, true},
		{"pr view", "pkg/cmd/pr/view/shared/x/y", false, true},
		{"issue create", "command/issue", false, false},
		{"release", "pkg/cmd/release/release", false, false},
	}
	for _, c := range cases {
		atEnd, ok := phraseInPath(c.phrase, splitPath(c.path))
		if atEnd != c.atEnd || ok != c.ok {
			t.Errorf("phraseInPath(%q, %q) = %v, %v; want %v, %v", c.phrase, c.path, atEnd, ok, c.atEnd, c.ok)
		}
	}
}

func TestDefContext(t *testing.T) {
	cases := []struct {
		line string
		col  int
		want bool
	}{
		{"func (c *Command) ExecuteC() (cmd *Command, err error) {", 18, true},
		{"func (c *Command) ExecuteC() (cmd *Command, err error) {", 9, false},
		{"func (c *Command) ExecuteC() (cmd *Command, err error) {", 40, false},
		{"def parse_header(self, raw):", 4, true},
		{"def parse_header(self, raw):", 20, false},
		{"    return parse_header(raw)", 11, false},
		{"type Policy struct {", 5, true},
		{"public static boolean isBlank(final CharSequence cs) {", 22, true},
	}
	for _, c := range cases {
		if got := fields.InDef([]byte(c.line), c.col); got != c.want {
			t.Errorf("InDef(%q, %d) = %v, want %v", c.line, c.col, got, c.want)
		}
	}
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}

func TestRarestGoalTermIsTheGoalsRarest(t *testing.T) {
	terms := []censusTerm{
		{text: "server", goalKind: "word", idf: 1.2},
		{text: "goaway", goalKind: "word", idf: 4.5},
		{text: "http2", idf: 9}, // an expansion, not the goal's own
		{text: "the", goalKind: "word", idf: 8, generic: true},
		{text: "source of truth", goalKind: "word", idf: 9, phrase: "truth"},
	}
	if got := rarestGoalTerm(terms); got != 1 {
		t.Fatalf("rarest goal term %d, want 1 (goaway)", got)
	}
	if got := rarestGoalTerm(terms[2:3]); got != -1 {
		t.Fatalf("a goal with no term of its own: %d", got)
	}
}

// TestAnchorsPastSixtyFourTerms: a goal with more than 64 terms must not
// credit a common term with a rare term's IDF. Term 64 ("commonword")
// would share term 0's bit under an index-mod-64 mask; the window around it
// must still rank below the window of a genuinely rarer term.
func TestAnchorsPastSixtyFourTerms(t *testing.T) {
	terms := make([]censusTerm, 70)
	lits := make([]string, len(terms))
	for i := range terms {
		terms[i] = censusTerm{text: fmt.Sprintf("filler%02dword", i), goalKind: "word", idf: 1}
	}
	terms[0] = censusTerm{text: "zebrafish", goalKind: "word", idf: 9}
	terms[5] = censusTerm{text: "rarelyseen", goalKind: "word", idf: 3}
	terms[64] = censusTerm{text: "commonword", goalKind: "word", idf: 0.1}
	for i, ct := range terms {
		lits[i] = ct.text
	}
	var src strings.Builder
	for ln := 1; ln <= 200; ln++ {
		switch ln {
		case 10:
			src.WriteString("commonword here\n")
		case 110:
			src.WriteString("rarelyseen there\n")
		default:
			src.WriteString("nothing\n")
		}
	}
	assignBits(terms)
	c := newCollector(len(terms))
	c.ev = &fileEv{path: "f.txt"}
	scanFile(match.New(lits), terms, "f.txt", []byte(src.String()), c)
	ev := c.done()
	if ev == nil || len(ev.anchors) == 0 || ev.anchors[0] != 110 {
		t.Fatalf("anchors %v, want line 110 (rarelyseen) first", ev.anchors)
	}
}

func TestDefiningFiles(t *testing.T) {
	locs := []string{"code_symbol:a/x.go:12", "heading:README.md:3", "code_symbol:a/x.go:40", "code_symbol:b/y.go:7", "file_name:a/x.go"}
	if got := definingFiles(locs); !reflect.DeepEqual(got, []string{"a/x.go", "b/y.go"}) {
		t.Fatalf("got %v, want the two defining files", got)
	}
	capped := make([]string, scout.LocationsPerMatch)
	for i := range capped {
		capped[i] = "code_symbol:a/x.go:1"
	}
	if got := definingFiles(capped); got != nil {
		t.Fatalf("a capped list gave %v: it may leave defining files out", got)
	}
}

// TestAnchorsAreTheSortedOrder checks that the anchors handed out best
// first by the heap are those of the whole list sorted by score, then
// line, with many ties.
func TestAnchorsAreTheSortedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	terms := []censusTerm{{text: "a", idf: 1, bit: 1}, {text: "b", idf: 2, bit: 2}, {text: "c", idf: 0.5, bit: 4}}
	for range 200 {
		var ls []lineScore
		for ln := 1; ln < 2000; ln += 1 + rng.IntN(30) {
			ls = append(ls, lineScore{line: ln, score: float64(rng.IntN(4)), seen: uint64(1 + rng.IntN(7))})
		}
		got, _, _ := pickAnchors(ls, terms, nil)
		if want := sortedAnchors(ls, terms); !reflect.DeepEqual(got, want) {
			t.Fatalf("anchors %v, want %v", got, want)
		}
	}
}

// sortedAnchors is pickAnchors by a stable sort of every candidate.
func sortedAnchors(ls []lineScore, terms []censusTerm) []int {
	var bitIDF [64]float64
	for _, t := range terms {
		bitIDF[bits.TrailingZeros64(t.bit)] = t.idf
	}
	var cs []anchorCand
	for _, l := range ls {
		var mask uint64
		for _, o := range ls {
			if o.line >= l.line-anchorWindow && o.line <= l.line+anchorWindow {
				mask |= o.seen
			}
		}
		sc := l.score
		for b := range 64 {
			if mask&(1<<b) != 0 {
				sc += bitIDF[b]
			}
		}
		cs = append(cs, anchorCand{l.line, sc})
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return cs[i].line < cs[j].line
	})
	var anchors []int
	for _, c := range cs {
		if len(anchors) == anchorsKept {
			break
		}
		if !slices.ContainsFunc(anchors, func(a int) bool { return c.line-a < anchorSpread && a-c.line < anchorSpread }) {
			anchors = append(anchors, c.line)
		}
	}
	return anchors
}

// TestDefinitionLinesAreTheFiles checks that a pooled collector looks a
// term's definition lines up again for the next file: a definition in
// one file is not one in the next.
func TestDefinitionLinesAreTheFiles(t *testing.T) {
	terms := []censusTerm{{text: "widget", goalKind: "word", idf: 1, locations: map[string][]int{"a.go": {1}}}}
	m := match.New([]string{"widget"})
	c := newCollector(len(terms))
	field := func(p string) string {
		c.ev = &fileEv{path: p}
		scanFile(m, terms, p, []byte("widget\n"), c)
		ev := c.done()
		return fieldName(ev.terms[0].pos[0].field)
	}
	for _, p := range []string{"a.go", "b.go", "a.go"} {
		want := fieldBody
		if p == "a.go" {
			want = fieldDefinition
		}
		if got := field(p); got != want {
			t.Fatalf("%s: field %s, want %s", p, got, want)
		}
	}
}
