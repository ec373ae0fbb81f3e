package wiki

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The wiki walk meets the lane's bar: a .gitignore'd page and a Git LFS
// pointer are skipped with a diagnostic naming them, and TOML frontmatter
// is rejected with file:line instead of being read as body text.
func TestLoadSkipsIgnoredAndLFSAndRejectsTOML(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".gitignore":                 "wiki/drafts/\n",
		"wiki/.gitignore":            "secret-*.md\n!secret-ok.md\n",
		"wiki/concepts/kept.md":      "# Kept\n\nbody\n",
		"wiki/drafts/wip.md":         "# WIP\n",
		"wiki/concepts/secret-x.md":  "# Hidden\n",
		"wiki/concepts/secret-ok.md": "# Re-included\n",
		"wiki/concepts/big.md":       "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n",
		"wiki/concepts/hugo.md":      "+++\ntitle = \"Hugo page\"\ntype = \"concept\"\n+++\n# Hugo\n\nreal body\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pages, diags, err := Load(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pages {
		got = append(got, p.Path)
	}
	want := "wiki/concepts/hugo.md wiki/concepts/kept.md wiki/concepts/secret-ok.md"
	if strings.Join(got, " ") != want {
		t.Fatalf("pages %v, want %s", got, want)
	}
	all := ""
	for _, d := range diags {
		all += d.String() + "\n"
	}
	for _, w := range []string{
		"wiki/drafts/wip.md: ignored by .gitignore:1 (wiki/drafts/); skipped",
		"wiki/concepts/secret-x.md: ignored by wiki/.gitignore:1 (secret-*.md); skipped",
		"wiki/concepts/big.md: Git LFS pointer, the page's content is not in the tree; skipped",
		"wiki/concepts/hugo.md:1: TOML frontmatter (+++, lines 1-4) is not supported",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("no diagnostic %q in:\n%s", w, all)
		}
	}
	for _, p := range pages {
		if p.Path == "wiki/concepts/hugo.md" && (strings.Contains(p.Body, "+++") || p.BodyLine != 5 || p.HasFront) {
			t.Errorf("TOML block read as body: line %d %q", p.BodyLine, p.Body)
		}
	}
}
