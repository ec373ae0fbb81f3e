package plan

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/wiki"
)

const good = `---
type: plan
spec: .guild/spec/search.md
team: [architect, backend, qa]
approved: true
---
# Plan: search endpoint

Intro prose is not a lane.

## Lane: architect
- task-id: T1-architect
- owner: architect
- depends-on: []
- scope: Design the search API contract.
- success-criteria:
  - OpenAPI fragment for /search
  - error model agreed
- autonomy-policy: may act on naming; requires confirmation for new
  dependencies; forbidden: schema migrations
- autonomy: all
- refs: [wiki/concepts/ranking.md, ` + "`wiki/decisions/adr-003.md`" + `]

## Lane: backend
- **task-id**: T2-backend
- owner: backend
- depends-on: [T1-architect]
- scope: Implement the handler.

  Prose inside a lane stays in the block.

- refs:
  - [ranking](wiki/concepts/ranking.md)
  - src/search/handler.go

` + "```go\n## Lane: fake\n- task-id: T9-fake\n```" + `

## Lane: qa
- task-id: T3-qa
- owner: qa
- depends-on: T1-architect, T2-backend
- scope: Test it.
- autonomy: ask

# Appendix
- not: a lane
`

func TestParseGood(t *testing.T) {
	p, err := Parse("plan.md", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if p.Spec != ".guild/spec/search.md" || !p.Approved || !slices.Equal(p.Team, []string{"architect", "backend", "qa"}) {
		t.Fatalf("frontmatter: %+v", p)
	}
	if len(p.Lanes) != 3 {
		t.Fatalf("lanes: %d", len(p.Lanes))
	}
	a, b, q := p.Lanes[0], p.Lanes[1], p.Lanes[2]
	if a.TaskID != "T1-architect" || a.Owner != "architect" || len(a.DependsOn) != 0 || a.Autonomy != "all" || a.Line != 11 {
		t.Errorf("architect lane: %+v", a)
	}
	if a.SuccessCriteria != "OpenAPI fragment for /search\nerror model agreed" {
		t.Errorf("success-criteria: %q", a.SuccessCriteria)
	}
	if a.AutonomyPolicy != "may act on naming; requires confirmation for new dependencies; forbidden: schema migrations" {
		t.Errorf("autonomy-policy: %q", a.AutonomyPolicy)
	}
	if !slices.Equal(a.Refs, []string{"wiki/concepts/ranking.md", "wiki/decisions/adr-003.md"}) {
		t.Errorf("refs: %q", a.Refs)
	}
	if b.TaskID != "T2-backend" || !slices.Equal(b.DependsOn, []string{"T1-architect"}) || b.Autonomy != "ask" {
		t.Errorf("backend lane: %+v", b)
	}
	if !slices.Equal(b.Refs, []string{"wiki/concepts/ranking.md", "src/search/handler.go"}) {
		t.Errorf("backend refs: %q", b.Refs)
	}
	if !strings.Contains(b.Block, "## Lane: fake") || !strings.Contains(b.Block, "Prose inside a lane") {
		t.Errorf("backend block lost verbatim text:\n%s", b.Block)
	}
	if !strings.HasPrefix(q.Block, "## Lane: qa\n") || strings.Contains(q.Block, "Appendix") || !strings.HasSuffix(q.Block, "- autonomy: ask\n") {
		t.Errorf("qa block:\n%q", q.Block)
	}
	if !slices.Equal(q.DependsOn, []string{"T1-architect", "T2-backend"}) {
		t.Errorf("qa depends-on: %q", q.DependsOn)
	}
	if !strings.Contains(good, a.Block) || !strings.Contains(good, b.Block) {
		t.Error("blocks are not verbatim substrings of the plan")
	}
	var order []string
	for _, ln := range p.Order() {
		order = append(order, ln.TaskID)
	}
	if !slices.Equal(order, []string{"T1-architect", "T2-backend", "T3-qa"}) {
		t.Errorf("order: %v", order)
	}
	if p.Lane("T3-qa") != q || p.Lane("T4-x") != nil {
		t.Error("Lane lookup")
	}
}

func TestParseCRLF(t *testing.T) {
	p, err := Parse("plan.md", []byte("\ufeff"+strings.ReplaceAll(good, "\n", "\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Lanes[0].Block, "\r") || p.Lanes[0].Line != 11 {
		t.Errorf("CRLF not normalised: line %d %q", p.Lanes[0].Line, p.Lanes[0].Block)
	}
}

func TestParseErrors(t *testing.T) {
	lane := func(h, body string) string { return "## Lane: " + h + "\n" + body + "\n" }
	fm := "---\ntype: plan\nspec: s.md\napproved: true\n---\n"
	tests := []struct {
		name, text string
		want       []string
	}{
		{"no frontmatter", "## Lane: a\n- task-id: T1-a\n", []string{"plan.md:1: no YAML frontmatter"}},
		{"unterminated frontmatter", "---\ntype: plan\n## Lane: a\n", []string{"plan.md:1: frontmatter opened with --- but never closed"}},
		{"wrong type", "---\ntype: spec\n---\n" + lane("a", "- task-id: T1-a"), []string{"plan.md:2: frontmatter type is spec, want plan"}},
		{"bad yaml", "---\ntype: [\n---\n" + lane("a", "- task-id: T1-a"), []string{"plan.md:2: frontmatter is not valid YAML"}},
		{"no lanes", fm + "# nothing\n", []string{"plan.md:6: no \"## Lane: <owner>\" sections"}},
		{"missing task-id", fm + lane("a", "- owner: a"), []string{"plan.md:6: lane a: no task-id bullet"}},
		{"unnamed lane", fm + lane("", "- scope: x"), []string{"plan.md:6: lane heading names no owner", "plan.md:6: lane (unnamed): no task-id bullet"}},
		{"bad task-id", fm + lane("a", "- task-id: 1-a"), []string{"plan.md:7: lane a: task-id \"1-a\" is not T<n>-<specialist>"}},
		{"task-id owner mismatch", fm + lane("a", "- task-id: T1-b"), []string{"plan.md:7: lane a: task-id \"T1-b\" does not name its owner"}},
		{"owner mismatch", fm + lane("a", "- task-id: T1-a\n- owner: b"), []string{"plan.md:8: lane a: owner \"b\" differs"}},
		{"unknown key", fm + lane("a", "- task-id: T1-a\n- depend-on: [T2-a]"), []string{"plan.md:8: lane a: unknown key \"depend-on\""}},
		{"not a key", fm + lane("a", "- task-id: T1-a\n- just a note"), []string{"plan.md:8: lane a: bullet \"just a note\" is not \"key: value\""}},
		{"duplicate key", fm + lane("a", "- task-id: T1-a\n- task-id: T2-a"), []string{"plan.md:8: lane a: task-id given twice (first at line 7)"}},
		{"bad autonomy", fm + lane("a", "- task-id: T1-a\n- autonomy: maybe"), []string{"plan.md:8: lane a: autonomy \"maybe\" is not ask or all"}},
		{"unknown dep", fm + lane("a", "- task-id: T1-a\n- depends-on: [T7-zz]"), []string{"plan.md:8: lane a: depends-on names unknown task \"T7-zz\" (known: T1-a)"}},
		{"self dep", fm + lane("a", "- task-id: T1-a\n- depends-on: T1-a"), []string{"plan.md:8: lane a: depends on itself"}},
		{"duplicate id", fm + lane("a", "- task-id: T1-a") + lane("a", "- task-id: T1-a"), []string{"plan.md:9: task-id T1-a is also lane a's (line 7)"}},
		{"cycle", fm + lane("a", "- task-id: T1-a\n- depends-on: [T3-c]") + lane("b", "- task-id: T2-b\n- depends-on: [T1-a]") + lane("c", "- task-id: T3-c\n- depends-on: [T2-b]"),
			[]string{"depends-on cycle T1-a -> T3-c -> T2-b -> T1-a"}},
		{"two problems", fm + lane("a", "- task-id: T1-a\n- autonomy: x\n- bogus: y"), []string{"plan.md:8: lane a: autonomy", "plan.md:9: lane a: unknown key"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("plan.md", []byte(tc.text))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "plan.md" || pe.Line < 1 {
				t.Errorf("error is not a positioned *Error: %#v", err)
			}
		})
	}
}

func TestCycleLine(t *testing.T) {
	text := "---\ntype: plan\n---\n## Lane: a\n- task-id: T1-a\n- depends-on: [T2-b]\n## Lane: b\n- task-id: T2-b\n- depends-on: [T1-a]\n"
	_, err := Parse("p.md", []byte(text))
	if err == nil || !strings.HasPrefix(err.Error(), "p.md:9: lane b: depends-on cycle T1-a -> T2-b -> T1-a") {
		t.Fatalf("got %v", err)
	}
}

func TestApprovedValue(t *testing.T) {
	for v, want := range map[any]bool{true: true, false: false, nil: false, "": false, "no": false, "2026-11-30": true, "Pending": false, 1: true} {
		if got := approvedValue(v); got != want {
			t.Errorf("approvedValue(%v) = %v", v, got)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(good)
	f.Add("---\ntype: plan\n---\n## Lane: a\n- task-id: T1-a\n- depends-on: [T1-a]\n")
	f.Add("---\ntype: plan\n---\n## Lane: a\n- task-id: T1-a\n```\n## Lane: b\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse("fuzz.md", []byte(text))
		if err != nil {
			if p != nil {
				t.Fatal("plan returned with an error")
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error is not positioned: %v", err)
			}
			return
		}
		norm := wiki.NormalizeText([]byte(text))
		seen := map[string]bool{}
		for _, ln := range p.Order() {
			if !strings.Contains(norm, strings.TrimSuffix(ln.Block, "\n")) {
				t.Fatalf("lane block is not verbatim: %q", ln.Block)
			}
			if !taskIDRE.MatchString(ln.TaskID) || (ln.Autonomy != "ask" && ln.Autonomy != "all") {
				t.Fatalf("invalid lane accepted: %+v", ln)
			}
			for _, d := range ln.DependsOn {
				if !seen[d] {
					t.Fatalf("%s ordered before its dependency %s", ln.TaskID, d)
				}
			}
			seen[ln.TaskID] = true
		}
		if len(seen) != len(p.Lanes) {
			t.Fatalf("order has %d lanes, plan %d", len(seen), len(p.Lanes))
		}
	})
}

// An owner that is not a slug is reported once: its task-id is not also
// said to miss the owner ("want T<n>-Back End").
func TestOwnerNotSlugReportedOnce(t *testing.T) {
	text := "---\ntype: plan\nspec: s.md\napproved: true\n---\n## Lane: Back End\n- task-id: T1-backend\n"
	_, err := Parse("plan.md", []byte(text))
	if err == nil || !strings.Contains(err.Error(), `lane owner "Back End" is not a slug`) {
		t.Fatalf("error %v, want the owner reported as not a slug", err)
	}
	if strings.Contains(err.Error(), "does not name its owner") {
		t.Errorf("error %q also reports the task-id against an owner that is not a slug", err)
	}
}
