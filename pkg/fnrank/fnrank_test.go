package fnrank

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

const parser = `package p

import "strings"

// Parse reads flags.
func Parse(args []string) error {
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			return parseLong(a)
		}
	}
	return nil
}

func parseLong(a string) error {
	// the long flag's value after "="
	name, value, _ := strings.Cut(a, "=")
	return set(name, value)
}

func set(name, value string) error { return nil }
`

const other = `package p

func helper() {
	// parses the value of a flag
	_ = "value"
}
`

func keys(us []Unit) string {
	var out []string
	for _, u := range us {
		out = append(out, fmt.Sprintf("%s:%s", u.Path, u.Name))
	}
	return strings.Join(out, " ")
}

func TestRank(t *testing.T) {
	files := []File{{Path: "parse.go", Rank: 1, Data: []byte(parser)}, {Path: "other.go", Rank: 2, Data: []byte(other)}}
	terms := []Term{{Term: "parseLong", Weight: 5}, {Term: "value", Weight: 1}, {Term: "flag", Weight: 2}}
	w := Default
	w.BestTopLevel = 0
	us := Rank(files, terms, w)
	// parseLong is named by the goal and mentions value twice; Parse calls
	// it and mentions flag in its doc; helper mentions flag and value in a
	// file ranked second.
	if got := keys(us); got != "parse.go:parseLong parse.go:Parse other.go:helper parse.go:set" {
		t.Fatalf("ranking %s", got)
	}
	pl := us[0]
	if pl.Kind != "func" || pl.Lead != 15 || pl.Start != 15 || pl.End != 19 || pl.Own != 5 {
		t.Errorf("parseLong unit %+v", pl)
	}
	if !strings.HasPrefix(pl.Why[0], "parseLong (name, signature, body×1)") {
		t.Errorf("why %q", pl.Why)
	}
	// Its evidence lines, heaviest first: the head (parseLong), then the
	// lines with value.
	if fmt.Sprint(pl.Evidence) != "[15 16 17 18]" {
		t.Errorf("evidence lines %v", pl.Evidence)
	}
	// Parse's doc line counts as Parse.
	if us[1].Lead != 5 || us[1].Start != 6 {
		t.Errorf("Parse unit %+v", us[1])
	}
}

// TestBestTopLevel: the best file's top level (its imports) is listed no
// lower than BestTopLevel, even without evidence, and says why.
func TestBestTopLevel(t *testing.T) {
	files := []File{{Path: "parse.go", Rank: 1, Data: []byte(parser)}}
	terms := []Term{{Term: "value", Weight: 1}, {Term: "name", Weight: 1}, {Term: "args", Weight: 1}, {Term: "error", Weight: 1}}
	w := Default
	w.BestTopLevel = 2
	us := Rank(files, terms, w)
	at := -1
	for i, u := range us {
		if u.Kind == TopLevel {
			at = i
		}
	}
	if at != 1 || us[at].Why[len(us[at].Why)-1] != "the best file's imports and declarations" {
		t.Fatalf("top level at %d of %s: %+v", at, keys(us), us)
	}
	if us[at].Start != 1 || us[at].End != 21 {
		t.Errorf("top level spans %d-%d", us[at].Start, us[at].End)
	}
}

// TestRarityInsideTheFile: a term every unit of the file mentions tells
// them apart less than one only a few mention.
func TestRarityInsideTheFile(t *testing.T) {
	src := "def a():\n    common()\n    rare()\n\ndef b():\n    common()\n    common()\n    common()\n\ndef c():\n    common()\n"
	us := Rank([]File{{Path: "m.py", Rank: 2, Data: []byte(src)}}, []Term{{Term: "common", Weight: 2}, {Term: "rare", Weight: 1}}, Default)
	if got := keys(us); !strings.HasPrefix(got, "m.py:a ") {
		t.Errorf("ranking %s, want a (the only one with rare) first", got)
	}
}

// TestContainer: a class's own lines (its docstring) count less than a
// method's, and the class is marked Nested.
func TestContainer(t *testing.T) {
	src := "class Printer:\n    \"\"\"Prints values: values, values and values.\"\"\"\n\n    def show(self):\n        print(self.values)\n"
	us := Rank([]File{{Path: "m.py", Rank: 1, Data: []byte(src)}}, []Term{{Term: "values", Weight: 1}}, Weights{K1: 1.2, B: 0.3, AvgLines: 30, Head: 1, Name: 3, TopLevel: 0.5, Container: 0.5, FileFactor: []float64{1}})
	if got := keys(us); got != "m.py:show m.py:Printer" || !us[1].Nested || us[0].Nested {
		t.Errorf("ranking %s %+v", got, us)
	}
}

