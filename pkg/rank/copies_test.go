package rank

import (
	"reflect"
	"strings"
	"testing"
)

// A generated mirror (deno_dist/ beside src/) is ranked with its source:
// the source takes the better place, the copy is named in its reasons and
// ranked no more. A same-named file of another package is other code and
// stays.
func TestCopiesRankWithTheirSource(t *testing.T) {
	body := strings.Repeat("export function route(p: string) { return p }\n", 30)
	src := "import { x } from './x'\n" + body
	mirror := "import { x } from './x.ts'\n" + body
	other := "pub fn route() {}\n" + strings.Repeat("// other code\nlet y = 2;\n", 20)
	scored := []Scored{
		{File: File{Path: "deno_dist/router.ts", Bytes: int64(len(mirror))}, Score: 9},
		{File: File{Path: "src/helper.ts", Bytes: 500}, Score: 8},
		{File: File{Path: "src/router.ts", Bytes: int64(len(src))}, Score: 7},
		{File: File{Path: "crates/b/router.ts", Bytes: int64(len(other))}, Score: 6},
	}
	pairs := CopyPairs(scored, 100)
	if !reflect.DeepEqual(pairs, [][2]int{{0, 2}}) {
		t.Fatalf("pairs %v, want the two router.ts of like size", pairs)
	}
	content := map[string][]byte{"deno_dist/router.ts": []byte(mirror), "src/router.ts": []byte(src)}
	files := map[string]int{"src": 40, "deno_dist": 25}
	got := Copies(scored, pairs, content, func(tree string) int { return files[tree] })
	if p := paths(got); !reflect.DeepEqual(p, []string{"src/router.ts", "src/helper.ts", "crates/b/router.ts"}) {
		t.Fatalf("ranking %v, want the source first and the copy gone", p)
	}
	if got[0].Score != 9 || !strings.Contains(strings.Join(got[0].Why, " "), "deno_dist/router.ts") {
		t.Errorf("source %+v: want the copy's place and the copy named", got[0])
	}
	// With the trees the other way round the mirror is the source.
	scored[0].Path, scored[2].Path = "src/router.ts", "deno_dist/router.ts"
	content = map[string][]byte{"src/router.ts": []byte(mirror), "deno_dist/router.ts": []byte(src)}
	files = map[string]int{"src": 10, "deno_dist": 25}
	got = Copies(scored, pairs, content, func(tree string) int { return files[tree] })
	if got[0].Path != "deno_dist/router.ts" || len(got) != 3 {
		t.Errorf("ranking %v, want deno_dist/router.ts (the larger tree) first", paths(got))
	}
}

func TestAlike(t *testing.T) {
	a := []byte("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n")
	if d := Alike(a, a); d != 1 {
		t.Errorf("a file against itself: %v", d)
	}
	b := []byte("  a\nb\n\nc\nd\ne\nf\ng\nh\ni\nX\n")
	if d := Alike(a, b); d != 0.9 {
		t.Errorf("one line of ten changed, blank lines and indentation aside: %v, want 0.9", d)
	}
	if d := Alike(a, []byte("q\nr\n")); d != 0 {
		t.Errorf("no line shared: %v", d)
	}
}
