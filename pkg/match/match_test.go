package match

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/walk"
)

func found(m *Matcher, text string) []string {
	var got []string
	m.Scan([]byte(text), func(t, s, e int) bool {
		got = append(got, fmt.Sprintf("%s@%d:%s", m.Terms()[t], s, text[s:e]))
		return true
	})
	return got
}

func TestBoundaries(t *testing.T) {
	cases := []struct {
		terms []string
		text  string
		want  string
	}{
		{[]string{"runnable"}, "if c.Runnable() {", "runnable@5:Runnable"},
		{[]string{"runnable"}, "isRunnable := x", "runnable@2:Runnable"},
		{[]string{"runnable"}, "unrunnable", ""},
		{[]string{"parse"}, "parseArgs(x); parsed; parser; reparse", "parse@0:parse parse@14:parsed parse@22:parser"},
		{[]string{"server"}, "HTTPServer serverless", "server@4:Server"},
		{[]string{"http"}, "HTTPServer http2", "http@0:HTTP http@11:http"},
		{[]string{"command"}, "commands subcommand Command_x", "command@0:commands command@20:Command"},
		{[]string{"run"}, "runs running run_x rune", "run@13:run"},
		{[]string{"content-length"}, "adds 'Content-Length' header", "content-length@6:Content-Length"},
		{[]string{"c.run"}, "nil c.Run is", "c.run@4:c.Run"},
		{[]string{"foo", "foobar"}, "foobar foo", "foobar@0:foobar foo@7:foo"},
		{[]string{"he", "she", "hers"}, "ushers", ""},
		{[]string{"café"}, "CAFÉ café", "café@6:café"},
		{[]string{""}, "anything", ""},
		{[]string{"scroll-off"}, "--scroll-off t.scrollOff scroll_off scrolloffs", "scroll-off@2:scroll-off scroll-off@15:scrollOff scroll-off@25:scroll_off"},
		{[]string{"halt_error"}, "funcHaltError(halt-error)", "halt_error@4:HaltError halt_error@14:halt-error"},
		{[]string{"TraverseChildren"}, "traverse_children; c.TraverseChildren", "traversechildren@0:traverse_children traversechildren@21:TraverseChildren"},
	}
	for _, c := range cases {
		got := strings.Join(found(New(c.terms), c.text), " ")
		if got != c.want {
			t.Errorf("%v in %q: got %q, want %q", c.terms, c.text, got, c.want)
		}
	}
}

func TestStop(t *testing.T) {
	m := New([]string{"a"})
	n := 0
	m.Scan([]byte("a a a a"), func(int, int, int) bool { n++; return n < 2 })
	if n != 2 {
		t.Fatalf("scan went on after stop: %d calls", n)
	}
}

func TestLinesAgreeWithWalk(t *testing.T) {
	for _, text := range []string{"a\nb\nc", "a\r\nb\r\nc\r\n", "a\rb\rc", "a\r\nb\rc", "a\r\n\r\nb\r", "a\r", "x\n\n\ny\n", "", "\n", "one"} {
		if got, want := CountLines([]byte(text)), len(walk.Lines(text)); got != want {
			t.Errorf("CountLines(%q) = %d, walk.Lines has %d", text, got, want)
		}
		ls := walk.Lines(text)
		l := NewLines([]byte(text))
		for i := 0; i < len(text); i++ {
			if text[i] == '\n' || text[i] == '\r' {
				continue
			}
			n, s, e := l.At(i)
			if n < 1 || n > len(ls) || ls[n-1] != text[s:e] {
				t.Errorf("%q offset %d: line %d %q, walk says %q", text, i, n, text[s:e], ls)
			}
		}
	}
}

func BenchmarkScan(b *testing.B) {
	m := New(benchTerms)
	data := []byte(strings.Repeat("func (c *Command) execute(a []string) error { return c.Help(output) }\n", 2000))
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		m.Scan(data, func(int, int, int) bool { return true })
	}
}

