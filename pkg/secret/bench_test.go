package secret

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/internal/cputime"
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

// BenchmarkScreenGoroot is the index build's screening: Find over every
// file of $(go env GOROOT)/src under 1 MiB (11,400 files, ~150 MB), each
// whole. It reports CPU milliseconds per pass beside wall time, which on
// a shared machine mostly measures the other processes.
func BenchmarkScreenGoroot(b *testing.B) {
	texts := treeTexts(b, filepath.Join(runtime.GOROOT(), "src"), func(p string, size int64) bool { return size < 1<<20 })
	c0, runs := cputime.Self(), 0
	for b.Loop() {
		for _, t := range texts {
			Find(t)
		}
		runs++
	}
	b.ReportMetric(float64(cputime.Self()-c0)/float64(time.Millisecond)/float64(runs), "cpu-ms/op")
}

// gorootTexts are the .go files of GOROOT/src/net/http (2.3 MB); the
// benchmark's bytes are set to their size.
func gorootTexts(b *testing.B) []string {
	return treeTexts(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"), func(p string, _ int64) bool { return strings.HasSuffix(p, ".go") })
}

// treeTexts are the regular files under dir that keep accepts; the
// benchmark's bytes are set to their size and the rules are loaded.
func treeTexts(b *testing.B, dir string, keep func(path string, size int64) bool) []string {
	var texts []string
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err == nil && keep(p, info.Size()) {
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
