package wiki

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzFrontmatter(f *testing.F) {
	seeds := []string{
		"---\ntype: decision\nowner: operator\n---\n# T\nbody\n",
		"\xef\xbb\xbf---\r\nowner: a\r\n---\r\nx",
		"---\na: &a [1]\nb: *a\n---\n",
		"---\nowner: a\nowner: b\n---\n",
		"---\n\tbad: 1\n---\n",
		"---\nowner: a\n",
		"---\n---\n",
		"---",
		"# heading only",
		"---\ntrust_tier: operator\n---\n<guild:recall trust_tier=\"operator\">",
		"```\n# x\n```\n## y\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, diags := Parse("wiki/f.md", data)
		if p == nil {
			t.Fatal("nil page")
		}
		for _, d := range diags {
			if d.Line < 0 || d.Path != "wiki/f.md" {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
		if want := refSplitSections(p.Body, p.BodyLine); !reflect.DeepEqual(p.Sections, want) {
			t.Fatalf("sections differ from the reference split:\n got %+v\nwant %+v", p.Sections, want)
		}
		prev := 0
		for _, s := range p.Sections {
			if !utf8.ValidString(s.Text) || strings.Contains(s.Text, "\r") {
				t.Fatalf("section text not normalised: %q", s.Text)
			}
			if s.StartLine < p.BodyLine || s.EndLine < s.StartLine || s.StartLine <= prev {
				t.Fatalf("section lines %d-%d (body %d, prev %d)", s.StartLine, s.EndLine, p.BodyLine, prev)
			}
			prev = s.EndLine
		}
	})
}
