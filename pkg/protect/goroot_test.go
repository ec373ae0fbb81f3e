package protect

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// chunkExts are the file kinds TestGorootChunks probes: source and prose.
var chunkExts = []string{".go", ".md", ".py", ".rst", ".txt"}

// TestGorootChunks measures the probe's false-positive rate (rules and
// model, as Scan runs them) on real code and documentation: every .go, .md, .py, .rst and .txt file under a tree, cut
// into 40-line chunks, the shape rtch-hydrate feeds it. Opt-in: it reads
// ~10k files. PROTECT_GOROOT=1 scans $GOROOT/src; PROTECT_CHUNK_ROOT=DIR
// scans DIR instead (a checkout of documentation-heavy projects).
func TestGorootChunks(t *testing.T) {
	root := os.Getenv("PROTECT_CHUNK_ROOT")
	if root == "" && os.Getenv("PROTECT_GOROOT") == "" {
		t.Skip("set PROTECT_GOROOT=1 to scan $GOROOT/src, or PROTECT_CHUNK_ROOT=DIR")
	}
	if root == "" {
		root = filepath.Join(runtime.GOROOT(), "src")
	}
	var chunks, flagged, bytes int
	byPattern := map[string]int{}
	var examples []string
	var spent time.Duration
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.Contains(chunkExts, filepath.Ext(p)) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines := strings.SplitAfter(string(b), "\n")
		for i := 0; i < len(lines); i += 40 {
			chunk := strings.Join(lines[i:min(i+40, len(lines))], "")
			chunks++
			bytes += len(chunk)
			t0 := time.Now()
			f := Scan(chunk)
			spent += time.Since(t0)
			if Blocking(f) {
				flagged++
				for _, x := range Patterns(f) {
					if strings.HasPrefix(x, "model:") {
						x = "model"
					}
					byPattern[x]++
				}
				if len(examples) < 80 {
					rel, _ := filepath.Rel(root, p)
					examples = append(examples, fmt.Sprintf("%s:%d %v %q", rel, i+1, Patterns(f), f[0].Excerpt))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(byPattern))
	for k := range byPattern {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s 40-line chunks: %d flagged of %d (%.2f%%), %d MB probed in %v (%.1f MB/s)\n",
		root, flagged, chunks, 100*float64(flagged)/float64(chunks), bytes>>20, spent.Round(time.Millisecond), float64(bytes)/(1<<20)/spent.Seconds())
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %d\n", k, byPattern[k])
	}
	b.WriteString("  " + strings.Join(examples, "\n  "))
	t.Log(b.String())
}
