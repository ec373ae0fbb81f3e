package bundle

import (
	"strings"
	"testing"
)

// TestSupersededDecisionNamedBySecret: a decision whose file name is a
// token is superseded by one that names it (by path or by slug); it must
// not reach the bundle's decisions although the supersedes target is
// redacted where the frontmatter is read.
func TestSupersededDecisionNamedBySecret(t *testing.T) {
	const tok = "ghp_q7VZbN3xR8tK2mW9pL4sD6fH1jC5yA0eU3iO"
	for _, target := range []string{"wiki/decisions/" + tok + ".md", tok} {
		root := newProject(t, map[string]string{
			"wiki/decisions/" + tok + ".md": page("type: decision\n", "# ADR 3: invoice search via elastic\n\nInvoice search results from elastic, a cluster per tenant.\n"),
			"wiki/decisions/0004-new.md":    page("type: decision\nsupersedes: ["+target+"]\n", "# ADR 4: invoice search stays BM25\n\nInvoice search results stay with BM25.\n"),
		})
		bs, err := Build(opts(root), []string{"T2-backend"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(bs[0].Text, "ADR 4") {
			t.Fatalf("supersedes %s: the superseding decision is not in the bundle:\n%s", target, bs[0].Text)
		}
		if strings.Contains(bs[0].Text, "a cluster per tenant") {
			t.Errorf("supersedes %s: the superseded decision is in the bundle", target)
		}
	}
}
