package fts

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/wiki"
)

// TestSecretNamesStoredApart: two pages whose names redact alike and a page
// named by that very redacted spelling are each stored, under distinct names
// (the page without a secret under its own path), found by a search, and
// left as they are by a second refresh; the changed listing digest is still
// a no-op, and the supersedes target naming one is stored redacted.
func TestSecretNamesStoredApart(t *testing.T) {
	root := t.TempDir()
	a := "wiki/ghp_0123456789abcdefghijABCDEFGHIJ012345.md"
	b := "wiki/ghp_Zyxwvutsrqponmlkjihgfedcba9876543210.md"
	plain := "wiki/[REDACTED:github-pat].md"
	writeFile(t, root, a, "# Ledger one\nthe quota ledger, first page\n")
	writeFile(t, root, b, "# Ledger two\nthe quota ledger, second page\n")
	writeFile(t, root, plain, "---\nsupersedes: ["+a+"]\n---\n# Ledger three\nthe quota ledger, third page\n")
	ix, st := open(t, root)
	if st.Pages != 3 || st.Added != 3 {
		t.Fatalf("stats %+v", st)
	}
	hits, err := ix.Search(context.Background(), "quota ledger", Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.Path)
	}
	slices.Sort(got)
	want := []string{plain, plain + " (2)", plain + " (3)"}
	if !slices.Equal(got, want) {
		t.Fatalf("stored names %q, want %q", got, want)
	}
	sup, err := ix.Supersessions(context.Background())
	if err != nil || len(sup) != 1 || sup[0].Target != plain {
		t.Fatalf("supersessions %+v (%v)", sup, err)
	}
	ix.Close()
	if _, st = open(t, root); st.Unchanged != 3 || st.Reindexed() != 0 {
		t.Fatalf("second refresh: %+v", st)
	}
	snap, err := OpenSnapshot(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := wiki.List(root, 0)
	if err != nil || !snap.Matches(files) {
		t.Fatalf("the stored listing digest is not the listing's (%v)", err)
	}
	snap.Close()
	data, err := os.ReadFile(filepath.Join(root, RelPath))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		if name := strings.TrimSuffix(filepath.Base(p), ".md"); strings.Contains(strings.ToLower(string(data)), strings.ToLower(name[4:])) {
			t.Errorf("%s reaches the index file", name)
		}
	}
}