// TestNamed: a definition of the name the goal writes outranks a
// function whose signature and body mention it.
func TestNamed(t *testing.T) {
	src := "package p\n\nfunc use(target T) {\n\ttarget.a()\n\ttarget.b()\n\ttarget.c()\n}\n\nfunc target() {}\n"
	us := Rank([]File{{Path: "p.go", Rank: 1, Data: []byte(src)}}, []Term{{Term: "target", Weight: 1}}, Weights{K1: 1.2, B: 0.3, AvgLines: 30, Head: 1, Name: 3, FileFactor: []float64{1}})
	if got := keys(us); got != "p.go:target p.go:use" {
		t.Errorf("ranking %s", got)
	}
}

func TestTerms(t *testing.T) {
	cands := []schema.Candidate{
		{Term: "parseLong", Origin: "code_symbol", Use: "locate", IDF: 2, GoalKind: "identifier", InTitle: true},
		{Term: "connection refused by peer", Origin: "exploratory", Use: "exploratory", IDF: 1, GoalKind: "error_fragment"},
		{Term: "wrong", Origin: "noise", Use: "exploratory", IDF: 3},
		{Term: "README.md", Origin: "local_shape", Use: "pressure", IDF: 3},
		{Term: "vendor", Origin: "exploratory", Use: "exclude", IDF: 3},
		{Term: "absent", Origin: "exploratory", Use: "exploratory", IDF: 0},
	}
	got := Terms(cands)
	if len(got) != 2 || got[0].Term != "parseLong" || got[1].Term != "connection refused by peer" {
		t.Fatalf("terms %+v", got)
	}
	// 2 × 1.5 (code) × 1.5 (title) × 1.2 (symbol); 1 × 2 (a phrase).
	if math.Abs(got[0].Weight-5.4) > 1e-9 || got[1].Weight != 2 {
		t.Errorf("weights %v %v", got[0].Weight, got[1].Weight)
	}
}

// TestTestFilesCountLess: a test file ranked first mentions the goal's
// words as often as the code it tests, ranked second; the code's function
// comes first.
func TestTestFilesCountLess(t *testing.T) {
	code := "package p\n\nfunc retryWait(n int) int {\n\treturn backoff(n)\n}\n"
	test := "package p\n\nfunc TestRetry(t *testing.T) {\n\t_ = backoff(2)\n}\n"
	files := []File{{Path: "retry_test.go", Rank: 1, Data: []byte(test)}, {Path: "retry.go", Rank: 2, Data: []byte(code)}}
	w := Default
	w.BestTopLevel = 0
	if got := keys(Rank(files, []Term{{Term: "backoff", Weight: 2}}, w)); got != "retry.go:retryWait retry_test.go:TestRetry" {
		t.Errorf("ranking %s, want the code before its test", got)
	}
}

// TestDeclarationsCountLess: a struct that mentions the goal's word as
// often as a function does comes after the function; it stays ranked.
func TestDeclarationsCountLess(t *testing.T) {
	src := "package p\n\ntype policy struct {\n\tbackoff int\n}\n\nfunc wait() {\n\t_ = backoff\n}\n"
	w := Default
	w.BestTopLevel = 0
	if got := keys(Rank([]File{{Path: "p.go", Rank: 1, Data: []byte(src)}}, []Term{{Term: "backoff", Weight: 2}}, w)); got != "p.go:wait p.go:policy" {
		t.Errorf("ranking %s, want the function before the struct", got)
	}
}

// TestGoalRepeats: of two terms equally rare, the one the goal mentions
// four times lifts its function above the one mentioned once.
func TestGoalRepeats(t *testing.T) {
	src := "def load():\n    read_cache()\n\ndef save():\n    write_index()\n"
	terms := Terms([]schema.Candidate{
		{Term: "read_cache", Origin: "exploratory", Use: "exploratory", IDF: 2, GoalCount: 1},
		{Term: "write_index", Origin: "exploratory", Use: "exploratory", IDF: 2, GoalCount: 4},
	})
	if math.Abs(terms[1].Weight-2*math.Pow(4, goalCountExp)) > 1e-9 || terms[0].Weight != 2 {
		t.Fatalf("weights %+v", terms)
	}
	if got := keys(Rank([]File{{Path: "m.py", Rank: 1, Data: []byte(src)}}, terms, Default)); !strings.HasPrefix(got, "m.py:save m.py:load") {
		t.Errorf("ranking %s, want save (the term the goal repeats) first", got)
	}
}
