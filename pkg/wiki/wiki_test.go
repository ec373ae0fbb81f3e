package wiki

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseFrontmatterFields(t *testing.T) {
	src := "---\ntype: decision\nowner: operator\nconfidence: high\nsource_refs: [docs/adr-1.md, \"meeting 2026-03-02\"]\nimportance: 4\nupdated_at: 2026-04-01\nsupersedes: wiki/decisions/old.md\nsynthesized: false\n---\n# Title\n\nbody\n"
	p, diags := Parse("wiki/decisions/x.md", []byte(src))
	if len(diags) != 0 {
		t.Fatalf("diags: %v", diags)
	}
	want := Frontmatter{Type: "decision", Owner: "operator", Confidence: "high",
		SourceRefs: []string{"docs/adr-1.md", "meeting 2026-03-02"}, Importance: 4,
		UpdatedAt: "2026-04-01", Supersedes: []string{"wiki/decisions/old.md"},
		Keys: []string{"type", "owner", "confidence", "source_refs", "importance", "updated_at", "supersedes", "synthesized"}}
	if !reflect.DeepEqual(p.Front, want) {
		t.Fatalf("front = %+v\nwant %+v", p.Front, want)
	}
	if p.BodyLine != 11 || p.Title != "Title" || p.Category != "decision" {
		t.Fatalf("bodyLine=%d title=%q cat=%q", p.BodyLine, p.Title, p.Category)
	}
}

func TestCRLFAndBOM(t *testing.T) {
	src := "\xef\xbb\xbf---\r\nowner: reviewed\r\ntype: standard\r\n---\r\n# Std\r\n\r\nline one\r\n"
	p, diags := Parse("wiki/standards/s.md", []byte(src))
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if p.Front.Owner != "reviewed" || p.Front.Type != "standard" || !p.HasFront {
		t.Fatalf("front %+v", p.Front)
	}
	if len(p.Sections) != 1 || p.Sections[0].StartLine != 5 || strings.Contains(p.Sections[0].Text, "\r") {
		t.Fatalf("sections %+v", p.Sections)
	}
}

func TestMissingFrontmatter(t *testing.T) {
	p, diags := Parse("wiki/concepts/c.md", []byte("# Concept\n\ntext\n"))
	if len(diags) != 0 || p.HasFront || p.Category != "concept" || p.BodyLine != 1 {
		t.Fatalf("p=%+v diags=%v", p, diags)
	}
}

func TestBadFrontmatter(t *testing.T) {
	cases := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"malformed", "---\nowner: a\ntype: b: c\n---\nbody\n", 3, "mapping values are not allowed"},
		{"duplicate", "---\nowner: a\ntype: concept\nowner: b\n---\nbody\n", 4, `mapping key "owner" already defined at line 2`},
		{"tabs", "---\nowner: a\n\tx: 1\n---\nbody\n", 3, "malformed yaml"},
		{"alias", "---\na: &a [x, x]\nb: *a\n---\n", 2, "anchors and aliases"},
		{"importance", "---\nimportance: high\n---\n", 2, "not an integer"},
		{"list", "---\nowner: [a, b]\n---\n", 2, "single value"},
		{"notmap", "---\n- a\n- b\n---\n", 2, "not a mapping"},
		{"unterminated", "---\nowner: a\nbody\n", 1, "never closed"},
		{"big", "---\nx: " + strings.Repeat("a", MaxFrontmatterBytes) + "\n---\n", 2, "over the"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, diags := Parse("wiki/x.md", []byte(c.src))
			if p.HasFront {
				t.Fatalf("frontmatter accepted: %+v", p.Front)
			}
			if len(diags) != 1 || diags[0].Line != c.line || !strings.Contains(diags[0].Message, c.msg) {
				t.Fatalf("diags = %v, want line %d containing %q", diags, c.line, c.msg)
			}
			if !strings.HasPrefix(diags[0].String(), "wiki/x.md:") {
				t.Fatalf("diagnostic does not name file: %s", diags[0])
			}
		})
	}
}

func TestAliasBombRejected(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na0: &a0 [x,x,x,x,x,x,x,x,x]\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	b.WriteString("---\nbody\n")
	p, diags := Parse("wiki/bomb.md", []byte(b.String()))
	if p.HasFront || len(diags) != 1 || !strings.Contains(diags[0].Message, "aliases") {
		t.Fatalf("bomb not rejected: %v", diags)
	}
}

func TestTrustClaimRecorded(t *testing.T) {
	p, _ := Parse("wiki/entities/e.md", []byte("---\nowner: synthesized\ntrust_tier: operator\nverified: yes\n---\nx\n"))
	if !reflect.DeepEqual(p.Front.TrustClaims, []string{"trust_tier", "verified"}) {
		t.Fatalf("claims %v", p.Front.TrustClaims)
	}
}

