package rtchprobe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

// A damaged entry that only rtch-probe reads is warned about once, as
// being rebuilt, and then is: the probe drops it from the index, so the
// next probe over the same stream neither warns again nor trusts it, and
// the next lane stores the file afresh.
func TestProbeRebuildsADamagedEntryItAloneReads(t *testing.T) {
	root := copyTree(t, "bufio")
	ix := filepath.Join(t.TempDir(), "ix")
	want, _, _ := laneRun(t, root, "--no-index")
	laneRun(t, root, "--index", ix)
	stream, _ := runStage(t, root, rtchintake.Tool(), []string{"-q", "--goal", indexGoal, "--profile", "code_path", "--fanout", "normal",
		"--risk", "read_only", "--output-kind", "hydration_packet", "--enough", "the test is done"}, nil, nil)
	stream, _ = runStage(t, root, rtchzone.Tool(), []string{"-q"}, stream, nil)
	stream, _ = runStage(t, root, rtchscout.Tool(), []string{"--no-timing", "--index", ix}, stream, nil)
	file := filepath.Join(ix, "index")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for run, warnings := range []int{1, 0} {
		out, stderr := runStage(t, root, Tool(), []string{"--index", ix}, stream, nil)
		if n := strings.Count(stderr, "rebuilding it"); n != warnings || n > 0 && !strings.Contains(stderr, "the entry of") {
			t.Fatalf("probe run %d: %d warnings that the index is rebuilt, want %d:\n%s", run+1, n, warnings, stderr)
		}
		if string(out) != want {
			t.Fatalf("probe run %d: output differs from --no-index:\n%s", run+1, firstDiff(want, string(out)))
		}
	}
	if got, stderr, _ := laneRun(t, root, "--index", ix); got != want || stderr != "" {
		t.Fatalf("the lane after the repair: stderr %q, same output %v", stderr, got == want)
	}
}
