package intake

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/internal/sharedeval"
	"github.com/rtch/rtch/pkg/schema"
)

// want is one expected term: its kind, and optionally its parent, file/line
// and count (zero values are not checked).
type want struct {
	term, kind, parent, file string
	line, count              int
}

func termMap(ts []schema.GoalTerm) map[string]schema.GoalTerm {
	m := map[string]schema.GoalTerm{}
	for _, t := range ts {
		m[t.Term] = t
	}
	return m
}

// The snippets are real intents from ../shared/eval (go-commits.jsonl and
// swebench-verified-dev.jsonl), trimmed.
func TestExtractTermsRealSnippets(t *testing.T) {
	cases := []struct {
		name   string
		goal   string
		want   []want
		absent []string
	}{
		{
			name: "cobra commit with calls and a quoted panic",
			goal: "In execute(), check if command is Runnable()\n\nA corner case exists where c.Runnable() is not checked\nbefore c.Run() is called, thus a nil c.Run is executed\nleading to \"panic: runtime error: invalid memory address\nor nil pointer dereference\".\n\nThis patch adds an extra c.Runnable() check in execute()\nto catch that corner case.\n\nFixes #37.",
			want: []want{
				{term: "c.Runnable", kind: KindQualified, count: 2},
				{term: "c.Run", kind: KindQualified},
				{term: "execute", kind: KindIdentifier, count: 2},
				{term: "Runnable", kind: KindIdentifier, count: 3},
				{term: "Run", kind: KindIdentifier, parent: "c.Run"},
				{term: "runtime error: invalid memory address", kind: KindErrorFragment},
				{term: "corner", kind: KindWord, count: 2},
				{term: "dereference", kind: KindWord},
			},
			absent: []string{"fixes", "37", "the", "is", "c", "this", "Fixes"},
		},
		{
			name: "short commit with a printed placeholder",
			goal: "fix trailing <nil> on help output",
			want: []want{
				{term: "<nil>", kind: KindQuoted},
				{term: "trailing", kind: KindWord},
				{term: "help", kind: KindWord},
				{term: "output", kind: KindWord},
			},
			absent: []string{"fix", "on"},
		},
		{
			name: "flags and a dotted type field",
			goal: "Fix --version help and output for plugins (#2180)\n\n* Fix --version help with CommandDisplayNameAnnotation\n\nWhen setting Command.Version, a --version option is added.",
			want: []want{
				{term: "version", kind: KindFlag, count: 3},
				{term: "CommandDisplayNameAnnotation", kind: KindIdentifier},
				{term: "display", kind: KindCamelPart, parent: "CommandDisplayNameAnnotation"},
				{term: "annotation", kind: KindCamelPart},
				{term: "Command.Version", kind: KindDotted},
				{term: "plugins", kind: KindWord},
			},
			absent: []string{"2180", "--version"},
		},
		{
			name: "python traceback with site-packages frames",
			goal: "Unicode method names cause UnicodeDecodeError\n\n```\nTraceback (most recent call last):\n  File \"/Library/Python/2.7/site-packages/requests/sessions.py\", line 335, in request\n    resp = self.send(prep, **send_kwargs)\n  File \"<stdin>\", line 1, in <module>\nUnicodeDecodeError: 'ascii' codec can't decode byte 0xcf in position 140: ordinal not in range(128)\n```\n\nThis is because `sessions.py:313` is simply:\n\n```\nreq.method = method.upper()\n```",
			want: []want{
				{term: "requests/sessions.py:335", kind: KindStackFrame, file: "requests/sessions.py", line: 335},
				{term: "sessions.py:313", kind: KindStackFrame, file: "sessions.py", line: 313},
				{term: "requests/sessions.py", kind: KindPath},
				{term: "sessions.py", kind: KindFileName, parent: "requests/sessions.py", count: 2},
				{term: "request", kind: KindIdentifier},
				{term: "self.send", kind: KindDotted},
				{term: "send_kwargs", kind: KindIdentifier},
				{term: "UnicodeDecodeError", kind: KindIdentifier, count: 2},
				{term: "decode", kind: KindIdentifier},
				{term: "unicode", kind: KindCamelPart, parent: "UnicodeDecodeError"},
				{term: "'ascii' codec can't decode byte 0xcf in position 140: ordinal not in range(128)", kind: KindErrorFragment},
				{term: "method.upper", kind: KindDotted},
			},
			absent: []string{"<stdin>:1", "traceback", "recent", "module", "/Library/Python/2.7/site-packages/requests/sessions.py", "self", "cf", "kwargs"},
		},
		{
			name: "go panic frames from the module cache",
			goal: "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\ngithub.com/spf13/cobra.(*Command).execute(0xc000136000)\n\t/home/u/go/pkg/mod/github.com/spf13/cobra@v1.8.0/command.go:983 +0x1d\nmain.main()\n\t/tmp/x/main.go:12 +0x2b",
			want: []want{
				{term: "command.go:983", kind: KindStackFrame, file: "command.go", line: 983},
				{term: "/tmp/x/main.go:12", kind: KindStackFrame, file: "/tmp/x/main.go", line: 12},
				{term: "command.go", kind: KindFileName},
				{term: "runtime error: index out of range [3] with length 3", kind: KindErrorFragment},
				{term: "github.com/spf13/cobra", kind: KindPath},
				{term: "execute", kind: KindIdentifier},
				{term: "main.main", kind: KindDotted},
			},
			absent: []string{"goroutine", "running", "0xc000136000", "x1d", "v1", "home", "pkg", "mod"},
		},
		{
			name: "astropy issue with numpy dtypes and ipython prompts",
			goal: "float16 quantities get upgraded to float64 automatically\nWhen trying to create a `Quantity` from a `np.float16` (not something I actually intended to do) it gets upgraded automatically to `np.float64`:\n\n```\nIn [73]: np.float16(1)\nOut[73]: 1.0\n```",
			want: []want{
				{term: "np.float16", kind: KindDotted, count: 2},
				{term: "float16", kind: KindIdentifier},
				{term: "Quantity", kind: KindIdentifier},
				{term: "quantities", kind: KindWord},
				{term: "upgraded", kind: KindWord, count: 2},
			},
			absent: []string{"actually", "trying", "something", "73", "Out"},
		},
		{
			name: "xarray issue with quoted names and an environment dump",
			goal: "Naming a dimension \"method\" throws error when calling \".loc\"\r\n```python\r\nD2 = DataArray(empty, dims=['dim1', 'method'])\r\n```\r\nThe error message\r\n```\r\nValueError: Invalid fill method. Expecting pad (ffill), backfill (bfill) or nearest.\r\n```\r\nsuggests that the `dims` are given to another method.\r\n<details>\r\nINSTALLED VERSIONS\r\n------------------\r\ncommit: None\r\npandas: 0.24.2\r\nnumpy: 1.16.2\r\n</details>",
			want: []want{
				{term: "method", kind: KindIdentifier},
				{term: ".loc", kind: KindQuoted},
				{term: "DataArray", kind: KindIdentifier},
				{term: "dims", kind: KindIdentifier},
				{term: "Invalid fill method. Expecting pad (ffill), backfill (bfill) or nearest", kind: KindErrorFragment},
				{term: "suggests", kind: KindWord},
				{term: "dimension", kind: KindWord},
			},
			absent: []string{"pandas", "numpy", "installed", "commit", "details"},
		},
		{
			name: "requests issue: quotes, a URL and shouting",
			goal: "requests.get is ALWAYS sending content length\nHi,\n\nIt seems like that request.get always adds 'content-length' header to the request.\nFor example http://amazon.com returns 503 for every get request that contains 'content-length' header.\n\nThanks,\n\nOren",
			want: []want{
				{term: "requests.get", kind: KindDotted},
				{term: "get", kind: KindIdentifier, parent: "requests.get"},
				{term: "content-length", kind: KindIdentifier, count: 2},
				{term: "header", kind: KindWord, count: 2},
				{term: "sending", kind: KindWord},
			},
			absent: []string{"amazon", "amazon.com", "http", "thanks", "hi", "always", "503", "seems"},
		},
		{
			name: "apostrophes never pair as quotes; and/or is not a path",
			goal: "It doesn't work and/or it's slow when the user's config isn't found in ./conf/app.yaml or docs/",
			want: []want{
				{term: "conf/app.yaml", kind: KindPath},
				{term: "app.yaml", kind: KindFileName, parent: "conf/app.yaml"},
				{term: "docs", kind: KindPath},
				{term: "slow", kind: KindWord},
			},
			absent: []string{"and/or", "t work and/or it", "s slow when the user", "doesn", "isn"},
		},
		{
			name: "snake_case, dunder and ALL_CAPS identifiers; GitHub blob link",
			goal: "__init__ of the parser ignores MAX_LINE_SIZE (see https://github.com/o/r/blob/main/pkg/parse/scan.go#L40) and get_value_2 returns None",
			want: []want{
				{term: "__init__", kind: KindIdentifier},
				{term: "init", kind: KindSnakePart, parent: "__init__"},
				{term: "MAX_LINE_SIZE", kind: KindIdentifier},
				{term: "size", kind: KindSnakePart},
				{term: "get_value_2", kind: KindIdentifier},
				{term: "pkg/parse/scan.go", kind: KindPath},
				{term: "scan.go", kind: KindFileName},
				{term: "parser", kind: KindWord},
			},
			absent: []string{"github", "o", "main", "2", "none"},
		},
		{
			name: "Windows path and pytest frame",
			goal: "Fails on Windows: C:\\Users\\me\\proj\\src\\app.py crashes\n\nsrc/_pytest/python.py:1234: in runtest\nE   AssertionError: expected 3, got 4",
			want: []want{
				{term: "C:/Users/me/proj/src/app.py", kind: KindPath},
				{term: "app.py", kind: KindFileName},
				{term: "src/_pytest/python.py:1234", kind: KindStackFrame, file: "src/_pytest/python.py", line: 1234},
				{term: "expected 3, got 4", kind: KindErrorFragment},
				{term: "runtest", kind: KindWord},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ExtractTerms(c.goal)
			m := termMap(got)
			for _, w := range c.want {
				g, ok := m[w.term]
				if !ok {
					t.Errorf("term %q missing; got %s", w.term, dump(got))
					continue
				}
				if g.Kind != w.kind {
					t.Errorf("term %q: kind %s, want %s", w.term, g.Kind, w.kind)
				}
				if w.parent != "" && g.Parent != w.parent {
					t.Errorf("term %q: parent %q, want %q", w.term, g.Parent, w.parent)
				}
				if w.file != "" && (g.File != w.file || g.Line != w.line) {
					t.Errorf("term %q: frame %s:%d, want %s:%d", w.term, g.File, g.Line, w.file, w.line)
				}
				if w.count != 0 && g.Count != w.count {
					t.Errorf("term %q: count %d, want %d", w.term, g.Count, w.count)
				}
				if g.Origin != "exploratory" {
					t.Errorf("term %q: origin %q", w.term, g.Origin)
				}
			}
			for _, a := range c.absent {
				if _, ok := m[a]; ok {
					t.Errorf("term %q should not be extracted (%+v)", a, m[a])
				}
			}
		})
	}
}

