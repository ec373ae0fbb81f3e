package codegraph

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/walk"
)

// TreeOptions describe a whole-tree build.
type TreeOptions struct {
	// Walk is how the tree is walked (root, ignore rules, size cap).
	Walk walk.Options
	// Skip receives every file the walk could not read, in path order.
	Skip func(walk.Skip)
	// Problem receives every file whose syntax the extractor rejected,
	// in path order ("path:line:col: message").
	Problem func(string)
	// Cache, when set, answers for the files whose bytes it holds.
	Cache *FactsCache
	// Workers bounds the goroutines that read and extract the files
	// (unless Walk.Workers says otherwise), build the graph and encode it
	// (0: GOMAXPROCS). The graph's bytes do not depend on it.
	Workers int
}

// Result is a built graph with what the build saw.
type Result struct {
	Graph      Graph
	Stats      Stats
	Unresolved []Unresolved
}

// BuildTree walks the tree once, extracts every file in parallel and
// builds the graph.
func BuildTree(ctx context.Context, o TreeOptions) (*Result, error) {
	skip := o.Skip
	if skip == nil {
		skip = func(walk.Skip) {}
	}
	if o.Walk.Workers == 0 {
		o.Walk.Workers = o.Workers
	}
	// Extract keeps no byte of the data it is given (go/parser copies
	// what it keeps, the line readers convert to strings; the cache keeps
	// its hash), so each reading goroutine can read every file into one
	// buffer.
	o.Walk.ReuseBuffers = true
	files, err := walk.Files(ctx, o.Walk, skip)
	if err != nil {
		return nil, err
	}
	meta := Meta{Name: filepath.Base(o.Walk.Root), GoModules: map[string]string{}, Commit: headCommit(ctx, o.Walk.Root)}
	facts, files := known(o.Cache, files)
	extract := func(f walk.File, data []byte) Facts { return Extract(f.Path, data) }
	if o.Cache != nil {
		extract = o.Cache.Extract
	}
	var mu sync.Mutex
	err = walk.Each(ctx, o.Walk, files, func(f walk.File, data []byte) error {
		x := extract(f, data)
		var mod string
		if path.Base(f.Path) == "go.mod" {
			mod = modulePath(data)
		}
		mu.Lock()
		defer mu.Unlock()
		facts = append(facts, x)
		if mod != "" {
			meta.GoModules[dirOf(f.Path)] = mod
		}
		return nil
	}, skip)
	if err != nil {
		return nil, err
	}
	sort.Slice(facts, func(i, j int) bool { return facts[i].Path < facts[j].Path })
	b := NewBuilder(meta)
	b.Workers = o.Workers
	for _, f := range facts {
		if f.Problem != "" && o.Problem != nil {
			o.Problem(f.Problem)
		}
		b.Add(f)
	}
	g, un, st := b.Build()
	return &Result{Graph: Graph{File: g, Unresolved: un, Untyped: st.Untyped, Workers: o.Workers}, Stats: st, Unresolved: un}, nil
}

// known splits the walked files into the Facts the cache holds for them
// unread and the files still to read: every go.mod is read (its module
// path is not among its facts).
func known(c *FactsCache, files []walk.File) ([]Facts, []walk.File) {
	if c == nil {
		return nil, files
	}
	var facts []Facts
	read := files[:0:0]
	for _, f := range files {
		if path.Base(f.Path) != "go.mod" {
			if x, ok := c.Known(f); ok {
				facts = append(facts, x)
				continue
			}
		}
		read = append(read, f)
	}
	return facts, read
}

// modulePath reads the module line of a go.mod.
func modulePath(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// headCommit is the HEAD commit of the git work tree holding root, or ""
// when there is none.
func headCommit(ctx context.Context, root string) string {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--verify", "-q", "HEAD")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
