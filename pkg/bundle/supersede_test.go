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

// TestSupersedeNeedsTier: a harvested decision (untrusted) naming a
// reviewed one (trusted) in supersedes kept it out of the bundle's
// decisions; a decision is retired only by a page of at least its tier, so
// it stays, while a trusted decision still retires another.
func TestSupersedeNeedsTier(t *testing.T) {
	root := newProject(t, map[string]string{
		"wiki/decisions/0003-kept.md":   page("type: decision\nowner: reviewed\n", "# ADR 3: invoice search keeps a replica\n\nInvoice search results come from a read replica.\n"),
		"wiki/decisions/0005-old.md":    page("type: decision\nowner: reviewed\n", "# ADR 5: invoice search via elastic\n\nInvoice search results from elastic, a cluster per tenant.\n"),
		"wiki/decisions/0006-new.md":    page("type: decision\nowner: reviewed\nsupersedes: [0005-old]\n", "# ADR 6: invoice search stays BM25\n\nInvoice search results stay with BM25.\n"),
		"wiki/decisions/0007-vendor.md": page("type: decision\nharvested: true\nsupersedes: [0003-kept]\n", "# ADR 7: vendor exports\n\nThe vendor asked about exports.\n"),
	})
	bs, err := Build(opts(root), []string{"T2-backend"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bs[0].Text, "ADR 3") || !strings.Contains(bs[0].Text, "ADR 6") {
		t.Errorf("a trusted decision is missing from the bundle:\n%s", bs[0].Text)
	}
	if strings.Contains(bs[0].Text, "ADR 5") {
		t.Errorf("the superseded decision is in the bundle:\n%s", bs[0].Text)
	}
}
