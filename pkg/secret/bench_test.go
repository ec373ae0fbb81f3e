package secret

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkRedactGoroot redacts every .go file of $(go env GOROOT)/src/net/http
// whole, as hydrate and probe do for the files they show: the per-byte
// cost of the redactor on real code (b.SetBytes).
func BenchmarkRedactGoroot(b *testing.B) {
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	var texts []string
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			if data, err := os.ReadFile(p); err == nil {
				texts = append(texts, string(data))
				n += len(data)
			}
		}
		return nil
	})
	if len(texts) == 0 {
		b.Skip("no GOROOT sources")
	}
	defaultRules()
	b.SetBytes(int64(n))
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			String(t)
		}
	}
}
