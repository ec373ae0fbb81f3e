package scout

import (
	"fmt"
	"strings"
	"testing"
)

func keysOf(ks []key) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%d:%s", k.line, k.key))
	}
	return strings.Join(parts, " ")
}

func TestHeadings(t *testing.T) {
	src := "# Title\n\nText\n## Install ##\n```\n# not a heading\n```\n#### too deep\n#nospace\n   ### Usage\n"
	var got []string
	for _, h := range headings([]byte(src)) {
		got = append(got, fmt.Sprintf("%d:h%d:%s", h.line, h.level, h.text))
	}
	if g, w := strings.Join(got, " "), "1:h1:Title 4:h2:Install 10:h3:Usage"; g != w {
		t.Errorf("got %q, want %q", g, w)
	}
}

func TestFrontmatterKeys(t *testing.T) {
	if g, w := keysOf(frontmatterKeys([]byte("---\ntitle: x\ntags: [a]\n  nested: y\n---\nbody: no\n"))), "2:title 3:tags"; g != w {
		t.Errorf("got %q, want %q", g, w)
	}
	if g := keysOf(frontmatterKeys([]byte("---\ntitle: unterminated\n"))); g != "" {
		t.Errorf("unterminated frontmatter gave keys %q", g)
	}
}

func TestStructuredKeys(t *testing.T) {
	if g, w := keysOf(jsonKeys([]byte("{\"a\": 1,\n \"b\" : {\"c\":\"x:y\"}, \"d\": [\"e\", \"f\"]}"), 10)), "1:a 2:b 2:c 2:d"; g != w {
		t.Errorf("json: got %q, want %q", g, w)
	}
	if g, w := keysOf(yamlKeys([]byte("name: x\nspec:\n  - item: 1\n  url: http://x\nplain text\n"), 10)), "1:name 2:spec 3:item 4:url"; g != w {
		t.Errorf("yaml: got %q, want %q", g, w)
	}
	if g, w := keysOf(tomlKeys([]byte("# c\n[walk]\nmax_file_size = 3\n[[bin]]\nname=\"x\"\n"), 10)), "2:walk 3:max_file_size 4:bin 5:name"; g != w {
		t.Errorf("toml: got %q, want %q", g, w)
	}
	if n := len(jsonKeys([]byte(strings.Repeat("{\"k\":", 1000)), 200)); n != 200 {
		t.Errorf("json keys not capped: %d", n)
	}
}

func TestRequiredLiteral(t *testing.T) {
	for p, want := range map[string]string{`\bADR-\d+\b`: "ADR-", `\bRFC ?\d{3,4}\b`: "RFC", `[A-Z]+-\d+`: "-", `(?i)adr-\d+`: ""} {
		if got := requiredLiteral(p); got != want {
			t.Errorf("requiredLiteral(%q) = %q, want %q", p, got, want)
		}
	}
}

func FuzzShapes(f *testing.F) {
	f.Add([]byte("---\na: 1\n---\n# h\n{\"k\": 1}\n[t]\nx = 1\n"))
	f.Add([]byte("\"unterminated"))
	f.Fuzz(func(t *testing.T, b []byte) {
		headings(b)
		frontmatterKeys(b)
		jsonKeys(b, 50)
		yamlKeys(b, 50)
		tomlKeys(b, 50)
	})
}
