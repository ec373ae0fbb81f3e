package protect

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
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
	inj := loadJSONL[evalRow](t, sharedEval(t, "injections-dev.jsonl"))
	ben := loadJSONL[evalRow](t, sharedEval(t, "benign-dev.jsonl"))
	atk := loadJSONL[attackRow](t, sharedEval(t, "delimiter-attacks.jsonl"))

	bySource, byCategory, byAim := map[string]*tally{}, map[string]*tally{}, map[string]*tally{}
	byPattern := map[string]int{}
	var all tally
	var misses []string
	for _, r := range inj {
		f := Probe(r.Text)
		hit := Blocking(f)
		inc := func(m map[string]*tally, k string) {
			if m[k] == nil {
				m[k] = &tally{}
			}
			m[k].n++
			if hit {
				m[k].hit++
			}
		}
		inc(bySource, r.Source)
		inc(byCategory, r.Category)
		all.n++
		if hit {
			all.hit++
		}
		for _, g := range aimGroups {
			if g.re.MatchString(r.Category) {
				inc(byAim, g.name)
				if !hit {
					misses = append(misses, fmt.Sprintf("%s %s: %.80q", r.ID, r.Category, r.Text))
				}
			}
		}
		for _, p := range Patterns(f) {
			byPattern[p]++
		}
	}
	var fpSec, fpOther tally
	var fps []string
	for _, r := range ben {
		f := Probe(r.Text)
		hit := Blocking(f)
		tl := &fpOther
		if strings.Contains(r.Category, "security_discussion") {
			tl = &fpSec
		}
		tl.n++
		if hit {
			tl.hit++
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
	fmt.Fprintf(&b, "\nrecall, all injections: %s\n\n| source | flagged |\n|---|---|\n", all)
	for _, k := range sortedKeys(bySource) {
		fmt.Fprintf(&b, "| %s | %s |\n", k, bySource[k])
	}
	fmt.Fprintf(&b, "\n| category | flagged |\n|---|---|\n")
	for _, k := range sortedKeys(byCategory) {
		fmt.Fprintf(&b, "| %s | %s |\n", k, byCategory[k])
	}
	fmt.Fprintf(&b, "\n| aim group (injections-dev categories + delimiter-attack techniques) | recall |\n|---|---|\n")
	for _, g := range aimGroups {
		fmt.Fprintf(&b, "| %s | %s |\n", g.name, byAim[g.name])
	}
	fmt.Fprintf(&b, "| delimiter attacks (all but the documentation row) | %s |\n", delim)
	fmt.Fprintf(&b, "\n| benign set | false positives |\n|---|---|\n| outside security discussions | %s |\n| security discussions | %s |\n", fpOther, fpSec)
	fmt.Fprintf(&b, "\n| pattern | injection rows |\n|---|---|\n")
	for _, k := range sortedKeys(byPattern) {
		fmt.Fprintf(&b, "| %s | %d |\n", k, byPattern[k])
	}
	if os.Getenv("PROTECT_REPORT_DETAIL") != "" {
		fmt.Fprintf(&b, "\naim-group misses:\n  %s\nfalse positives:\n  %s\n", strings.Join(misses, "\n  "), strings.Join(fps, "\n  "))
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
	if fpOther.pct() > 3 {
		t.Errorf("aim missed: false positives outside security discussions %s > 3%%", fpOther)
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