func dump(ts []schema.GoalTerm) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString("\n  " + t.Kind + " " + t.Term)
	}
	return b.String()
}

// Offsets point into the goal: a term's text (or, for a split part, its
// parent identifier) is found at Offset.
func TestExtractTermsOffsets(t *testing.T) {
	goal := "The `parseHeaderLine` in pkg/http/reader.go fails: error: bad header\nand Foo.barBaz too"
	for _, term := range ExtractTerms(goal) {
		if term.Offset < 0 || term.Offset+term.Length > len(goal) {
			t.Fatalf("%+v out of range", term)
		}
		span := goal[term.Offset : term.Offset+term.Length]
		switch term.Kind {
		case KindCamelPart, KindSnakePart:
			if !strings.Contains(span, term.Parent) && span != term.Parent {
				t.Errorf("%s %q: span %q is not the parent %q", term.Kind, term.Term, span, term.Parent)
			}
			if !strings.Contains(strings.ToLower(span), term.Term) {
				t.Errorf("%s %q: not inside %q", term.Kind, term.Term, span)
			}
		case KindWord:
			if strings.ToLower(span) != term.Term {
				t.Errorf("word %q at %q", term.Term, span)
			}
		case KindPath, KindFileName, KindStackFrame:
			if !strings.Contains(span, term.Term) && !strings.Contains(span, strings.TrimSuffix(term.Term, ":")) {
				t.Errorf("%s %q at %q", term.Kind, term.Term, span)
			}
		default:
			if span != term.Term {
				t.Errorf("%s %q at %q", term.Kind, term.Term, span)
			}
		}
	}
}

