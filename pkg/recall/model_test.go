package recall

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/internal/sharedeval"
	"github.com/rtch/rtch/pkg/protect"
)

// TestRecallQuarantinesModelFindings: a page holding an injection only the
// probe's learned model flags (a shared dev row no rule blocks) comes back
// quarantined, its patterns naming the model.
func TestRecallQuarantinesModelFindings(t *testing.T) {
	b, err := os.ReadFile(sharedeval.Path(t, "injections-dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for line := range strings.Lines(string(b)) {
		var r struct{ Text string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		f := protect.Scan(r.Text)
		if !protect.Blocking(protect.Probe(r.Text)) && protect.Blocking(f) && !strings.Contains(r.Text, "\n#") {
			text = r.Text
			break
		}
	}
	if text == "" {
		t.Fatal("no dev injection is flagged by the model alone")
	}
	root := t.TempDir()
	write(t, root, "wiki/sources/notes.md", []byte("---\nowner: synthesized\n---\n# Notes\nmarkerword\n\n"+text+"\n"))
	res, err := Recall(context.Background(), Options{Root: root, Query: "markerword notes", Settings: guildconfig.Defaults(), Now: time.Unix(1795000000, 0), Tool: "test", RunID: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Chunks) == 0 || !res.Chunks[0].Quarantined || !strings.Contains(res.Chunks[0].Rendered, "(patterns: model:") {
		t.Fatalf("chunks %+v, want the page quarantined by the model", res.Chunks)
	}
}
