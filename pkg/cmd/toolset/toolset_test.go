package toolset

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestAllIsEveryBinary fails when a binary is added under cmd/ without being
// listed here (its man page, completions and release archive entry would be
// missing), or listed under a name no binary has.
func TestAllIsEveryBinary(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("..", "..", "..", "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs, names []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	for _, tool := range All() {
		names = append(names, tool.Name)
		if Lookup(tool.Name) == nil {
			t.Errorf("Lookup(%q) = nil", tool.Name)
		}
	}
	sort.Strings(dirs)
	sort.Strings(names)
	if len(dirs) != len(names) {
		t.Fatalf("cmd/ holds %v, toolset.All lists %v", dirs, names)
	}
	for i := range dirs {
		if dirs[i] != names[i] {
			t.Fatalf("cmd/ holds %v, toolset.All lists %v", dirs, names)
		}
	}
	if Lookup("rtch-nope") != nil {
		t.Error("Lookup found a tool that does not exist")
	}
}
