package ignore

import (
	"strings"
	"testing"
)

func TestWildmatch(t *testing.T) {
	cases := []struct {
		pat, text string
		pathname  bool
		want      bool
	}{
		{"foo", "foo", true, true},
		{"bar", "foo", true, false},
		{"", "", true, true},
		{"???", "foo", true, true},
		{"??", "foo", true, false},
		{"*", "foo", true, true},
		{"f*", "foo", true, true},
		{"*f", "foo", true, false},
		{"*foo*", "foo", true, true},
		{"*ob*a*r*", "foobar", true, true},
		{"*ab", "aaaaaaabababab", true, true},
		{"foo\\*", "foo*", true, true},
		{"foo\\*bar", "foobar", true, false},
		{"f\\\\oo", "f\\oo", true, true},
		{"*[al]?", "ball", true, true},
		{"[ten]", "ten", true, false},
		{"**[!te]", "ten", true, true},
		{"**[!ten]", "ten", true, false},
		{"t[a-g]n", "ten", true, true},
		{"t[!a-g]n", "ten", true, false},
		{"t[!a-g]n", "ton", true, true},
		{"t[^a-g]n", "ton", true, true},
		{"a[]]b", "a]b", true, true},
		{"a[]-]b", "a-b", true, true},
		{"a[]-]b", "a]b", true, true},
		{"a[]-]b", "aab", true, false},
		{"a[]a-]b", "aab", true, true},
		{"]", "]", true, true},
		{"a[c-c]st", "acrt", true, false},
		{"a[c-c]rt", "acrt", true, true},
		{"[!]-]", "]", true, false},
		{"[!]-]", "a", true, true},
		{"\\", "\\", true, false},
		{"*/\\", "/\\", true, false},
		{"*/\\\\", "/\\", true, true},
		{"[", "[", true, false},
		{"a[", "a[", true, false},
		{"[!", "[!", true, false},
		{"foo", "FOO", true, false},
		// '/' handling with pathname semantics.
		{"foo*bar", "foo/baz/bar", true, false},
		{"foo*bar", "foo/baz/bar", false, true},
		{"foo**bar", "foo/baz/bar", true, false},
		{"foo**bar", "foobazbar", true, true},
		{"foo/**/bar", "foo/baz/bar", true, true},
		{"foo/**/**/bar", "foo/baz/bar", true, true},
		{"foo/**/bar", "foo/b/a/z/bar", true, true},
		{"foo/**/bar", "foo/bar", true, true},
		{"foo/**/**/bar", "foo/bar", true, true},
		{"foo?bar", "foo/bar", true, false},
		{"foo[/]bar", "foo/bar", true, false},
		{"foo[^a-z]bar", "foo/bar", true, false},
		{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar", true, true},
		{"**/foo", "foo", true, true},
		{"**/foo", "XXX/foo", true, true},
		{"**/foo", "bar/baz/foo", true, true},
		{"*/foo", "bar/baz/foo", true, false},
		{"*/foo", "bar/baz/foo", false, true},
		{"**/bar*", "foo/bar/baz", true, false},
		{"**/bar/*", "deep/foo/bar/baz", true, true},
		{"**/bar/*", "deep/foo/bar/baz/", true, false},
		{"**/bar/**", "deep/foo/bar/baz/", true, true},
		{"**/bar/*", "deep/foo/bar", true, false},
		{"**/bar/**", "deep/foo/bar/", true, true},
		{"**/bar**", "foo/bar/baz", true, false},
		{"*/bar/**", "foo/bar/baz/x", true, true},
		{"*/bar/**", "deep/foo/bar/baz/x", true, false},
		{"**/bar/*/*", "deep/foo/bar/baz/x", true, true},
		{"a/**", "a", true, false},
		{"a/**", "a/b/c", true, true},
		// Character classes.
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true, true},
		{"[[:digit:][:upper:][:space:]]", "a", true, false},
		{"[[:digit:][:upper:][:space:]]", "A", true, true},
		{"[[:digit:][:upper:][:space:]]", "1", true, true},
		{"[[:digit:][:upper:][:spaci:]]", "1", true, false},
		{"[[:digit:][:punct:][:space:]]", ".", true, true},
		{"[[:xdigit:]]", "5", true, true},
		{"[[:xdigit:]]", "f", true, true},
		{"[[:xdigit:]]", "g", true, false},
		{"[a-c[:digit:]x-z]", "5", true, true},
		{"[a-c[:digit:]x-z]", "b", true, true},
		{"[a-c[:digit:]x-z]", "q", true, false},
		{"[[:alpha:]]", "\xe9", true, false},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true, true},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", true, false},
		{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true, true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true, true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", true, false},
		{"*a*??????a?????????a???????????????", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true, true},
	}
	for _, c := range cases {
		if got := Wildmatch(c.pat, c.text, c.pathname); got != c.want {
			t.Errorf("Wildmatch(%q, %q, pathname=%v) = %v, want %v", c.pat, c.text, c.pathname, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	src := "\xef\xbb\xbf# comment\n\n*.log\r\n!keep.log\n\\#hash\n\\!bang\ntrail   \nesc\\ \n  \n/anch/\ndir/\nsub/x\n#another\nlast"
	l := Parse([]byte(src), "base/", "base/.gitignore")
	if l.Base != "base" {
		t.Errorf("Base = %q", l.Base)
	}
	type row struct {
		Line                      int
		Text                      string
		Negate, DirOnly, Basename bool
	}
	want := []row{
		{3, "*.log", false, false, true},
		{4, "!keep.log", true, false, true},
		{5, "\\#hash", false, false, true},
		{6, "\\!bang", false, false, true},
		{7, "trail", false, false, true},
		{8, "esc\\ ", false, false, true},
		{10, "/anch/", false, true, false},
		{11, "dir/", false, true, true},
		{12, "sub/x", false, false, false},
		{14, "last", false, false, true},
	}
	if len(l.Patterns) != len(want) {
		t.Fatalf("got %d patterns: %+v", len(l.Patterns), l.Patterns)
	}
	for i, p := range l.Patterns {
		got := row{p.Line, p.Text, p.Negate, p.DirOnly, p.Basename}
		if got != want[i] {
			t.Errorf("pattern %d = %+v, want %+v", i, got, want[i])
		}
	}
	for _, c := range []struct {
		path  string
		isDir bool
		want  string // Text of the deciding pattern, "" for none
	}{
		{"base/a.log", false, "*.log"},
		{"base/x/keep.log", false, "!keep.log"},
		{"base/#hash", false, "\\#hash"},
		{"base/!bang", false, "\\!bang"},
		{"base/trail", false, "trail"},
		{"base/trail   ", false, ""},
		{"base/esc ", false, "esc\\ "},
		{"base/anch", true, "/anch/"},
		{"base/anch", false, ""},
		{"base/x/anch", true, ""},
		{"base/x/dir", true, "dir/"},
		{"base/sub/x", false, "sub/x"},
		{"base/y/sub/x", false, ""},
		{"other/a.log", false, ""},
		{"base", true, ""},
		{"basement/a.log", false, ""},
	} {
		p := l.Match(c.path, c.isDir)
		got := ""
		if p != nil {
			got = p.Text
		}
		if got != c.want {
			t.Errorf("Match(%q, dir=%v) = %q, want %q", c.path, c.isDir, got, c.want)
		}
	}
}

// TestPrefixBeforeStarStar: git compares a pattern's literal prefix
// before wildmatch, so in "foo**/bar" the "**" starts the remaining glob
// and matches across directories, unlike plain wildmatch.
func TestPrefixBeforeStarStar(t *testing.T) {
	l := Parse([]byte("foo**/bar\n"), "", ".gitignore")
	if l.Match("foo/x/y/bar", false) == nil {
		t.Error("foo**/bar should match foo/x/y/bar after the literal prefix is consumed")
	}
	if Wildmatch("foo**/bar", "foo/x/y/bar", true) {
		t.Error("plain wildmatch treats this ** as *")
	}
}

// escape makes every byte of s literal.
func escape(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) || s[i] == ']' || s[i] == '!' {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

func FuzzWildmatch(f *testing.F) {
	for _, s := range []string{"foo", "a/**/b", "[[:alpha:]]", "[!a-c]x", "\\", "**/", "*?*?[", "a[]-]b"} {
		f.Add(s, "a/b/foo", true)
	}
	f.Fuzz(func(t *testing.T, pat, text string, pathname bool) {
		Wildmatch(pat, text, pathname) // must not panic or hang
		if strings.IndexByte(text, 0) < 0 && !Wildmatch(escape(text), text, pathname) {
			t.Errorf("escaped %q does not match itself", text)
		}
		if strings.IndexByte(text, 0) < 0 && !strings.Contains(text, "/") && !Wildmatch("*", text, true) {
			t.Errorf("* does not match %q", text)
		}
	})
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("*.log\n!keep.log\n/build/\n**/cache\n\\#x\ntrail  \n"), "sub", "sub/a.log")
	f.Add([]byte("\xef\xbb\xbfa/**/b\r\n[a-\n"), "", "a/x/b")
	f.Fuzz(func(t *testing.T, data []byte, base, path string) {
		l := Parse(data, base, "fuzz")
		for _, p := range l.Patterns {
			if p.Line < 1 || p.glob == "" {
				t.Fatalf("bad pattern %+v", p)
			}
		}
		l.Match(path, false)
		l.Match(path, true)
	})
}
