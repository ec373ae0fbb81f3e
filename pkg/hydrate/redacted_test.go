package hydrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/secret"
)

// A redacted path reads the one file it was redacted from; two files that
// redact alike are refused with an error naming the path, never read.
func TestReadFileByRedactedName(t *testing.T) {
	root := t.TempDir()
	tokA := "ghp_" + strings.Repeat("a1B2c3D4e5", 3) + "f6G7h8"
	tokB := "ghp_" + strings.Repeat("Z9y8X7w6V5", 3) + "u4T3s2"
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("one/"+tokA+".txt", "the only file\n")
	write("two/"+tokA+".md", "first\n")
	write("two/"+tokB+".md", "second\n")

	rel := secret.String("one/" + tokA + ".txt")
	if rel == "one/"+tokA+".txt" {
		t.Fatalf("the redactor does not mask %s", tokA)
	}
	f, err := ReadFile(root, rel, 1<<20)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	if !strings.Contains(string(f.Data), "the only file") {
		t.Errorf("%s read %q", rel, f.Data)
	}
	amb := secret.String("two/" + tokA + ".md")
	if _, err := ReadFile(root, amb, 1<<20); err == nil || !strings.Contains(err.Error(), "stands for 2 files") {
		t.Errorf("%s: want an error naming the two files it stands for, got %v", amb, err)
	}
	if _, err := ReadFile(root, "one/[REDACTED:github-pat].md", 1<<20); err == nil {
		t.Errorf("a redacted path no file redacts to was read")
	}
}
