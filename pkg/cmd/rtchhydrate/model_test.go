package rtchhydrate

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/internal/sharedeval"
	"github.com/rtch/rtch/pkg/protect"
)

// TestProtectRunsTheModel: a chunk only the learned model flags is flagged
// injection:model:<score> by rtch-hydrate's protection, and four in five of
// them are flagged still when the text sits in a Go comment. The texts are the shared dev injections the
// embedded model flags and no rule blocks.
func TestProtectRunsTheModel(t *testing.T) {
	b, err := os.ReadFile(sharedeval.Path(t, "injections-dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n, inComment := 0, 0
	for line := range strings.Lines(string(b)) {
		var r struct{ ID, Text string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if protect.Blocking(protect.Probe(r.Text)) || !modelFlag(protect.Flags(protect.Scan(r.Text))) {
			continue
		}
		n++
		if _, flags := Protect(r.Text); !modelFlag(flags) {
			t.Errorf("%s: Protect flags %v, want injection:model:<score>", r.ID, flags)
		}
		code := "func init() {\n\t// " + strings.ReplaceAll(r.Text, "\n", "\n\t// ") + "\n\tregister(handler{})\n}\n"
		if _, flags := Protect(code); len(flags) > 0 {
			inComment++
		}
	}
	if n == 0 {
		t.Fatal("no dev injection is flagged by the model alone")
	}
	if 5*inComment < 4*n {
		t.Errorf("in a Go comment, %d of the %d are flagged, want four in five", inComment, n)
	}
}

func modelFlag(flags []string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "injection:model:") {
			return true
		}
	}
	return false
}
