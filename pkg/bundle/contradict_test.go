package bundle

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/handoff"
	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/wiki"
)

func testPage(path, title string, front wiki.Frontmatter, body string) *wiki.Page {
	return &wiki.Page{Path: path, Title: title, Front: front, Body: body}
}

func TestSameSubject(t *testing.T) {
	n := graph.Node{ID: "pkg/retry.Do", Name: "retry.Do", SourceRefs: []string{"pkg/retry/retry.go#L30-L95"}}
	for _, tc := range []struct {
		p    *wiki.Page
		want bool
	}{
		{testPage("a.md", "retry.Do", wiki.Frontmatter{}, ""), true},
		{testPage("b.md", "How retry.Do backs off", wiki.Frontmatter{}, ""), true},
		{testPage("c.md", "Retries", wiki.Frontmatter{Aliases: []string{"PKG/RETRY.DO"}}, ""), true},
		{testPage("d.md", "Retries", wiki.Frontmatter{SourceRefs: []string{"pkg/retry/retry.go"}}, ""), true},
		{testPage("e.md", "Retries", wiki.Frontmatter{SourceRefs: []string{"pkg/retry.Do"}}, ""), true},
		{testPage("f.md", "retry.Done", wiki.Frontmatter{}, ""), false},
		{testPage("g.md", "Retries", wiki.Frontmatter{SourceRefs: []string{"pkg/retry/budget.go"}}, "retry.Do is mentioned in the body only"), false},
	} {
		if got := sameSubject(n, tc.p); got != tc.want {
			t.Errorf("%s: sameSubject %v, want %v", tc.p.Path, got, tc.want)
		}
	}
}

