package protect

import (
	"fmt"
	"hash/fnv"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/internal/sharedeval"
)

// evalRow is one row of injections-dev.jsonl or benign-dev.jsonl.
type evalRow struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Label    string `json:"label"`
	Category string `json:"category"`
	Source   string `json:"source"`
}

// aimGroups are the classes the probe is built to catch (the aim:
// ≥ 80% recall), chosen by the dataset's own category labels: rows whose
// category names explicit override phrasing, role/template tokens or a
// hidden carrier.
// Rows of delimiter-attacks.jsonl join a group through their technique.
var aimGroups = []struct {
	name      string
	re        *regexp.Regexp // on injections-dev category
	technique *regexp.Regexp // on delimiter-attacks technique
}{
	{"explicit override phrasing", regexp.MustCompile(`ignore_previous_instructions|^promptinject/`), regexp.MustCompile(`^$`)},
	{"role and chat-template tokens", regexp.MustCompile(`^authored/(?:fake_turns|chatml_tokens|tool_call_spoof)$`),
		regexp.MustCompile(`chat_template|role`)},
	{"hidden carriers", regexp.MustCompile(`^authored/html_comment$`),
		regexp.MustCompile(`zero_width|bidi|unicode_tag|html_comment|line_separators|nul_inside`)},
}

type tally struct{ hit, n int }

// half assigns a row to "A" or "B" by a stable hash of its id (FNV-1a): the
// probe's phrasing families were chosen looking at half A's misses, and half
// B checks that they generalise to rows not looked at.
func half(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	return string("AB"[h.Sum32()%2])
}

// split is a tally for all rows and for each half.
type split struct{ all, a, b tally }

func (s *split) add(id string, hit bool) {
	for _, t := range []*tally{&s.all, s.half(id)} {
		t.n++
		if hit {
			t.hit++
		}
	}
}

func (s *split) half(id string) *tally {
	if half(id) == "A" {
		return &s.a
	}
	return &s.b
}

func (s *split) String() string { return fmt.Sprintf("%s | %s | %s", s.all, s.a, s.b) }

func (t tally) pct() float64 {
	if t.n == 0 {
		return 0
	}
	return 100 * float64(t.hit) / float64(t.n)
}

func (t tally) String() string { return fmt.Sprintf("%d/%d (%.1f%%)", t.hit, t.n, t.pct()) }

