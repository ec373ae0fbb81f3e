package intake

import (
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

func TestParseDisposition(t *testing.T) {
	cases := map[string]*schema.Disposition{
		"should we merge pkg/refs into pkg/graph?":                  {Decision: "merge", Artifact: "pkg/refs", Target: "pkg/graph"},
		"Can we delete the legacy billing client?":                  {Decision: "delete", Artifact: "legacy billing client"},
		"is it safe to remove `internal/oldapi` now that v2 is out": {Decision: "delete", Artifact: "internal/oldapi"},
		"Should we still keep the XML exporter, or drop it?":        {Decision: "keep", Artifact: "XML exporter"},
		"should we deprecate sympy.polys.densetools":                {Decision: "deprecate", Artifact: "sympy.polys.densetools"},
		"should we sunset the v1 webhooks in favour of events":      {Decision: "sunset", Artifact: "v1 webhooks", Target: "events"},
		"What should we build next?":                                {Decision: "build_next"},
		// Orders to change code are not dispositions.
		"remove the trailing <nil> from help output": nil,
		"fix: drop empty lines in Parse":             nil,
		"Add a --json flag to gh pr view":            nil,
		// Only the first line counts: a problem statement's later text is
		// discussion.
		"Parse panics on empty input\nshould we delete the old parser?": nil,
	}
	for goal, want := range cases {
		got := ParseDisposition(goal)
		switch {
		case want == nil && got != nil:
			t.Errorf("%q: recognised %+v", goal, got)
		case want != nil && got == nil:
			t.Errorf("%q: not recognised", goal)
		case want != nil && (got.Decision != want.Decision || got.Artifact != want.Artifact || got.Target != want.Target):
			t.Errorf("%q: got %+v, want %+v", goal, got, want)
		}
	}
}