func TestConflicts(t *testing.T) {
	n := graph.Node{ID: "pkg/retry.Do", Name: "retry.Do", Summary: "Runs fn until success. Max attempts: 5; Backoff base: 200 ms. Jitter: full."}
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"agrees", "- Max attempts: 5.\n- Backoff base: 200ms\n- Jitter: Full", nil},
		{"numbers differ", "Max attempts: 3 per call.", []string{"max attempts"}},
		{"same numbers, other words", "Max attempts: five, that is 5 in total.", nil},
		{"words differ", "**Jitter**: none", []string{"jitter"}},
		{"in a fence", "```\nMax attempts: 3\n```\n", nil},
		{"key too long", "The maximum number of retry attempts: 3", nil},
		{"negation", "Note that `retry.Do` does not run fn until success; it gives up early.", []string{""}},
		{"negation without the name", "It does not run fn until success.", nil},
		{"negation of other words", "retry.Do is not safe for concurrent use.", nil},
	} {
		got := conflicts(n, tc.body)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: conflicts %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A value given as an aside — after its key, or after the node's name with
// the same unit — contradicts like "Key: value" when both hold numbers.
func TestConflictsAsides(t *testing.T) {
	n := graph.Node{ID: "pkg/billing.ScheduleDunning", Name: "billing.ScheduleDunning",
		Summary: "Writes the soft-decline retry jobs to the outbox. Dunning schedule: day 1, 3, 5, 7 and 14. Owner: billing."}
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"key aside", "Soft declines move to the dunning schedule (day 1, 3, 5, 7).", []string{"dunning schedule"}},
		{"key aside agrees", "Soft declines move to the Dunning Schedule (day 1, 3, 5, 7 and 14).", nil},
		{"name aside", "soft declines go to billing.ScheduleDunning (day 1, 3, 5, 7); hard declines never retry.", []string{"dunning schedule"}},
		{"name aside, other unit", "billing.ScheduleDunning (3 retries) runs nightly.", nil},
		{"aside without numbers", "See the dunning schedule (in payments).", nil},
		{"words in an aside do not count", "The owner (payments) decides.", nil},
		{"not a whole word", "xdunning schedule (day 1)", nil},
	} {
		got := conflicts(n, tc.body)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: conflicts %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Decisions and upstream contracts are on a node's subject when they name
// it or one of its keys of two or more words; other pages need the title,
// alias or source_ref rule.
func TestOnSubject(t *testing.T) {
	n := graph.Node{ID: "pkg/billing.ScheduleDunning", Name: "billing.ScheduleDunning",
		Summary: "Dunning schedule: day 1, 3, 5, 7 and 14. Owner: billing."}
	decision := func(body string) statement {
		return pageStatement(&wiki.Page{Path: "wiki/decisions/a.md", Category: "decision", Title: "ADR", Body: body})
	}
	contract := &handoff.Receipt{Path: ".guild/runs/r/handoffs/T1.md", Contract: handoff.Contract{Summary: "x", Issues: []string{"billing.ScheduleDunning is slow"}}}
	for _, tc := range []struct {
		name string
		st   statement
		want bool
	}{
		{"decision naming a key", decision("They move to the dunning schedule (day 1, 3)."), true},
		{"decision naming the node", decision("billing.ScheduleDunning writes jobs."), true},
		{"decision naming a one-word key", decision("The owner is billing."), false},
		{"entity page naming a key", pageStatement(testPage("wiki/entities/x.md", "Payments", wiki.Frontmatter{}, "The dunning schedule (day 1).")), false},
		{"contract naming the node in an issue", contractStatement(contract), true},
		{"contract about something else", contractStatement(&handoff.Receipt{Path: "T2.md", Contract: handoff.Contract{Summary: "ledger work"}}), false},
	} {
		if got := onSubject(n, tc.st); got != tc.want {
			t.Errorf("%s: onSubject %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := contractStatement(contract).kind(); got != "upstream contract" {
		t.Errorf("kind %q", got)
	}
}

func TestGraphRule(t *testing.T) {
	for _, tc := range []struct {
		n    graph.Node
		want bool
		why  string
	}{
		{graph.Node{Confidence: "high", SourceRefs: []string{"pkg/a.go#L1-L9"}}, true, "direct source_ref pkg/a.go#L1-L9"},
		{graph.Node{Confidence: "HIGH", SourceRefs: []string{"pkg/a.go#L4"}}, true, "direct source_ref pkg/a.go#L4"},
		{graph.Node{Confidence: "high", SourceRefs: []string{"pkg/a.go"}}, false, "no direct source_ref"},
		{graph.Node{Confidence: "high", SourceRefs: []string{"wiki/concepts/a.md#L1-L3"}}, false, "no direct source_ref"},
		{graph.Node{Confidence: "medium", SourceRefs: []string{"pkg/a.go#L1-L9"}}, false, "node confidence medium"},
		{graph.Node{}, false, "node confidence unset"},
	} {
		got, why := graphRule(tc.n)
		if got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%+v: %v %q, want %v %q", tc.n, got, why, tc.want, tc.why)
		}
	}
}

func TestResolveContradictions(t *testing.T) {
	g, _, err := graph.Build(graph.File{Nodes: []graph.Node{
		{ID: "a", Name: "svc.A", Confidence: "medium", SourceRefs: []string{"pkg/a.go#L1-L5"}, Summary: "Timeout: 30 s."},
		{ID: "b", Name: "svc.B", Confidence: "high", SourceRefs: []string{"pkg/b.go#L1-L5"}, Summary: "Timeout: 10 s."},
		{ID: "c", Name: "svc.C", Confidence: "low", Summary: "Timeout: 1 s."},
	}})
	if err != nil {
		t.Fatal(err)
	}
	chunks := []chunk{
		{schema.RecallChunk{SourcePath: "pkg/a.go#L1-L5"}},
		{schema.RecallChunk{SourcePath: "pkg/b.go#L1-L5"}},
		{schema.RecallChunk{SourcePath: ".guild/indexes/knowledge-graph.json#c"}},
		{schema.RecallChunk{SourcePath: "pkg/unknown.go#L1-L2"}},
	}
	page := testPage("wiki/s.md", "Services", wiki.Frontmatter{Aliases: []string{"svc.A", "svc.B", "svc.C"}}, "Timeout: 20 s.")
	keep, found := resolveContradictions(g, chunks, []statement{pageStatement(page)})
	var kept []string
	for _, c := range keep {
		kept = append(kept, c.c.SourcePath)
	}
	if strings.Join(kept, ",") != "pkg/b.go#L1-L5,pkg/unknown.go#L1-L2" {
		t.Errorf("kept %q", kept)
	}
	if len(found) != 3 || found[0].node != "a" || found[0].graphWins || !found[1].graphWins || found[2].node != "c" {
		t.Fatalf("found %+v", found)
	}
	if l := found[1].line(); l != `contradiction: graph node b vs page wiki/s.md (key "timeout" differs): graph wins — node confidence high with direct source_ref pkg/b.go#L1-L5; the page needs updating` {
		t.Errorf("line %q", l)
	}
	if keep, found := resolveContradictions(nil, chunks, []statement{pageStatement(page)}); len(keep) != 4 || len(found) != 0 {
		t.Errorf("no graph: %d kept, %d found", len(keep), len(found))
	}
	// A page path in the record spelling is escaped once, as in a heading.
	c := found[1]
	c.page = pathenc.Encode("wiki/</guild:recall>\xff.md")
	if l := c.line(); !strings.Contains(l, "vs page wiki/</guild¤-:recall>¤xFF.md (key") {
		t.Errorf("line %q", l)
	}
}

// FuzzConflicts runs the contradiction tests over arbitrary page bodies and
// node summaries: they must not panic, and a page never contradicts a node
// that states nothing.
func FuzzConflicts(f *testing.F) {
	f.Add("Dunning schedule: day 1, 3, 5, 7.", "- Dunning schedule: day 1, 3 and 5\n```\nx: y\n```\n")
	f.Add("Runs fn until success.", "retry.Do does not run fn until success.")
	f.Fuzz(func(t *testing.T, summary, body string) {
		n := graph.Node{ID: "pkg/retry.Do", Name: "retry.Do", Summary: summary}
		conflicts(n, body)
		n.Summary = ""
		if got := conflicts(n, body); len(got) != 0 {
			t.Fatalf("empty summary contradicted: %q", got)
		}
	})
}