// TestCorpusReport measures the probe on the shared evaluation data: recall
// per source and per category on injections-dev.jsonl, false positives on
// benign-dev.jsonl (security-discussion rows apart), and the share of
// delimiter attacks flagged. Run with -v to print the tables
// (docs/bench/protect.md holds the numbers). It fails when the aims of the
// issue are missed, so a regression in the rules cannot pass unnoticed.
func TestCorpusReport(t *testing.T) {
	inj := loadJSONL[evalRow](t, sharedeval.Path(t, "injections-dev.jsonl"))
	ben := loadJSONL[evalRow](t, sharedeval.Path(t, "benign-dev.jsonl"))
	atk := loadJSONL[attackRow](t, sharedeval.Path(t, "delimiter-attacks.jsonl"))

	bySource, byCategory, byAim := map[string]*split{}, map[string]*split{}, map[string]*tally{}
	byPattern := map[string]int{}
	var all split
	var misses, missed []string
	for _, r := range inj {
		f := Probe(r.Text)
		hit := Blocking(f)
		inc := func(m map[string]*split, k string) {
			if m[k] == nil {
				m[k] = &split{}
			}
			m[k].add(r.ID, hit)
		}
		inc(bySource, r.Source)
		inc(byCategory, r.Category)
		all.add(r.ID, hit)
		if !hit {
			missed = append(missed, fmt.Sprintf("%s %s %s: %.100q", half(r.ID), r.ID, r.Category, r.Text))
		}
		for _, g := range aimGroups {
			if g.re.MatchString(r.Category) {
				if byAim[g.name] == nil {
					byAim[g.name] = &tally{}
				}
				byAim[g.name].n++
				if hit {
					byAim[g.name].hit++
				} else {
					misses = append(misses, fmt.Sprintf("%s %s: %.80q", r.ID, r.Category, r.Text))
				}
			}
		}
		for _, p := range Patterns(f) {
			byPattern[p]++
		}
	}
	var fpSec, fpOther split
	var fps []string
	for _, r := range ben {
		f := Probe(r.Text)
		hit := Blocking(f)
		tl := &fpOther
		if strings.Contains(r.Category, "security_discussion") {
			tl = &fpSec
		}
		tl.add(r.ID, hit)
		if hit {
			fps = append(fps, fmt.Sprintf("%s %s %v: %.80q", r.ID, r.Category, Patterns(f), r.Text))
		}
	}
	var delim tally
	for _, r := range atk {
		if r.Technique == "code_fence_mentions_tag" {
			continue
		}
		hit := Blocking(Probe(r.raw(t)))
		delim.n++
		if hit {
			delim.hit++
		}
		for _, g := range aimGroups {
			if g.technique.MatchString(r.Technique) {
				if byAim[g.name] == nil {
					byAim[g.name] = &tally{}
				}
				byAim[g.name].n++
				if hit {
					byAim[g.name].hit++
				} else {
					misses = append(misses, r.ID+" "+r.Technique)
				}
			}
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\nrecall, all injections: %s (half A %s, half B %s)\n\n| source | flagged | half A | half B |\n|---|---|---|---|\n", all.all, all.a, all.b)
	for _, k := range sortedKeys(bySource) {
		fmt.Fprintf(&b, "| %s | %s |\n", k, bySource[k])
	}
	fmt.Fprintf(&b, "| **all** | %s |\n", &all)
	fmt.Fprintf(&b, "\n| category | flagged | half A | half B |\n|---|---|---|---|\n")
	for _, k := range sortedKeys(byCategory) {
		fmt.Fprintf(&b, "| %s | %s |\n", k, byCategory[k])
	}
	fmt.Fprintf(&b, "\n| aim group (injections-dev categories + delimiter-attack techniques) | recall |\n|---|---|\n")
	for _, g := range aimGroups {
		fmt.Fprintf(&b, "| %s | %s |\n", g.name, byAim[g.name])
	}
	fmt.Fprintf(&b, "| delimiter attacks (all but the documentation row) | %s |\n", delim)
	fmt.Fprintf(&b, "\n| benign set | false positives | half A | half B |\n|---|---|---|---|\n| outside security discussions | %s |\n| security discussions | %s |\n", &fpOther, &fpSec)
	fmt.Fprintf(&b, "\n| pattern | injection rows |\n|---|---|\n")
	for _, k := range sortedKeys(byPattern) {
		fmt.Fprintf(&b, "| %s | %d |\n", k, byPattern[k])
	}
	cvReport(t, &b)
	if os.Getenv("PROTECT_REPORT_DETAIL") != "" {
		fmt.Fprintf(&b, "\naim-group misses:\n  %s\nfalse positives:\n  %s\n", strings.Join(misses, "\n  "), strings.Join(fps, "\n  "))
		if os.Getenv("PROTECT_REPORT_DETAIL") == "all" {
			fmt.Fprintf(&b, "unflagged injections (half, id, category):\n  %s\n", strings.Join(missed, "\n  "))
		}
	}
	t.Log(b.String())

	for _, g := range aimGroups {
		if tl := byAim[g.name]; tl == nil || tl.pct() < 80 {
			t.Errorf("aim missed: %s recall %v < 80%%", g.name, tl)
		}
	}
	if delim.hit != delim.n {
		t.Errorf("delimiter attacks flagged: %s, want all", delim)
	}
	if fpOther.all.pct() > 2 {
		t.Errorf("aim missed: false positives outside security discussions %s > 2%%", fpOther.all)
	}
	if all.all.pct() < 60 {
		t.Errorf("aim missed: recall on all injection rows %s < 60%%", all.all)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
