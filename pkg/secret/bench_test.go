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
	texts := gorootTexts(b)
	for b.Loop() {
		for _, t := range texts {
			String(t)
		}
	}
}

// BenchmarkLinesGoroot prepares the same files for redaction by ranges and
// asks one window of 40 lines in every 150, the share of its files
// rtch-hydrate shows or prices on the GOROOT/src lane (~27%).
func BenchmarkLinesGoroot(b *testing.B) {
	texts := gorootTexts(b)
	for b.Loop() {
		for _, t := range texts {
			l := NewLines(t)
			for a := 1; a <= l.Count(); a += 150 {
				l.Get(a, a+39)
			}
		}
	}
}

// BenchmarkKeywordPass is the one pass of the keyword matcher every
// redaction makes over its whole text.
func BenchmarkKeywordPass(b *testing.B) {
	texts := gorootTexts(b)
	m := defaultRules().trie
	for b.Loop() {
		for _, t := range texts {
			m.each(t, func(int, int, int) {})
		}
	}
}

// BenchmarkBase64Runs is the byte loop looking for base64 runs.
func BenchmarkBase64Runs(b *testing.B) {
	texts := gorootTexts(b)
	for b.Loop() {
		for _, t := range texts {
			base64Runs(t)
		}
	}
}

// gorootTexts are the .go files of GOROOT/src/net/http (2.3 MB); the
// benchmark's bytes are set to their size.
func gorootTexts(b *testing.B) []string {
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
	return texts
}
