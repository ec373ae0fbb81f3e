package bundle

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkBuildLead assembles the lead context of a run of n receipts with
// the default capacity: past a few dozen envelopes the digest no longer fits
// the 5,599-token budget and most lines are dropped.
// Run: go test -run '^$' -bench BuildLead ./pkg/bundle
func BenchmarkBuildLead(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("receipts=%d", n), func(b *testing.B) {
			var lanes strings.Builder
			files := map[string]string{}
			for i := 0; i < n; i++ {
				id := fmt.Sprintf("T%d-backend", i+100) // T1-backend is the project's own receipt
				fmt.Fprintf(&lanes, "\n## Lane: backend\n- task-id: %s\n- owner: backend\n- scope: Step %d.\n", id, i)
				files[fmt.Sprintf(".guild/runs/r1/handoffs/%s.md", id)] = leadReceipt(id, "done", "Step done with pkg/x.go changed. More detail follows here.")
			}
			files[".guild/plan/search.md"] = "---\ntype: plan\nspec: s.md\napproved: true\n---\n" + lanes.String()
			root := newProject(b, nil)
			write(b, root, files)
			o := opts(root)
			lo := LeadOptions{LastN: 5, CapacityTokens: 8000, RecomputeAt: 0.7}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := BuildLead(o, lo); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
