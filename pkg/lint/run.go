package lint

import (
	"fmt"
	"strings"

	"github.com/rtch/rtch/pkg/wiki"
)

// Layer returns the text of a bundle layer: from its heading line (inclusive) to
// the next layer heading (exclusive). ok is false when the heading is missing.
// Layers are found by their exact heading lines outside fenced code and wrapped
// blocks, so headings inside included pages never cut a layer short.
func Layer(text, heading string) (string, bool) {
	ls := scan(text)
	start := -1
	for i, l := range ls {
		if l.heading != 2 {
			continue
		}
		t := strings.TrimRight(l.text, " \t")
		if start < 0 {
			if t == heading {
				start = i
			}
			continue
		}
		if t == UniversalHeading || t == RoleHeading || t == TaskHeading {
			return joinLines(ls[start:i]), true
		}
	}
	if start < 0 {
		return "", false
	}
	return joinLines(ls[start:]), true
}

func joinLines(ls []line) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = l.text
	}
	return strings.Join(s, "\n")
}

// RunBundle is one bundle of a run, for CheckRun.
type RunBundle struct {
	// Name is the path reported in reasons.
	Name string
	// Text is the bundle's content.
	Text string
}

// CheckRun compares the bundles of one run: the Universal layer must be
// byte-identical in all of them, and the Role-dependent layer in all bundles of
// the same specialist (frontmatter specialist). It returns failure reasons per
// bundle name. When bundles differ, the variant most bundles share (the first
// bundle's on a tie) is the reference and the others fail.
func CheckRun(bundles []RunBundle) map[string][]string {
	out := map[string][]string{}
	compare := func(group []RunBundle, heading, what string) {
		texts := map[string]string{}
		count := map[string]int{}
		var order []string
		for _, b := range group {
			t, ok := Layer(b.Text, heading)
			if !ok {
				out[b.Name] = append(out[b.Name], fmt.Sprintf("no %q section to compare across the run", heading))
				continue
			}
			texts[b.Name] = t
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
		}
		if len(order) < 2 {
			return
		}
		ref := order[0]
		for _, t := range order {
			if count[t] > count[ref] {
				ref = t
			}
		}
		var refName string
		for _, b := range group {
			if texts[b.Name] == ref {
				refName = b.Name
				break
			}
		}
		for _, b := range group {
			t, ok := texts[b.Name]
			if !ok || t == ref {
				continue
			}
			off := firstDiff(t, ref)
			out[b.Name] = append(out[b.Name], fmt.Sprintf("%s differs from %s's at byte %d (line %d of the section)", what, refName, off, 1+strings.Count(t[:off], "\n")))
		}
	}
	compare(bundles, UniversalHeading, "Universal section")
	bySpecialist := map[string][]RunBundle{}
	var specs []string
	for _, b := range bundles {
		s := specialist(b.Text)
		if _, seen := bySpecialist[s]; !seen {
			specs = append(specs, s)
		}
		bySpecialist[s] = append(bySpecialist[s], b)
	}
	for _, s := range specs {
		if s != "" && len(bySpecialist[s]) > 1 {
			compare(bySpecialist[s], RoleHeading, "Role-dependent section (specialist "+s+")")
		}
	}
	return out
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// specialist reads the frontmatter's specialist value, "" when absent.
func specialist(text string) string {
	front, _, _, ok, _ := wiki.SplitFrontmatter(wiki.NormalizeText([]byte(text)))
	if !ok {
		return ""
	}
	for _, l := range strings.Split(front, "\n") {
		if v, found := strings.CutPrefix(l, "specialist:"); found {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}