func TestExtractTermsDeterministicAndOrdered(t *testing.T) {
	goal := "ValueError in foo_bar.Baz: see lib/x.py:10 and `qux()` --dry-run \"a b\" words words"
	a := ExtractTerms(goal)
	for i := 0; i < 20; i++ {
		if b := ExtractTerms(goal); !reflect.DeepEqual(a, b) {
			t.Fatal("extraction is not deterministic")
		}
	}
	for i := 1; i < len(a); i++ {
		ri, rj := kindRank[a[i-1].Kind], kindRank[a[i].Kind]
		if ri > rj || (ri == rj && a[i-1].Offset > a[i].Offset) {
			t.Fatalf("order broken at %d: %+v before %+v", i, a[i-1], a[i])
		}
	}
	seen := map[string]bool{}
	for _, term := range a {
		if seen[term.Term] {
			t.Fatalf("duplicate term %q", term.Term)
		}
		seen[term.Term] = true
	}
	if m := termMap(a); m["words"].Count != 2 {
		t.Fatalf("words counted %d times", m["words"].Count)
	}
}

func TestExtractTermsEmptyAndNoise(t *testing.T) {
	if got := ExtractTerms(""); len(got) != 0 {
		t.Fatalf("empty goal gave %v", got)
	}
	if got := ExtractTerms("Hi, thanks!\nPlease see the issue; the expected and actual version. 1.2.3 #45"); len(got) != 0 {
		t.Fatalf("boilerplate gave %s", dump(got))
	}
	// On a one-line goal "issue" is a title word: the basket makes it noise
	// unless the tree has an issue package (cli/cli's pkg/cmd/issue).
	if got := ExtractTerms("Please see the issue; the expected and actual version. 1.2.3 #45"); len(got) != 1 || got[0].Term != "issue" {
		t.Fatalf("one-line boilerplate gave %s, want issue only", dump(got))
	}
	// Verbs that are also what code is about stay terms: "screen update"
	// names UpdateList and UpdateCount (fzf); the basket, not the stopword
	// list, decides when such a verb only describes the change.
	m := termMap(ExtractTerms("Remove race conditions from screen update"))
	for _, w := range []string{"remove", "update", "screen"} {
		if _, ok := m[w]; !ok {
			t.Errorf("%q dropped from %s", w, dump(ExtractTerms("Remove race conditions from screen update")))
		}
	}
	// ... in the first line only: in the body of a report they narrate.
	goal := "Fix broken issue list after screen update\n\nI use it daily; the issue is that we add a row and update it."
	m = termMap(ExtractTerms(goal))
	for w, n := range map[string]int{"issue": 1, "update": 1, "use": 0, "add": 0} {
		if got := m[w].Count; got != n {
			t.Errorf("%q counted %d times in %s, want %d (title only)", w, got, dump(ExtractTerms(goal)), n)
		}
	}
	if got := bodyStart("  one line\n\n"); got != len("  one line\n\n") {
		t.Errorf("bodyStart of a one-line goal = %d", got)
	}
}

