package walk

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain\n", "plain\n"},
		{"\xef\xbb\xbf---\n", "---\n"},
		{"\xef\xbb\xbf\xef\xbb\xbfx", "x"}, // a doubled BOM is dropped whole (FuzzChunk)
		{"a\xffb", "a\ufffdb"},
		{"\xc0\xbc", "\ufffd\ufffd"},           // overlong '<'
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"}, // surrogate
		{"trunc \xe2\x82", "trunc \ufffd\ufffd"},
		{"ok \ufffd kept", "ok \ufffd kept"},
		{"crlf\r\n", "crlf\r\n"},
	} {
		if got := DecodeText([]byte(c.in)); got != c.want {
			t.Errorf("DecodeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\n\n", []string{"a", ""}},
		{"\n", []string{""}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\rb\r", []string{"a", "b"}},
		{"a\r\rb", []string{"a", "", "b"}},
		{"a\n\rb", []string{"a", "", "b"}},
		{"a\r\n\nb", []string{"a", "", "b"}},
		{"no eol", []string{"no eol"}},
	} {
		got := Lines(c.in)
		if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("Lines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestIsBinary(t *testing.T) {
	late := append(bytes.Repeat([]byte("a"), 70000), 0)
	for _, c := range []struct {
		in   []byte
		want bool
	}{
		{nil, false},
		{[]byte("text\n"), false},
		{[]byte("PNG\x00"), true},
		{late, true},
		{[]byte("\xff\xfe#\x00"), true},
	} {
		if got := IsBinary(c.in); got != c.want {
			t.Errorf("IsBinary(%.20q…) = %v", c.in, got)
		}
	}
}

func FuzzDecodeText(f *testing.F) {
	for _, s := range []string{"", "a\xffb", "\xef\xbb\xbf<x>", "\xc0\xbc/guild:recall\xc0\xbe", "\xed\xa0\x80", "a\r\nb\rc\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := DecodeText(b)
		if !utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 out of %q", b)
		}
		// Replacement never creates markup: '<' and '>' come only from
		// the same ASCII bytes in the input.
		for _, ch := range []byte("<>\n\r") {
			if strings.Count(s, string(ch)) != bytes.Count(b, []byte{ch}) {
				t.Fatalf("%q: count of %q changed: %q", b, ch, s)
			}
		}
		if utf8.Valid(b) && !bytes.HasPrefix(b, utf8BOM) && s != string(b) {
			t.Fatalf("valid input changed: %q -> %q", b, s)
		}
		ls := Lines(s)
		joined := strings.Join(ls, "")
		stripped := strings.NewReplacer("\r", "", "\n", "").Replace(s)
		if joined != stripped {
			t.Fatalf("Lines lost text: %q -> %q", s, ls)
		}
		for _, l := range ls {
			if strings.ContainsAny(l, "\r\n") {
				t.Fatalf("line with a terminator: %q", l)
			}
		}
	})
}
