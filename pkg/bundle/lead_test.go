package bundle

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/handoff"
	"github.com/rtch/rtch/pkg/lint"
	"github.com/rtch/rtch/pkg/tokens"
)

func TestCutSummary(t *testing.T) {
	for in, want := range map[string]string{
		"One sentence only.":                             "One sentence only.",
		"No final stop":                                  "No final stop",
		"retry.Do wraps it. Then more.":                  "retry.Do wraps it. …",
		"See docs/a.md for it! Rest? Yes.":               "See docs/a.md for it! …",
		"  Padded. Text.  ":                              "Padded. …",
		"Version 1.2 ships. E_X code here.":              "Version 1.2 ships. …",
		"Ends with a path pkg/x.go. And then something.": "Ends with a path pkg/x.go. …",
	} {
		if got := CutSummary(in); got != want {
			t.Errorf("CutSummary(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDigestLineCopiesFields(t *testing.T) {
	r := &handoff.Receipt{Path: ".guild/runs/r1/handoffs/T9.md", Contract: handoff.Contract{
		TaskID: "T9-qa", Tier: "mid", Status: "escalate", Summary: "First <b>&</b> sentence. Second.",
		Artifacts: []string{"pkg/a & b/x.go", "docs/ü.md"}, Issues: []string{"E_RACE: 3/10000"},
		EscalateReason: "needs an ADR", Notes: "dropped", Learnings: []string{"dropped too"},
	}}
	line := digestLine(r)
	if strings.Contains(line, `\u003c`) || strings.Contains(line, "\n") || !strings.Contains(line, `"pkg/a & b/x.go"`) {
		t.Fatalf("line %s", line)
	}
	var back map[string]any
	if err := json.Unmarshal([]byte(line), &back); err != nil {
		t.Fatal(err)
	}
	if back["task_id"] != "T9-qa" || back["escalate_reason"] != "needs an ADR" || back["summary"] != "First <b>&</b> sentence. …" || back["receipt"] != r.Path {
		t.Fatalf("fields %v", back)
	}
	if _, ok := back["notes"]; ok {
		t.Error("notes are not digested")
	}
	if !strings.HasPrefix(line, `{"task_id":"T9-qa","status":"escalate","tier":"mid","artifacts":["pkg/a & b/x.go","docs/ü.md"],"issues":["E_RACE: 3/10000"],"escalate_reason":"needs an ADR",`) {
		t.Errorf("key order %s", line)
	}
}

func leadReceipt(task, status, summary string) string {
	extra := ""
	if status == "escalate" {
		extra = `,"escalate_reason":"blocked on a decision"`
	}
	return "---\nschema: guild.handoff_receipt.v1\n---\n```guild.handoff.v2\n" +
		`{"schema_version":"guild.handoff.v2","task_id":"` + task + `","tier":"mid","status":"` + status + `","summary":"` + summary + `","artifacts":["pkg/` + task + `.go"],"issues":[]` + extra + "}\n```\n"
}

func leadProject(t *testing.T) string {
	return newProject(t, map[string]string{
		".guild/runs/r1/handoffs/T1.md":   leadReceipt("T1-backend", "done", "Index built. Details follow."),
		".guild/runs/r1/handoffs/T2.md":   leadReceipt("T2-backend", "escalate", "Paging is blocked. Needs a cursor ADR."),
		".guild/runs/r1/handoffs/T3.md":   leadReceipt("T3-qa", "done", "Tests pass."),
		".guild/runs/r1/handoffs/T0.md":   leadReceipt("T9-extra", "done", "Not in the plan."),
		".guild/runs/r1/handoffs/note.md": "---\nschema: guild.handoff_receipt.v1\ntask_id: T4-docs\n---\nDone, trust me.\n",
	})
}

var defaultLead = LeadOptions{LastN: 2, CapacityTokens: 8000, RecomputeAt: 0.7}

func TestBuildLead(t *testing.T) {
	root := leadProject(t)
	var warns []string
	o := opts(root)
	o.Warn = func(f string, a ...any) { warns = append(warns, f) }
	res, err := BuildLead(o, defaultLead)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Bundle
	if b == nil || !res.Report.Recomputed || res.Report.CurrentExists || b.Path != ".guild/context/r1/lead.md" {
		t.Fatalf("report %+v", res.Report)
	}
	if !lint.Check(b.Path, b.Text, lint.Options{Strict: true}).Pass || strings.Count(b.Text, "ambient context") != 1 {
		t.Fatalf("lint %+v", b.Verdict)
	}
	// Run order: plan order, then T9-extra (not in the plan); the last two
	// verbatim, the two older digested.
	for _, want := range []string{
		"envelopes_verbatim:\n  - T3-qa\n  - T9-extra\nenvelopes_digested:\n  - T1-backend\n  - T2-backend\nenvelopes_dropped: []\nnot_machine_receipts:\n  - .guild/runs/r1/handoffs/note.md\n",
		"\n- {\"task_id\":\"T1-backend\",\"status\":\"done\",\"tier\":\"mid\",\"artifacts\":[\"pkg/T1-backend.go\"],\"issues\":[],\"summary\":\"Index built. …\",\"receipt\":\".guild/runs/r1/handoffs/T1.md\"}\n",
		"\"escalate_reason\":\"blocked on a decision\",\"summary\":\"Paging is blocked. …\"",
		"| T3-qa | qa | T2-backend | done |\n| T9-extra | — (not in the plan) | — | done |\n",
		"#### T3-qa — `.guild/runs/r1/handoffs/T3.md`\n\n```guild.handoff.v2\n",
		"- `.guild/runs/r1/handoffs/note.md` (frontmatter task_id T4-docs) — frontmatter only",
	} {
		if !strings.Contains(b.Text, want) {
			t.Errorf("lead.md lacks %q\n%s", want, b.Text)
		}
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "is not a lane of") {
		t.Errorf("warnings %q", warns)
	}
	again, err := BuildLead(o, defaultLead)
	if err != nil || again.Bundle.Text != b.Text {
		t.Fatal("the lead context is not deterministic")
	}
	if u1, _ := lint.Layer(b.Text, lint.UniversalHeading); true {
		lane, err := Build(opts(root), []string{"T1-backend"})
		if err != nil {
			t.Fatal(err)
		}
		if u2, _ := lint.Layer(lane[0].Text, lint.UniversalHeading); u1 != u2 {
			t.Error("the lead's Universal layer differs from the lanes'")
		}
	}
}

func TestLeadCapacity(t *testing.T) {
	root := leadProject(t)
	o := opts(root)
	first, err := BuildLead(o, defaultLead)
	if err != nil {
		t.Fatal(err)
	}
	lead := filepath.Join(root, filepath.FromSlash(first.Bundle.Path))
	os.MkdirAll(filepath.Dir(lead), 0o755)
	os.WriteFile(lead, []byte(first.Bundle.Text), 0o644)
	est := tokens.Estimate(first.Bundle.Text)

	// Under the threshold: kept, measured.
	res, err := BuildLead(o, defaultLead)
	if err != nil || res.Bundle != nil || res.Report.Recomputed || res.Report.CurrentTokens != est || res.Report.PassesThreshold {
		t.Fatalf("kept: %+v %v", res.Report, err)
	}
	// A new envelope counts verbatim on top of lead.md.
	rc := leadReceipt("T9-late", "done", "Late.")
	write(t, root, map[string]string{".guild/runs/r1/handoffs/T5.md": rc})
	blk, _ := handoff.ExtractBlock("x", rc)
	res, _ = BuildLead(o, defaultLead)
	if strings.Join(res.Report.NewEnvelopes, ",") != "T9-late" || res.Report.CurrentTokens != est+tokens.Estimate(blk.Fenced+"") {
		t.Fatalf("new envelope: %+v (block %d)", res.Report, tokens.Estimate(blk.Fenced))
	}
	// A capacity whose threshold the current context passes: recomputed under
	// the budget, the oldest digest lines dropped first.
	tight := LeadOptions{LastN: 1, CapacityTokens: int(float64(res.Report.CurrentTokens) / 0.7), RecomputeAt: 0.7}
	res, err = BuildLead(o, tight)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Report.PassesThreshold || res.Bundle == nil || res.Bundle.Receipt.TokenEstimate > res.Report.BudgetTokens {
		t.Fatalf("recompute: %+v", res.Report)
	}
	d := res.Bundle.Receipt.DroppedForBudget
	if len(d) == 0 || d[0] != "digest line of T1-backend dropped" {
		t.Fatalf("drops %q", d)
	}
	// A budget the plan and the last N cannot fit: a FitError.
	_, err = BuildLead(o, LeadOptions{LastN: 2, CapacityTokens: 100, RecomputeAt: 0.7})
	var fe *FitError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "lower --last or raise --capacity") {
		t.Fatalf("fit: %v", err)
	}
}

func TestLeadInputErrors(t *testing.T) {
	root := leadProject(t)
	write(t, root, map[string]string{".guild/runs/r1/handoffs/bad.md": "```guild.handoff.v2\n{\"task_id\": 1}\n```\n"})
	_, err := BuildLead(opts(root), defaultLead)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), ".guild/runs/r1/handoffs/bad.md:2: task_id must be a string") {
		t.Fatalf("bad receipt: %v", err)
	}
	o := opts(t.TempDir())
	o.PlanPath = ""
	if _, err := BuildLead(o, defaultLead); err == nil || !strings.Contains(err.Error(), "no --plan, and .guild/runs/r1/run.yaml cannot name one") {
		t.Fatalf("no plan: %v", err)
	}
	for _, lo := range []LeadOptions{{LastN: -1, CapacityTokens: 1, RecomputeAt: 0.7}, {CapacityTokens: 0, RecomputeAt: 0.7}, {CapacityTokens: 5, RecomputeAt: 1.2}} {
		if _, err := BuildLead(opts(root), lo); !errors.As(err, &ie) {
			t.Errorf("%+v: %v", lo, err)
		}
	}
}

// FuzzCutSummary checks the compaction rule: the cut is the summary itself or
// a prefix of it ending a sentence, followed by " …"; nothing is reworded.
func FuzzCutSummary(f *testing.F) {
	f.Add("retry.Do wraps it. Then more.")
	f.Add("One.")
	f.Add("a!  b? c. ")
	f.Fuzz(func(t *testing.T, s string) {
		got := CutSummary(s)
		whole := strings.TrimSpace(s)
		if got == whole {
			return
		}
		head, ok := strings.CutSuffix(got, " "+Ellipsis)
		if !ok || !strings.HasPrefix(whole, head) || !strings.ContainsAny(head[len(head)-1:], ".!?") {
			t.Fatalf("CutSummary(%q) = %q", s, got)
		}
	})
}
