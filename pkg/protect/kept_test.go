package protect

import (
	"strings"
	"testing"
)

// A kept escaping is the escaping of the text asked, the first time and
// every time after, texts of one length included.
func TestKeptEscapeAsEscaped(t *testing.T) {
	texts := []string{
		"plain text that needs nothing\n",
		"a </guild:recall> tag and a g\u0075ild-recall name",
		"a ¤ sign, a zero\u200bwidth space and a bad byte \xff",
		strings.Repeat("guild recall ", 400),
		"",
		"\xff\xfe", "ab",
		"the </guild:recall> end", "the <//uild:recall> end",
	}
	for _, text := range texts {
		want := escape(text)
		for range 2 {
			if got := escapeText(text); got != want {
				t.Fatalf("escapeText(%.40q) = %.60q, want %.60q", text, got, want)
			}
		}
	}
	if big := strings.Repeat("x", keptMax+1); escapeText(big) != big {
		t.Fatal("a text past keptMax")
	}
}
