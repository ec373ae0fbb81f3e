package wiki

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// refSplitSections is SplitSections as first written (each section's text
// joined from its lines); the substring version must agree exactly.
func refSplitSections(body string, firstLine int) []Section {
	lines := strings.Split(body, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []Section
	var stack []Section // open headings by level
	cur := Section{StartLine: firstLine}
	var buf []string
	fence := ""
	flush := func(end int) {
		cur.Text = strings.TrimRight(strings.Join(buf, "\n"), "\n ")
		cur.EndLine = end
		if hasContent(buf, cur.Level > 0) {
			out = append(out, cur)
		}
		buf = nil
	}
	for i, l := range lines {
		ln := firstLine + i
		trimmed := strings.TrimLeft(l, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			buf = append(buf, l)
			continue
		}
		if len(l)-len(trimmed) <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			fence = trimmed[:3]
			buf = append(buf, l)
			continue
		}
		level, heading := atxHeading(l)
		if level == 0 {
			buf = append(buf, l)
			continue
		}
		flush(ln - 1)
		for len(stack) > 0 && stack[len(stack)-1].Level >= level {
			stack = stack[:len(stack)-1]
		}
		hpath := make([]string, 0, len(stack)+1)
		for _, s := range stack {
			hpath = append(hpath, s.Heading)
		}
		hpath = append(hpath, heading)
		cur = Section{Heading: heading, Level: level, Path: hpath, StartLine: ln}
		stack = append(stack, cur)
		buf = append(buf, l)
	}
	flush(firstLine + len(lines) - 1)
	return out
}

func TestSplitSectionsMatchesReference(t *testing.T) {
	pieces := []string{"# Title", "## Sub", "### Deep ###", "####### seven", "    # indented code", "   # three", "text line", "", "   ", "```", "~~~", "```go", "# in fence?", "- item", "#no space", "## ", "trailing  "}
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 5000; i++ {
		var ls []string
		for j := rng.Intn(25); j > 0; j-- {
			ls = append(ls, pieces[rng.Intn(len(pieces))])
		}
		body := strings.Join(ls, "\n")
		if rng.Intn(2) == 0 {
			body += "\n"
		}
		first := 1 + rng.Intn(5)
		if got, want := SplitSections(body, first), refSplitSections(body, first); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", body, got, want)
		}
	}
}
