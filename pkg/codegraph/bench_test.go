package codegraph

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rtch/rtch/pkg/walk"
)

// BenchmarkBuildGoroot builds and writes the graph of GOROOT/src, the
// large real tree BENCHMARKS.md reports (set RTCH_GRAPH_BENCH_ROOT to
// graph another tree).
func BenchmarkBuildGoroot(b *testing.B) {
	root := os.Getenv("RTCH_GRAPH_BENCH_ROOT")
	if root == "" {
		root = filepath.Join(runtime.GOROOT(), "src")
	}
	if _, err := os.Stat(root); err != nil {
		b.Skipf("%s: %v", root, err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := BuildTree(context.Background(), TreeOptions{Walk: walk.Options{Root: root}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := res.Graph.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Stats.Edges), "edges")
	}
}
