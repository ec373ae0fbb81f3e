package recordsdoc

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/records.md from pkg/schema")

// TestRecordsDocUpToDate fails when docs/records.md differs from what the schema
// says; run `go test ./pkg/schema/... -update` after changing a record type.
func TestRecordsDocUpToDate(t *testing.T) {
	got, err := Render("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Intake *record*", "| `intake_hash` | string |", "## GoalTerm *(object)*"} {
		if !strings.Contains(got, want) {
			t.Fatalf("rendered doc lacks %q", want)
		}
	}
	path := filepath.Join("..", "..", "..", "..", "docs", "records.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./pkg/schema/... -update)", err)
	}
	if string(have) != got {
		t.Fatal("docs/records.md is stale: run go test ./pkg/schema/... -update")
	}
}