func TestSplitCamel(t *testing.T) {
	for in, want := range map[string][]string{
		"HTTPServerError":    {"HTTP", "Server", "Error"},
		"utf8Decode":         {"utf8", "Decode"},
		"UnicodeDecodeError": {"Unicode", "Decode", "Error"},
		"getValue":           {"get", "Value"},
		"IOReader":           {"IO", "Reader"},
	} {
		if got := splitCamel(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitCamel(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzExtractTerms(f *testing.F) {
	f.Add("In execute(), check c.Runnable() --flag `x` \"y\" 'z' a/b/c.go:12 Error: boom")
	f.Add("File \"C:\\x\\y.py\", line 3, in <module>\n```\ncode\n")
	f.Add("\xff\xfe `` '' \"\" <!-- x")
	f.Add("fix(release): discussion category (close #56)\n\nFixes owner/repo#12, see https://github.com/o/r/issues/9")
	f.Add("api, net/http: return structured error\nfix(: #\n(x):")
	f.Fuzz(func(t *testing.T, goal string) {
		got := ExtractTerms(goal)
		if again := ExtractTerms(goal); !reflect.DeepEqual(got, again) {
			t.Fatalf("not deterministic: %s vs %s", dump(got), dump(again))
		}
		for _, term := range got {
			if term.Term == "" || term.Count < 1 || term.Offset < 0 || term.Offset+term.Length > len(goal) {
				t.Fatalf("bad term %+v", term)
			}
			if _, ok := kindRank[term.Kind]; !ok {
				t.Fatalf("unknown kind %q", term.Kind)
			}
		}
	})
}

func TestExtractTermsIssueTemplatesAndCode(t *testing.T) {
	goal := "C++ User Defined Literals not supported <img width=\"148\" alt=\"screenshot\" src=\"x.png\">\n- Sphinx version: 3.1.0dev\n- Sphinx extensions:  No\n**Environment info**\n\n```cpp\nnamespace units::si {\ninline constexpr auto planck_constant = 6.62607015e-34q_J * 1q_s;\n}\n```\n\n```\nWARNING: Invalid definition: Expected end of definition. [error at 58]\n```\n\nSphinx lacks UDLs; the `codegen.ast` `String` class and `get()`.\n\n### Describe the bug\n\nx\n\n### Sphinx version\n\n5.0.2\n\n### Additional context\n\n_No response_\n"
	m := termMap(ExtractTerms(goal))
	for term, kind := range map[string]string{
		"units::si":       KindDotted,
		"planck_constant": KindIdentifier,
		"Invalid definition: Expected end of definition. [error at 58]": KindErrorFragment,
		"udls":        KindWord,
		"String":      KindIdentifier,
		"get":         KindIdentifier,
		"codegen.ast": KindDotted,
		"literals":    KindWord,
	} {
		if m[term].Kind != kind {
			t.Errorf("%q: kind %q, want %s", term, m[term].Kind, kind)
		}
	}
	for _, a := range []string{"namespace", "inline", "constexpr", "auto", "ud", "ls", "describe", "additional", "context", "_No", "response_", "version", "img", "width", "screenshot", "src", "x.png", "environment", "info", "extensions"} {
		if _, ok := m[a]; ok {
			t.Errorf("%q should not be a term", a)
		}
	}
}

func TestExtractTermsHyphenatedNames(t *testing.T) {
	m := termMap(ExtractTerms("rtch-zone exits 2 with a non-default --gate-only flag; `X-Request-ID` and e-mail, UTF-8, built-in"))
	for term, kind := range map[string]string{"rtch-zone": KindIdentifier, "X-Request-ID": KindIdentifier, "gate-only": KindFlag, "zone": KindWord, "rtch": KindWord} {
		if m[term].Kind != kind {
			t.Errorf("%q: kind %q, want %s", term, m[term].Kind, kind)
		}
	}
	for _, a := range []string{"non-default", "e-mail", "utf-8", "built-in", "2"} {
		if _, ok := m[a]; ok {
			t.Errorf("%q should not be a term", a)
		}
	}
}

// BenchmarkExtractTerms runs the extractor over every intent of the evaluation
// sets when they are present beside the repository (../shared/eval).
func BenchmarkExtractTerms(b *testing.B) {
	var goals []string
	for _, name := range []string{"go-commits.jsonl", "swebench-verified-dev.jsonl"} {
		data, err := os.ReadFile(sharedeval.Path(b, name))
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var row struct {
				Intent           string `json:"intent"`
				ProblemStatement string `json:"problem_statement"`
			}
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				b.Fatal(err)
			}
			goals = append(goals, row.Intent+row.ProblemStatement)
		}
	}
	bytes := 0
	for _, g := range goals {
		bytes += len(g)
	}
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range goals {
			ExtractTerms(g)
		}
	}
}

func TestExtractTermsFileNameStemParts(t *testing.T) {
	goal := "Add a testcase at https://github.com/sphinx-doc/sphinx/blob/e0b1e10/tests/test_pycode_ast.py#L57 and see rtchintake_test.go"
	m := termMap(ExtractTerms(goal))
	for term, kind := range map[string]string{
		"tests/test_pycode_ast.py": KindPath,
		"test_pycode_ast.py":       KindFileName,
		"pycode":                   KindSnakePart,
		"ast":                      KindSnakePart,
		"rtchintake_test.go":       KindFileName,
		"rtchintake":               KindSnakePart,
	} {
		if m[term].Kind != kind {
			t.Errorf("%q: kind %q, want %s", term, m[term].Kind, kind)
		}
	}
	if p := m["pycode"]; p.Parent != "test_pycode_ast" || goal[p.Offset:p.Offset+p.Length] != "test_pycode_ast" {
		t.Errorf("pycode: parent %q at %q", p.Parent, goal[p.Offset:p.Offset+p.Length])
	}
}

func TestExtractTermsFenceInfoAndQuotedMessages(t *testing.T) {
	goal := "Contains.as_set returns Contains\n```pytb\n>>> Piecewise((6, Contains(x, Reals)), (7, True))\nAttributeError: 'Contains' object has no attribute 'as_relational'\nValueError: 'bad value'\n```\n"
	m := termMap(ExtractTerms(goal))
	for term, kind := range map[string]string{
		"'Contains' object has no attribute 'as_relational'": KindErrorFragment,
		"bad value":     KindErrorFragment,
		"as_relational": KindIdentifier,
		"Piecewise":     KindIdentifier,
	} {
		if m[term].Kind != kind {
			t.Errorf("%q: kind %q, want %s", term, m[term].Kind, kind)
		}
	}
	for _, a := range []string{"pytb", "py", "True"} {
		if _, ok := m[a]; ok {
			t.Errorf("%q should not be a term", a)
		}
	}
}

func TestExtractTermsMixedSeparatorsAndEscapes(t *testing.T) {
	goal := "`somepackage.subA::Foo.somename` differs; see :const:\\`somename\\`; run\n```\n$ git clone x && make html\n```\nthe database-oriented and config-related parts, C:\\Tools\\bin\\run.bat"
	m := termMap(ExtractTerms(goal))
	for term, kind := range map[string]string{
		"somepackage.subA::Foo.somename": KindDotted,
		"subA":                           KindIdentifier,
		"somename":                       KindIdentifier,
		"C:/Tools/bin/run.bat":           KindPath,
		"html":                           KindIdentifier,
	} {
		if m[term].Kind != kind {
			t.Errorf("%q: kind %q, want %s", term, m[term].Kind, kind)
		}
	}
	if s := m["subA"]; goal[s.Offset:s.Offset+s.Length] != "subA" {
		t.Errorf("subA at %q", goal[s.Offset:s.Offset+s.Length])
	}
	for _, a := range []string{"somepackage.subA", "Foo.somename", "somename\\", "t:/`somename/`", "git", "clone", "make", "database-oriented", "config-related"} {
		if _, ok := m[a]; ok {
			t.Errorf("%q should not be a term", a)
		}
	}
}

func TestExtractTermsAbbreviations(t *testing.T) {
	goal := "Fix modulo of a number by the arguments\n\nThe previous value of the repository is kept."
	m := termMap(ExtractTerms(goal))
	for term, parent := range map[string]string{"mod": "modulo", "num": "number", "arg": "arguments", "args": "arguments"} {
		g, ok := m[term]
		if !ok || g.Kind != KindAbbreviation || g.Parent != parent {
			t.Errorf("%q: %+v, want an abbreviation of %q", term, g, parent)
			continue
		}
		if goal[g.Offset:g.Offset+g.Length] != parent {
			t.Errorf("%q points at %q, want %q", term, goal[g.Offset:g.Offset+g.Length], parent)
		}
	}
	// Body words are words, without their short forms.
	for _, term := range []string{"prev", "val", "repo"} {
		if g, ok := m[term]; ok {
			t.Errorf("%q from the body: %+v", term, g)
		}
	}
	if m["previous"].Kind != KindWord || m["repository"].Kind != KindWord {
		t.Errorf("body words: %+v %+v", m["previous"], m["repository"])
	}
	// A goal that writes the short form itself keeps it as a word.
	if g := termMap(ExtractTerms("Fix the mod of negative numbers"))["mod"]; g.Kind != KindWord {
		t.Errorf("mod written in the goal: %+v", g)
	}
}

func TestExtractTermsIssueReferences(t *testing.T) {
	// The keyword that closes an issue on merge says nothing about the code;
	// the same word elsewhere in the goal is still a term.
	goal := "fix panic on printing a query (close #56)\n\nCloses cli/cli#12, resolves GH-7. The reader must close the file."
	m := termMap(ExtractTerms(goal))
	g, ok := m["close"]
	if !ok || g.Count != 1 || goal[g.Offset:g.Offset+g.Length] != "close" || g.Offset < strings.Index(goal, "reader") {
		t.Errorf("close: %+v, want one occurrence, in the body's sentence", g)
	}
	for _, w := range []string{"closes", "resolves", "gh", "cli", "cli/cli", "56", "12", "7"} {
		if g, ok := m[w]; ok {
			t.Errorf("%q taken from an issue reference: %+v", w, g)
		}
	}
	for _, w := range []string{"panic", "printing", "query", "reader", "file"} {
		if _, ok := m[w]; !ok {
			t.Errorf("%q dropped from %s", w, dump(ExtractTerms(goal)))
		}
	}
	if _, ok := termMap(ExtractTerms("Fix the pager\n\ncloses https://github.com/o/r/issues/9"))["closes"]; ok {
		t.Errorf("closes before an issue URL taken as a term")
	}
	// A bare number sign belongs to the literal around it.
	if _, ok := termMap(ExtractTerms(`Default border colour "#333333" is too dark`))["#333333"]; !ok {
		t.Errorf("quoted #333333 lost: %s", dump(ExtractTerms(`Default border colour "#333333" is too dark`)))
	}
	if _, ok := termMap(ExtractTerms("Error: unexpected token #1 in template line"))["unexpected token #1 in template line"]; !ok {
		t.Errorf("error message cut at #1: %s", dump(ExtractTerms("Error: unexpected token #1 in template line")))
	}
	// A keyword without a reference is a word like any other.
	if _, ok := termMap(ExtractTerms("Close the pager when the input ends"))["close"]; !ok {
		t.Errorf("close without a reference dropped")
	}
}

func TestExtractTermsScope(t *testing.T) {
	for goal, want := range map[string][]string{
		"api: return structured error for failed API calls": {"api"},
		"fix(release): discussion category with assets":     {"release"},
		"cmd, api: regenerate the manual":                   {"cmd", "api"},
		"fix: no scope in a change type":                    nil,
		"Bugfix: Retention period is sent as 0":             nil,
		"panic: runtime error: index out of range":          nil,
		"net/http: close idle connections":                  {"net", "http"},
		"Fix the parser\n\nparser: more in the body":        nil,
		"Regression in 5.2.3: pytest tries to collect":      nil,
		"TypeError: unsupported operand type":               nil,
		"README.md: typo":                                   nil,
		"lint: new rule":                                    {"lint"},
		"x509: reject bad certificates":                     {"x509"},
		"\n\napi: return structured error":                  {"api"},
		"cmd, API: regenerate the manual":                   nil,
		"proposal: spec: add generics":                      nil,
		"setState(items): loses the order":                  nil,
	} {
		var got []string
		for _, g := range ExtractTerms(goal) {
			if g.Kind == KindScope {
				got = append(got, g.Term)
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%q: scope %v, want %v", goal, got, want)
		}
	}
	// The change type of "fix(release):" is no call of fix.
	if g, ok := termMap(ExtractTerms("fix(release): discussion category"))["fix"]; ok {
		t.Errorf("fix from a change type: %+v", g)
	}
	// A call that opens the goal keeps its name.
	if g := termMap(ExtractTerms("setState(items): loses the order"))["setState"]; g.Kind != KindIdentifier {
		t.Errorf("setState: %+v", g)
	}
	// A scope named again as a qualifier stays the scope.
	if g := termMap(ExtractTerms("time: make time.Parse accept commas"))["time"]; g.Kind != KindScope || g.Count != 2 {
		t.Errorf("time: %+v", g)
	}
	// The scope word written again later is one term, counted twice.
	if g := termMap(ExtractTerms("api: return structured error for failed API calls"))["api"]; g.Count != 2 || g.Offset != 0 {
		t.Errorf("api: %+v", g)
	}
}

func TestExtractTermsEnvironmentLinesOnlyInTheBody(t *testing.T) {
	// A title is the topic even when it reads like an environment line.
	m := termMap(ExtractTerms("os: add Readlink"))
	if _, ok := m["readlink"]; m["os"].Kind != KindScope || !ok {
		t.Errorf("title masked as an environment line: %s", dump(ExtractTerms("os: add Readlink")))
	}
	// In the body of a report the same lines are the reporter's machine.
	goal := "Readlink fails on a symlink loop\n\n- OS: Linux\n- Python version: 3.9.1\n- lang: en_US"
	for _, w := range []string{"linux", "python", "en_us", "lang"} {
		if g, ok := termMap(ExtractTerms(goal))[w]; ok {
			t.Errorf("%q from an environment line: %+v", w, g)
		}
	}
}
