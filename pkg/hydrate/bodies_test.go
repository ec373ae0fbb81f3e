package hydrate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

// goFuncs writes a Go file of padding lines with functions starting at the
// given head lines, each with the given number of body lines and a closing
// brace, and a doc comment of docs[k] lines right above each head.
func goFuncs(n int, heads, bodies, docs []int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("var v%d = %d", i+1, i)
	}
	for k, h := range heads {
		for i := 1; i <= docs[k]; i++ {
			lines[h-1-i] = "// f does things."
		}
		lines[h-1] = fmt.Sprintf("func f%d() {", k)
		for i := 1; i <= bodies[k]; i++ {
			lines[h-1+i] = fmt.Sprintf("\tx%d := %d", i, i)
		}
		lines[h+bodies[k]] = "}"
	}
	return strings.Join(lines, "\n") + "\n"
}

// A window that holds the head of the function around its target gives the
// lines above the head (but not the head's doc comment) to the body below
// it, as many as the body and the next window leave room for; a window
// whose function ends inside it, or whose target has no function around
// it, stays centred.
func TestWindowMovesDownTheFunctionBody(t *testing.T) {
	// f0: doc 98-99, head 100, closes at 160. f1: head 300, closes at
	// 311. f2: head 600, closes at 701, a window from 630 below it.
	src := goFuncs(1000, []int{100, 300, 600}, []int{59, 10, 100}, []int{2, 0, 0})
	root := writeTree(t, map[string]string{"g.go": src})
	in := input(schema.RankedSurface{Path: "g.go", Anchors: []int{105, 305, 605, 650, 900}})
	h := &hydrator{in: in, o: opts(root, 8000)}
	h.index()
	f, err := ReadFile(root, "g.go", 0)
	if err != nil {
		t.Fatal(err)
	}
	sf := &surface{rs: in.Rank.Surfaces[0], file: f, order: breadthTop}
	got := map[int][2]int{}
	for _, sg := range h.segments(sf) {
		got[sg.anchors[0]] = [2]int{sg.s, sg.e}
	}
	want := map[int][2]int{105: {98, 138}, 305: {285, 325}, 605: {589, 629}, 650: {630, 670}, 900: {880, 920}}
	for a, r := range want {
		if got[a] != r {
			t.Errorf("window around L%d: %v, want %v", a, got[a], r)
		}
	}
}

// TestBodyMoveKeepsEveryAnchor: a window that also holds an anchor above
// the function's head moves down only as far as that anchor.
func TestBodyMoveKeepsEveryAnchor(t *testing.T) {
	src := goFuncs(1000, []int{100}, []int{59}, []int{2})
	root := writeTree(t, map[string]string{"g.go": src})
	in := input(schema.RankedSurface{Path: "g.go", Anchors: []int{105, 90}})
	h := &hydrator{in: in, o: opts(root, 8000)}
	h.index()
	f, err := ReadFile(root, "g.go", 0)
	if err != nil {
		t.Fatal(err)
	}
	sf := &surface{rs: in.Rank.Surfaces[0], file: f, order: breadthTop}
	segs := h.segments(sf)
	if len(segs) != 1 || segs[0].s != 90 || segs[0].e != 130 {
		t.Fatalf("segments %+v, want one of L90-L130", segs)
	}
}
