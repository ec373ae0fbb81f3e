package protect

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkModel sets the learned model's cost beside the rules' on the
// 40-line chunks of a real Go file (net/http/server.go): "rules" is Probe,
// "model" ModelFinding alone, "scan" both, as rtch-hydrate and guild-recall
// run them.
func BenchmarkModel(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		b.Skip(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	var chunks []string
	for i := 0; i < len(lines); i += 40 {
		chunks = append(chunks, strings.Join(lines[i:min(i+40, len(lines))], ""))
	}
	for _, c := range []struct {
		name string
		f    func(string)
	}{
		{"rules", func(s string) { Probe(s) }},
		{"model", func(s string) { ModelFinding(s) }},
		{"scan", func(s string) { Scan(s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				for _, s := range chunks {
					c.f(s)
				}
			}
		})
	}
}
