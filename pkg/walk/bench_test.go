package walk

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// gorootSrc is $(go env GOROOT)/src, the ~11,500-file tree the walker is
// measured on beside `rg --files`.
func gorootSrc(b *testing.B) string {
	root := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		root = strings.TrimSpace(string(out))
	}
	if root == "" {
		b.Skip("GOROOT unknown")
	}
	return filepath.Join(root, "src")
}

// BenchmarkFilesGOROOT lists $(go env GOROOT)/src (Files) and lists and
// reads every file (Files+Each).
func BenchmarkFilesGOROOT(b *testing.B) {
	src := gorootSrc(b)
	ctx := context.Background()
	b.Run("Files", func(b *testing.B) {
		n := 0
		for b.Loop() {
			fs, err := Files(ctx, Options{Root: src}, nil)
			if err != nil {
				b.Fatal(err)
			}
			n = len(fs)
		}
		b.ReportMetric(float64(n), "files")
	})
	for _, reuse := range []bool{false, true} {
		name := "FilesEach"
		if reuse {
			name = "FilesEachReuse"
		}
		b.Run(name, func(b *testing.B) {
			var bytes atomic.Int64
			o := Options{Root: src, ReuseBuffers: reuse}
			for b.Loop() {
				bytes.Store(0)
				fs, err := Files(ctx, o, nil)
				if err != nil {
					b.Fatal(err)
				}
				err = Each(ctx, o, fs, func(f File, data []byte) error {
					bytes.Add(int64(len(data)))
					return nil
				}, nil)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(bytes.Load())
		})
	}
}
