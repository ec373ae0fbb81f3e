package bundle

import (
	"strings"
	"testing"
)

// TestSecretPagesLeftOut: pages whose sensitivity is secret are never
// recalled, and guild-bundle put them in bundles all the same: an entity
// page and a decision by their rank, a concept the plan names as a ref.
// Now none is included; the named ref is listed as withheld.
func TestSecretPagesLeftOut(t *testing.T) {
	root := newProject(t, map[string]string{
		"wiki/decisions/0009-buyout.md":    page("type: decision\nsensitivity: secret\n", "# ADR 9: invoice search results after the Globexcorp buyout\n\nInvoice search results come from Globexcorp.\n"),
		"wiki/entities/services/buyout.md": page("type: entity\nsensitivity: secret\n", "# Search buyout\n\nThe invoice search index and API move to Globexcorp.\n"),
		"wiki/concepts/paging.md":          page("type: concept\nsensitivity: secret\n", "# Paging\n\nGlobexcorp pages results in 50s.\n"),
	})
	bs, err := Build(opts(root), []string{"T2-backend"})
	if err != nil {
		t.Fatal(err)
	}
	text := bs[0].Text
	if strings.Contains(text, "Globexcorp") {
		t.Errorf("a page whose sensitivity is secret is in the bundle:\n%s", text)
	}
	if !strings.Contains(text, "wiki/concepts/paging.md") || !strings.Contains(text, "sensitivity: secret; not included") {
		t.Errorf("the withheld ref is not listed as withheld:\n%s", text)
	}
}
