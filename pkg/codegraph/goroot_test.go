package codegraph

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/walk"
)

// gorootDirs are the GOROOT packages the tests copy: time and its callers
// in flag, net/http/httptrace and its importer net/http/httputil.
var gorootDirs = []string{"time", "flag", "net/http/httptrace", "net/http/httputil"}

// copyGoroot copies the .go files of dirs from GOROOT/src into a new tree
// with GOROOT's go.mod ("module std") at its root.
func copyGoroot(t testing.TB, dirs ...string) string {
	t.Helper()
	src := filepath.Join(runtime.GOROOT(), "src")
	dst := t.TempDir()
	for _, d := range dirs {
		ents, err := os.ReadDir(filepath.Join(src, d))
		if err != nil {
			t.Skipf("GOROOT/src/%s: %v", d, err)
		}
		if err := os.MkdirAll(filepath.Join(dst, d), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(src, d, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, d, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module std\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// buildTree builds the graph of root and returns it written and loaded.
func buildTree(t testing.TB, root string) ([]byte, *graph.Graph, *Result) {
	t.Helper()
	res, err := BuildTree(context.Background(), TreeOptions{Walk: walk.Options{Root: root}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := res.Graph.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	g, probs, err := graph.Load(bytes.NewReader(buf.Bytes()), "graph.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) > 0 {
		t.Fatalf("the graph does not validate: %v", probs)
	}
	return buf.Bytes(), g, res
}

func structural(t *testing.T, g *graph.Graph, q string) map[string]graph.Hit {
	t.Helper()
	in, ok := graph.ParseIntent(q)
	if !ok {
		t.Fatalf("%q is no structural intent", q)
	}
	hs, ok := g.Structural(in, graph.Options{MaxNodes: 200, MaxTokens: 1 << 20})
	if !ok {
		t.Fatalf("%q: target not resolved", q)
	}
	out := map[string]graph.Hit{}
	for _, h := range hs {
		out[h.Node.ID] = h
	}
	return out
}

func TestGorootPackages(t *testing.T) {
	root := copyGoroot(t, gorootDirs...)
	_, g, _ := buildTree(t, root)

	n, ok := g.Node("go:time#ParseDuration")
	if !ok || len(n.SourceRefs) != 1 || !strings.HasPrefix(n.SourceRefs[0], "time/format.go#L") || n.Type != "function" {
		t.Fatalf("time.ParseDuration node: %+v", n)
	}
	// The callers are the functions whose bodies call it, each with the
	// source ref of its own definition.
	callers := structural(t, g, "callers of ParseDuration")
	for _, id := range []string{"go:flag#durationValue.Set", "go:time_test#TestParseDuration", "go:time_test#BenchmarkParseDuration"} {
		h, ok := callers[id]
		if !ok || h.Depth != 1 || len(h.Node.SourceRefs) == 0 {
			t.Errorf("callers of ParseDuration: %s missing or wrong (%+v)", id, h)
		}
	}
	if h := callers["go:flag#durationValue.Set"]; !strings.HasPrefix(h.Node.SourceRefs[0], "flag/flag.go#L") {
		t.Errorf("durationValue.Set source ref %v", h.Node.SourceRefs)
	}
	for id, h := range callers {
		if h.Depth == 1 && !strings.Contains(h.Relation, "calls") {
			t.Errorf("%s reached by %q, not by a call", id, h.Relation)
		}
	}

	importers := structural(t, g, "what imports net/http/httptrace")
	if h, ok := importers["go:net/http/httputil"]; !ok || h.Depth != 1 {
		t.Errorf("what imports net/http/httptrace: httputil missing: %v", keys(importers))
	}
	if _, ok := importers["go:time"]; ok {
		t.Errorf("time does not import httptrace: %v", keys(importers))
	}

	// Impact: flag's durationValue.String calls it through a conversion,
	// (*time.Duration)(d).String(), and ranks above the type and the file
	// that merely hold it; the set is bounded by depth and by the cap.
	impact := structural(t, g, "impact of changing time.Duration.String")
	c, ok := impact["go:flag#durationValue.String"]
	if !ok || c.Depth != 1 || !strings.Contains(c.Relation, "calls") {
		t.Fatalf("impact of Duration.String misses flag's durationValue.String: %+v", c)
	}
	if holder := impact["go:time#Duration"]; holder.Depth != 1 || holder.Score >= c.Score {
		t.Errorf("the containing type %+v ranks with or above the caller %+v", holder, c)
	}
	for _, h := range impact {
		if h.Depth > 3 {
			t.Errorf("impact went %d hops deep: %s", h.Depth, h.Node.ID)
		}
	}
}

func keys(m map[string]graph.Hit) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestDeterministic(t *testing.T) {
	root := copyGoroot(t, "time", "flag")
	a, _, _ := buildTree(t, root)
	b, _, _ := buildTree(t, root)
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of one tree differ")
	}
}

// TestSameBytesForAnyWorkerCount: the build and the write split their work
// by the number of workers (the edges sorted in buckets, the lines encoded
// in chunks); one worker and several give the same bytes, on a tree large
// enough that every split happens.
func TestSameBytesForAnyWorkerCount(t *testing.T) {
	root := copyGoroot(t, append([]string{"net/http", "strconv"}, gorootDirs...)...)
	var outs [][]byte
	for _, n := range []int{1, 2, 5} {
		res, err := BuildTree(context.Background(), TreeOptions{Walk: walk.Options{Root: root}, Workers: n})
		if err != nil {
			t.Fatal(err)
		}
		if n > 1 && (res.Stats.Edges < 2*4*chunkLines || res.Stats.Unresolved < 2*chunkLines) {
			t.Fatalf("the tree is too small to split its work %d ways: %+v", n, res.Stats)
		}
		var buf bytes.Buffer
		if _, err := res.Graph.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, buf.Bytes())
	}
	for i := 1; i < len(outs); i++ {
		if !bytes.Equal(outs[0], outs[i]) {
			t.Fatalf("the graph built and written with more workers differs (%d vs %d bytes)", len(outs[0]), len(outs[i]))
		}
	}
}

// TestWriteIsJSONEncoder: the hand-written node and unresolved lines are
// what json.Encoder wrote before them, for the tree's real values.
func TestWriteIsJSONEncoder(t *testing.T) {
	_, _, res := buildTree(t, copyGoroot(t, "time"))
	for _, n := range res.Graph.File.Nodes {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(n); err != nil {
			t.Fatal(err)
		}
		if got := appendNode(nil, &n); string(got) != want.String() {
			t.Fatalf("node:\n got %s\nwant %s", got, want.String())
		}
	}
	for _, u := range res.Unresolved {
		want, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendUnresolved(nil, &u); string(got) != string(want) {
			t.Fatalf("unresolved:\n got %s\nwant %s", got, want)
		}
	}
}
