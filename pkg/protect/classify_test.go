package protect

import "testing"

func TestClassify(t *testing.T) {
	cases := []struct {
		name string
		p    Provenance
		want Tier
	}{
		{"principles", Provenance{Path: ".guild/principles.md", Category: "principles"}, TierOperator},
		{"project overview", Provenance{Path: "wiki/context/project-overview.md", Category: "context"}, TierOperator},
		{"goals", Provenance{Path: "wiki/context/goals.md"}, TierOperator},
		{"goals via dot segments", Provenance{Path: "wiki/./context/goals.md"}, TierOperator},
		{"reviewed standard", Provenance{Path: "wiki/standards/go.md", Category: "standard", Reviewed: true}, TierOperator},
		{"unreviewed standard", Provenance{Path: "wiki/standards/go.md", Category: "standard"}, TierUntrusted},
		{"reviewed standard in a subfolder", Provenance{Path: "wiki/standards/x/go.md", Reviewed: true}, TierUntrusted},
		{"decision under an operator path", Provenance{Path: "wiki/context/goals.md", Category: "decision"}, TierUntrusted},
		{"harvested principles", Provenance{Path: ".guild/principles.md", Harvested: true}, TierUntrusted},
		{"graph node", Provenance{Path: "wiki/context/project-overview.md", FromGraph: true}, TierUntrusted},
		{"graph node with operator owner falls through to rule 2", Provenance{Path: "wiki/context/goals.md", FromGraph: true, Owner: "operator"}, TierTrusted},
		{"escape from the root", Provenance{Path: "../wiki/context/goals.md"}, TierUntrusted},
		{"absolute path", Provenance{Path: "/wiki/context/goals.md"}, TierUntrusted},
		{"case look-alike path", Provenance{Path: "wiki/context/Goals.md"}, TierUntrusted},
		{"goals.md elsewhere", Provenance{Path: "wiki/entities/goals.md"}, TierUntrusted},
		{"owner operator", Provenance{Path: "wiki/entities/a.md", Owner: "operator"}, TierTrusted},
		{"owner reviewed", Provenance{Path: "wiki/entities/a.md", Owner: "Reviewed"}, TierTrusted},
		{"owner synthesized", Provenance{Path: "wiki/concepts/a.md", Owner: "synthesized", Confidence: "high", SourceRefs: 3}, TierUntrusted},
		{"synthesized flag", Provenance{Path: "wiki/concepts/a.md", Synthesized: true, Confidence: "high", SourceRefs: 3}, TierUntrusted},
		{"owner beats synthesized flag", Provenance{Path: "wiki/concepts/a.md", Owner: "operator", Synthesized: true}, TierTrusted},
		{"high confidence with sources", Provenance{Path: "wiki/concepts/a.md", Confidence: "high", SourceRefs: 1}, TierTrusted},
		{"high confidence without sources", Provenance{Path: "wiki/concepts/a.md", Confidence: "high"}, TierUntrusted},
		{"medium confidence", Provenance{Path: "wiki/concepts/a.md", Confidence: "medium", SourceRefs: 4}, TierUntrusted},
		{"nothing known", Provenance{}, TierUntrusted},
	}
	for _, c := range cases {
		if got := Classify(c.p); got != c.want {
			t.Errorf("%s: Classify(%+v) = %s, want %s", c.name, c.p, got, c.want)
		}
	}
}
