package hydrate

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/fnrank"
	"github.com/rtch/rtch/pkg/schema"
)

// goFile is a Go file of n filler functions of body lines each, after a
// package clause and an import; special replaces the function of that
// index with the given text.
func goFile(n, body int, special map[int]string) string {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"fmt\"\n")
	for i := 0; i < n; i++ {
		if s, ok := special[i]; ok {
			b.WriteString("\n" + s)
			continue
		}
		fmt.Fprintf(&b, "\nfunc filler%d() {\n", i)
		for j := 0; j < body; j++ {
			fmt.Fprintf(&b, "\tfmt.Println(%d, %d)\n", i, j)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// fnInput is a lane whose basket holds terms (idf 2 each) and whose
// ranking lists paths in order.
func fnInput(terms []string, paths ...string) *Input {
	var rs []schema.RankedSurface
	for _, p := range paths {
		rs = append(rs, schema.RankedSurface{Path: p, Anchors: []int{1}})
	}
	in := input(rs...)
	for _, t := range terms {
		in.Candidates = append(in.Candidates, schema.Candidate{Term: t, Origin: "exploratory", Use: "exploratory", IDF: 2})
	}
	return in
}

func ranges(cs []schema.Chunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s:L%d-L%d", c.Path, c.StartLine, c.EndLine))
	}
	return out
}

// TestFunctionsReadWhole: the ranked definitions are read whole, doc
// comment to closing line, best first; the chunk says which and why; the
// ranking is in the result.
func TestFunctionsReadWhole(t *testing.T) {
	target := "// retryDelay waits between attempts.\nfunc retryDelay(attempt int) int {\n\tdelay := backoff(attempt)\n" + strings.Repeat("\tdelay++\n", 12) + "\treturn delay\n}\n"
	helper := "func backoff(n int) int {\n\treturn n * 2\n}\n"
	root := writeTree(t, map[string]string{"a.go": goFile(30, 8, map[int]string{12: target, 20: helper})})
	res, err := Hydrate(fnInput([]string{"retryDelay", "backoff"}, "a.go"), opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Functions) < 2 || res.Functions[0].Name != "retryDelay" || res.Functions[1].Name != "backoff" {
		t.Fatalf("functions %+v", res.Functions)
	}
	f := res.Functions[0]
	got := ranges(res.Chunks)
	want := fmt.Sprintf("a.go:L%d-L%d", f.StartLine-1, f.EndLine)
	if len(got) == 0 || got[0] != want {
		t.Fatalf("chunks %v, want %s (doc comment to closing line) first", got, want)
	}
	if w := res.Chunks[0].WhyIncluded; !strings.Contains(w, "func retryDelay (L") || !strings.Contains(w, "read whole; ranked 1 among the functions") {
		t.Errorf("why %q", w)
	}
}

// TestLongFunctionHeadAndEvidence: a definition longer than
// wholeFunctionLines is read as its head and a window around its best
// evidence, not whole.
func TestLongFunctionHeadAndEvidence(t *testing.T) {
	var b strings.Builder
	b.WriteString("func handle(req int) int {\n")
	for j := 0; j < wholeFunctionLines+50; j++ {
		if j == 300 {
			b.WriteString("\treq = normalizeHeader(req)\n")
			continue
		}
		fmt.Fprintf(&b, "\treq += %d\n", j)
	}
	b.WriteString("\treturn req\n}\n")
	root := writeTree(t, map[string]string{"h.go": goFile(2, 3, map[int]string{1: b.String()})})
	res, err := Hydrate(fnInput([]string{"handle", "normalizeHeader"}, "h.go"), opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	head := res.Functions[0]
	if head.Name != "handle" {
		t.Fatalf("functions %+v", res.Functions)
	}
	got := strings.Join(ranges(res.Chunks), " ")
	ev := head.StartLine + 301
	wantHead := fmt.Sprintf("h.go:L%d-L%d", head.StartLine, head.StartLine+maxSignatureLines-1)
	wantEv := fmt.Sprintf("h.go:L%d-L%d", ev-20, ev+20)
	if !strings.HasPrefix(got, wantHead+" "+wantEv) {
		t.Errorf("chunks %s, want %s then %s", got, wantHead, wantEv)
	}
}

// TestFunctionReadsNotCapped: reads of ranked definitions count against no
// probe's cap, as a surface's first chunk does not.
func TestFunctionReadsNotCapped(t *testing.T) {
	special := map[int]string{}
	for i := 0; i < 6; i++ {
		special[i*3] = fmt.Sprintf("func parseOption%d() {\n\tparseOption()\n}\n", i)
	}
	root := writeTree(t, map[string]string{"o.go": goFile(18, 20, special)})
	in := fnInput([]string{"parseOption"}, "o.go")
	in.Hits = []schema.Hit{{ProbeID: "P01", Path: "o.go", Line: 5, Term: "parseOption", ConfidenceClass: "hit"}}
	o := opts(root, 100000)
	o.MaxChunksPerProbe = 1
	res, err := Hydrate(in, o)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Chunks); n < 7 {
		t.Errorf("%d chunks %v, want the six functions and the top level", n, ranges(res.Chunks))
	}
}

// TestFunctionsAcrossFilesInRankingOrder: the reads follow the ranking of
// the definitions, not the files': the first file's two strong functions
// before the second file's weak one.
func TestFunctionsAcrossFilesInRankingOrder(t *testing.T) {
	a := goFile(30, 8, map[int]string{
		2: "func syncCache() {\n\tinvalidate()\n\tinvalidate()\n}\n",
		8: "func other() {\n\tsyncCache()\n\tinvalidate()\n}\n",
	})
	bfile := goFile(30, 8, map[int]string{4: "func weak() {\n\tinvalidate()\n}\n"})
	root := writeTree(t, map[string]string{"a.go": a, "b.go": bfile})
	res, err := Hydrate(fnInput([]string{"syncCache", "invalidate"}, "a.go", "b.go"), opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range res.Functions {
		names = append(names, f.Path+":"+f.Name)
	}
	if got := strings.Join(names, " "); !strings.HasPrefix(got, "a.go:syncCache a.go:other b.go:weak") {
		t.Fatalf("functions %s", got)
	}
	got := ranges(res.Chunks)
	order := []string{}
	for _, f := range res.Functions[:3] {
		order = append(order, fmt.Sprintf("%s:L%d-L%d", f.Path, f.StartLine, f.EndLine))
	}
	if strings.Join(got[:3], " ") != strings.Join(order, " ") {
		t.Errorf("chunks %v, want %v first", got, order)
	}
}

// TestTopLevelKeepsAnchorWindows: code outside every definition (a table
// of values) is read by the window around the ranking's anchor there, as
// a lane without definitions reads it, not around the line where the
// goal's term happens to stand; the function beside it whole.
func TestTopLevelKeepsAnchorWindows(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nvar codes = map[string]int{\n")
	for i := 0; i < 200; i++ {
		if i == 150 {
			b.WriteString("\t\"retryLimit\": 7,\n")
			continue
		}
		fmt.Fprintf(&b, "\t\"code%d\": %d,\n", i, i)
	}
	b.WriteString("}\n\nfunc retryLimit() int {\n\treturn codes[\"retryLimit\"]\n}\n")
	root := writeTree(t, map[string]string{"c.go": b.String()})
	in := fnInput([]string{"retryLimit"}, "c.go")
	anchor := 4 + 50
	in.Rank.Surfaces[0].Anchors = []int{anchor}
	res, err := Hydrate(in, opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ranges(res.Chunks), " ")
	w := opts(root, 100000).Window
	if want := fmt.Sprintf("c.go:L%d-L%d", anchor-w, anchor+w); !strings.Contains(got, want) {
		t.Errorf("chunks %s, want the anchor window %s", got, want)
	}
	if !strings.Contains(got, "c.go:L206-L208") {
		t.Errorf("chunks %s, want retryLimit whole (L206-L208)", got)
	}
}

// TestFarTooLongReadNotBuilt: a ranked read priced at more than twice the
// budget left is passed over unbuilt (no redaction, no injection scan):
// the budget skip prices it "~N tokens", as an estimate.
func TestFarTooLongReadNotBuilt(t *testing.T) {
	long := "func loadCache() {\n" + strings.Repeat("\tloadCache()\n", 300) + "}\n"
	short := "func saveCache() {\n\tloadCache()\n\tloadCache()\n\tloadCache()\n}\n"
	root := writeTree(t, map[string]string{"k.go": goFile(4, 2, map[int]string{1: short, 3: long})})
	res, err := Hydrate(fnInput([]string{"saveCache", "loadCache"}, "k.go"), opts(root, 400))
	if err != nil {
		t.Fatal(err)
	}
	var detail string
	for _, s := range res.Skips {
		if s.Reason == "budget" {
			detail = s.Detail
		}
	}
	if !regexp.MustCompile(`L\d+-L\d+ \(~\d+ tokens\)`).MatchString(detail) {
		t.Errorf("budget skip %q, want the long function priced ~N (not built); chunks %v", detail, ranges(res.Chunks))
	}
}

// TestLongFunctionReadWhole: a definition of 500 lines, longer than a
// window's reach but within wholeFunctionLines, is read whole: a fix in
// a long function lands far from where the goal's words are as often as
// near them.
func TestLongFunctionReadWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("func loop(ev int) int {\n")
	for j := 0; j < 498; j++ {
		if j == 40 {
			b.WriteString("\tev = redrawPrompt(ev)\n")
			continue
		}
		fmt.Fprintf(&b, "\tev += %d\n", j)
	}
	b.WriteString("}\n")
	root := writeTree(t, map[string]string{"l.go": goFile(2, 3, map[int]string{1: b.String()})})
	res, err := Hydrate(fnInput([]string{"loop", "redrawPrompt"}, "l.go"), opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Functions[0]
	if f.Name != "loop" || f.EndLine-f.StartLine+1 != 500 {
		t.Fatalf("functions %+v", res.Functions)
	}
	want := fmt.Sprintf("l.go:L%d-L%d", f.StartLine, f.EndLine)
	if got := ranges(res.Chunks); len(got) == 0 || got[0] != want {
		t.Errorf("chunks %v, want %s (the whole function) first", got, want)
	}
}

// TestLearnedFunctionOrder: with LearnedFunctions the definitions are
// read in the learned ranking's order (fnrank.RankLearned), which the
// packet's ranked_functions carries.
func TestLearnedFunctionOrder(t *testing.T) {
	a := goFile(30, 8, map[int]string{
		2: "func syncCache() {\n\tinvalidate()\n\tinvalidate()\n}\n",
		8: "func other() {\n\tsyncCache()\n\tinvalidate()\n}\n",
	})
	bfile := goFile(30, 8, map[int]string{4: "func weak() {\n\tinvalidate()\n}\n"})
	root := writeTree(t, map[string]string{"a.go": a, "b.go": bfile})
	in := fnInput([]string{"syncCache", "invalidate"}, "a.go", "b.go")
	o := opts(root, 100000)
	o.LearnedFunctions = true
	res, err := Hydrate(in, o)
	if err != nil {
		t.Fatal(err)
	}
	var files []fnrank.File
	for i, p := range []string{"a.go", "b.go"} {
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fnrank.File{Path: p, Rank: i + 1, Data: data})
	}
	want, err := fnrank.RankLearned(files, fnrank.Terms(in.Candidates))
	if err != nil {
		t.Fatal(err)
	}
	hand := fnrank.Rank(files, fnrank.Terms(in.Candidates), fnrank.Weights{})
	var got, wantKeys, handKeys []string
	for _, f := range res.Functions {
		got = append(got, fmt.Sprintf("%s:%d", f.Path, f.StartLine))
	}
	for i, u := range want {
		wantKeys = append(wantKeys, fmt.Sprintf("%s:%d", u.Path, u.Start))
		handKeys = append(handKeys, fmt.Sprintf("%s:%d", hand[i].Path, hand[i].Start))
	}
	if strings.Join(got, " ") != strings.Join(wantKeys, " ") {
		t.Errorf("functions %v, want the learned order %v", got, wantKeys)
	}
	if strings.Join(wantKeys, " ") == strings.Join(handKeys, " ") {
		t.Errorf("the learned order %v is the hand-written one: the fixture tells nothing apart", wantKeys)
	}
}