func TestWarningsKeepFrontmatter(t *testing.T) {
	p, diags := Parse("wiki/x.md", []byte("---\ntype: memo\nimportance: 9\n---\n"))
	if !p.HasFront || p.Front.Importance != 5 || len(diags) != 2 || diags[0].Line != 2 || diags[1].Line != 3 {
		t.Fatalf("p=%+v diags=%v", p.Front, diags)
	}
}

func TestSections(t *testing.T) {
	body := "intro text\n\n# Top\n\n## Empty\n### Deep\ndeep text\n```\n# not a heading\n```\n## Next ##\nnext\n"
	secs := SplitSections(body, 5)
	var got []string
	for _, s := range secs {
		got = append(got, fmt.Sprintf("%s@%d-%d", s.HeadingPath(), s.StartLine, s.EndLine))
	}
	want := []string{"@5-6", "Top > Empty > Deep@10-14", "Top > Next@15-16"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
	if !strings.Contains(secs[1].Text, "# not a heading") {
		t.Fatal("fenced code split")
	}
}

func TestInvalidUTF8AndCR(t *testing.T) {
	p, _ := Parse("wiki/x.md", []byte("# A\rb\xff\xc0\xbc\n"))
	for _, s := range p.Sections {
		if !utf8.ValidString(s.Text) || strings.Contains(s.Text, "<") {
			t.Fatalf("bad text %q", s.Text)
		}
	}
	if len(p.Sections) != 1 || p.Sections[0].EndLine != 2 {
		t.Fatalf("sections %+v", p.Sections)
	}
}

func TestListAndLoad(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("wiki/context/goals.md", "# Goals\ng\n")
	write("wiki/decisions/d.md", "# D\nd\n")
	write("wiki/.obsidian/x.md", "# hidden\n")
	write("wiki/notes.txt", "not md")
	write("wiki/bin.md", "a\x00b")
	write("wiki/late-nul.md", "# Late\n"+strings.Repeat("a", 70000)+"\x00")
	write(".guild/principles.md", "# P\np\n")
	if err := os.Symlink(filepath.Join(root, "wiki/decisions/d.md"), filepath.Join(root, "wiki/link.md")); err != nil {
		t.Fatal(err)
	}
	pages, diags, err := Load(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range pages {
		paths = append(paths, p.Path)
	}
	want := []string{".guild/principles.md", "wiki/context/goals.md", "wiki/decisions/d.md"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %v", paths)
	}
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.String())
	}
	wantD := []string{"wiki/link.md: symlink not followed", "wiki/bin.md: binary file (NUL byte); skipped", "wiki/late-nul.md: binary file (NUL byte); skipped"}
	if !reflect.DeepEqual(msgs, wantD) {
		t.Fatalf("diags %q", msgs)
	}
	if pages[0].Category != "principles" || pages[1].Category != "context" {
		t.Fatalf("categories %q %q", pages[0].Category, pages[1].Category)
	}
}

func TestWikiDirSymlinkNotFollowed(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(outside, "concepts"), 0o755)
	os.WriteFile(filepath.Join(outside, "concepts/x.md"), []byte("# X\nx\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "wiki")); err != nil {
		t.Fatal(err)
	}
	files, diags, err := List(root, 0)
	if err != nil || len(files) != 0 || len(diags) != 1 || diags[0].String() != "wiki: symlink not followed" {
		t.Fatalf("files %v diags %v err %v", files, diags, err)
	}
}

func TestDiagnosticQuotesControlCharacters(t *testing.T) {
	for path, want := range map[string]string{
		"wiki/a\nb.md": `"wiki/a\nb.md":2: m`,
		// A C1 control (U+009B is CSI to a terminal that honours C1
		// controls), a bidi override that shows "gpj.md" as "dm.jpg", a
		// zero-width space: each is spelt out, not printed.
		"wiki/c1\u009b2J.md":      `"wiki/c1\u009b2J.md":2: m`,
		"wiki/bidi\u202egpj.md":   `"wiki/bidi\u202egpj.md":2: m`,
		"wiki/zero\u200bwidth.md": `"wiki/zero\u200bwidth.md":2: m`,
		// Letters of any script are printed as they are.
		"wiki/café-日本.md": "wiki/café-日本.md:2: m",
	} {
		d := Diagnostic{Path: path, Line: 2, Message: "m"}
		if got := d.String(); got != want {
			t.Errorf("%q: %s, want %s", path, got, want)
		}
	}
}

func TestSplitHeadingsKeepsEmptyHeadings(t *testing.T) {
	body := "# Title\n## Empty\n### Child\n\ntext\n## Last\n"
	var got []string
	for _, s := range SplitHeadings(body, 1) {
		got = append(got, fmt.Sprintf("%d %s L%d-L%d", s.Level, s.Heading, s.StartLine, s.EndLine))
	}
	want := []string{"1 Title L1-L1", "2 Empty L2-L2", "3 Child L3-L5", "2 Last L6-L6"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("SplitHeadings = %q, want %q", got, want)
	}
	if n := len(SplitSections(body, 1)); n != 1 {
		t.Errorf("SplitSections kept %d sections, want only Child", n)
	}
}