// benchTerms are the twelve words of the discovery bench goal.
var benchTerms = []string{"command", "runnable", "parse", "flag", "help", "output", "execute", "error", "context", "writer", "buffer", "token"}

// benchGoSource scans four GOROOT files with terms.
func benchGoSource(b *testing.B, terms []string) {
	var data []byte
	for _, f := range []string{"net/http/server.go", "go/parser/parser.go", "fmt/print.go", "strings/strings.go"} {
		d, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", f))
		if err != nil {
			b.Skip(err)
		}
		data = append(data, d...)
	}
	m := New(terms)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		m.Scan(data, func(int, int, int) bool { return true })
	}
}

func BenchmarkScanGoSource(b *testing.B) { benchGoSource(b, benchTerms) }

// BenchmarkScanProbeTerms is the probe's term set on the discovery bench:
// the twelve goal words and the source-of-truth and deprecation phrases.
func BenchmarkScanProbeTerms(b *testing.B) {
	benchGoSource(b, append(slices.Clone(benchTerms), "authoritative", "source of truth", "canonical", "single source",
		"deprecated", "superseded", "obsolete", "do not use", "no longer maintained"))
}

func TestStem(t *testing.T) {
	for w, want := range map[string]string{"compiling": "compil", "multiplying": "multiply", "values": "valu",
		"indexing": "index", "evaluation": "evalu", "running": "running", "process": "process", "status": "status",
		"string": "string", "entries": "entry", "parse": "parse", "handled": "handl", "commands": "command"} {
		if got := Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
	got := strings.Join(found(New([]string{"compiling", "entries"}), "compile the compiler; compilation entry"), " ")
	if want := "compil@0:compile compil@12:compiler compil@22:compilation entry@34:entry"; got != want {
		t.Errorf("stemmed matches: got %q, want %q", got, want)
	}
}

// TestShiftAndAgreesWithAutomaton checks that the Shift-And loop used for
// small term sets reports exactly what the automaton reports.
func TestShiftAndAgreesWithAutomaton(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := "abcdeABCDE_ .x1"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for round := 0; round < 300; round++ {
		var terms []string
		for k := rng.IntN(30) + 1; k > 0; k-- {
			terms = append(terms, strings.ToLower(word(rng.IntN(9)+1)))
		}
		text := []byte(word(2000))
		m := New(terms)
		if m.sa == nil {
			continue
		}
		var a, b []string
		m.Scan(text, func(t, s, e int) bool { a = append(a, fmt.Sprint(t, s, e)); return true })
		sa := m.sa
		m.sa = nil
		m.Scan(text, func(t, s, e int) bool { b = append(b, fmt.Sprint(t, s, e)); return true })
		m.sa = sa
		if strings.Join(a, ",") != strings.Join(b, ",") {
			t.Fatalf("terms %q: shift-and %v, automaton %v", terms, a, b)
		}
	}
}

// TestCutTermsAgree checks the Shift-And words with cut terms (long
// phrases, more bytes of terms than the words hold) against the automaton,
// for every match and for a scan stopped early.
func TestCutTermsAgree(t *testing.T) {
	terms := []string{"command", "runnable", "parse", "flag", "help", "output", "execute", "error", "context",
		"writer", "buffer", "token", "authoritative", "source of truth", "canonical", "single source",
		"deprecated", "superseded", "obsolete", "do not use", "no longer maintained",
		"a quoted error message that is far longer than one sixty-four bit word"}
	if sa := New(terms).sa; sa == nil || !sa.cut || len(sa.groups) != 2 {
		t.Fatalf("want the terms cut into two words, got %+v", sa)
	}
	// Whole terms that end where a cut one ends ("truth", "source of truth").
	terms = append(terms, "truth", "maintained", "word")
	m := New(terms)
	if m.sa == nil || !m.sa.cut {
		t.Fatalf("want the terms cut, got %+v", m.sa)
	}
	text := []byte(strings.Repeat("// Deprecated: do not use. The source of truth is the single source file; "+
		"parseFlags(execute) returns an Error: a quoted error message that is far longer than one sixty-four bit word.\n"+
		"source of truthiness; SOURCE OF TRUTH sourceOfTruth canonicalize obsoleted no longer maintained\n", 3))
	for stopAt := 0; stopAt <= 60; stopAt += 7 {
		scan := func() []string {
			var got []string
			m.Scan(text, func(k, s, e int) bool {
				got = append(got, fmt.Sprint(k, s, e))
				return stopAt == 0 || len(got) < stopAt
			})
			return got
		}
		a := scan()
		sa := m.sa
		m.sa = nil
		b := scan()
		m.sa = sa
		if strings.Join(a, ",") != strings.Join(b, ",") {
			t.Fatalf("stop after %d: shift-and %v, automaton %v", stopAt, a, b)
		}
		if stopAt == 0 && len(a) < 20 {
			t.Fatalf("only %d matches: %v", len(a), a)
		}
	}
}

// FuzzScan checks that every reported match is what it claims and that the
// two scan loops agree.
func FuzzScan(f *testing.F) {
	f.Add("parse", "parseArgs(x) Parsed")
	f.Add("a_b", "A_B a_bc xa_b")
	f.Add("A_B", "AB")
	f.Fuzz(func(t *testing.T, term, text string) {
		terms := []string{term, "error"}
		m := New(terms)
		// A match is its term or one of the term's other spellings.
		spellings := func(k int) []string { return append([]string{m.Terms()[k]}, Variants(terms[k])...) }
		var a []string
		m.Scan([]byte(text), func(k, s, e int) bool {
			if s < 0 || e > len(text) || s >= e || !slices.ContainsFunc(spellings(k), func(p string) bool {
				return strings.HasPrefix(Fold(text[s:e]), p)
			}) {
				t.Fatalf("bad match %d %d..%d in %q", k, s, e, text)
			}
			a = append(a, fmt.Sprint(k, s, e))
			return true
		})
		if m.sa != nil {
			m.sa = nil
			var b []string
			m.Scan([]byte(text), func(k, s, e int) bool { b = append(b, fmt.Sprint(k, s, e)); return true })
			if strings.Join(a, ",") != strings.Join(b, ",") {
				t.Fatalf("loops disagree on %q in %q: %v vs %v", term, text, a, b)
			}
		}
	})
}

func TestVariants(t *testing.T) {
	for in, want := range map[string]string{
		"scroll-off":       "scrolloff scroll_off",
		"halt_error":       "halterror halt-error",
		"TraverseChildren": "traverse_children traverse-children",
		"GH_FORCE_TTY":     "ghforcetty gh-force-tty",
		"parse":            "",
		"HTTPServer":       "",
		"c.Run":            "",
		"__custom_func":    "",
		"pkg/cmd":          "",
		"café-bar":         "",
	} {
		if got := strings.Join(Variants(in), " "); got != want {
			t.Errorf("Variants(%q) = %q, want %q", in, got, want)
		}
	}
	// A spelling that is another caller term's own stays that term's: one
	// occurrence is reported once.
	m := New([]string{"color", "scroll-off", "scrollOff"})
	if got := len(m.Terms()); got != 3 {
		t.Fatalf("Terms() has %d entries, want the 3 caller terms", got)
	}
	var hits []string
	m.Scan([]byte("scrollOff"), func(k, s, e int) bool { hits = append(hits, fmt.Sprint(k)); return true })
	if strings.Join(hits, ",") != "2" {
		t.Errorf("scrollOff reported as terms %v, want only term 2 (its own spelling)", hits)
	}
	hits = nil
	m.Scan([]byte("scroll_off"), func(k, s, e int) bool { hits = append(hits, fmt.Sprint(k)); return true })
	if strings.Join(hits, ",") != "1" {
		t.Errorf("scroll_off reported as terms %v, want term 1 (a variant of scroll-off)", hits)
	}
}
