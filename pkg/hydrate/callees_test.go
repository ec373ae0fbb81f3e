package hydrate

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

func TestCalledNames(t *testing.T) {
	cases := map[string][]calledName{
		"\tx := sc.processGoAway(f) + helper (y)":                       {{"processGoAway", "sc"}, {"helper", ""}},
		"        headers=merge_setting(request.headers, self.headers),": {{"merge_setting", ""}},
		"        r = self.get_adapter(url).send(req)":                   {{"get_adapter", "self"}, {"send", "."}},
		"    def prepare(self, x):":                                     nil,
		"func (sc *serverConn) processGoAway(f *Frame) error {":         nil,
		"\tif ok(x) && len(y) > 0 { return f(z) }":                      {{"ok", ""}, {"len", ""}, {"f", ""}},
	}
	for line, want := range cases {
		if got := calledNames([]byte(line)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}

// A top surface's first window is followed by windows on the definitions it
// calls (nearest the anchor first, at most firstCallees), before the
// ranking's next anchor; a Python call on another object, a name defined
// three times and a definition a window already holds get none.
func TestCalleeWindowsAfterTheFirst(t *testing.T) {
	var b strings.Builder
	line := 0
	emit := func(s string) { b.WriteString(s + "\n"); line++ }
	defAt := map[string]int{}
	def := func(name string, body int) {
		defAt[name] = line + 1
		emit("def " + name + "(x):")
		for i := 0; i < body; i++ {
			emit(fmt.Sprintf("    y%d = x + %d", line, i))
		}
	}
	def("merge_setting", 60)
	def("far_helper", 60)
	def("get", 60)
	for i := 0; i < 3; i++ {
		def("ambiguous", 10)
	}
	for line < 400 {
		emit(fmt.Sprintf("z%d = 0", line))
	}
	anchor := line + 21
	def("prepare_request", 40)
	src := strings.Split(b.String(), "\n")
	src[anchor-1] = "    headers = merge_setting(request.headers, ambiguous(x))"
	src[anchor+1] = "    v = kwargs.get('x')"
	src[anchor+5] = "    w = far_helper(v)"
	src[anchor+7] = "    u = prepare_request(w)"
	for line < 1200 {
		src = append(src, fmt.Sprintf("q%d = 1", line))
		line++
	}
	root := writeTree(t, map[string]string{"s.py": strings.Join(src, "\n")})
	in := input(schema.RankedSurface{Path: "s.py", Anchors: []int{anchor, 1100}})
	h := &hydrator{in: in, o: opts(root, 8000)}
	h.index()
	f, err := ReadFile(root, "s.py", 0)
	if err != nil {
		t.Fatal(err)
	}
	w := h.o.Window
	sf := &surface{rs: in.Rank.Surfaces[0], file: f}
	got := h.anchors(sf)
	want := []int{anchor, defAt["merge_setting"] + w, defAt["far_helper"] + w, 1100}
	if len(got) < len(want) || !reflect.DeepEqual(got[:len(want)], want) {
		t.Fatalf("anchors %v, want %v first", got, want)
	}
	for _, a := range got {
		if a == defAt["get"]+w {
			t.Fatalf("kwargs.get( chose the file's own get: %v", got)
		}
	}
	// Below the top surfaces the ranking's anchors stand alone.
	sf = &surface{rs: in.Rank.Surfaces[0], file: f, order: breadthTop}
	if got := h.anchors(sf); got[1] != 1100 {
		t.Fatalf("anchors below the top %v, want the ranking's second next", got)
	}
}
