package probe

import "testing"

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
		if got := defContext([]byte(c.line), c.col); got != c.want {
			t.Errorf("defContext(%q, %d) = %v, want %v", c.line, c.col, got, c.want)
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
