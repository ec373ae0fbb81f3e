// Command graphmiss reads an eval run's JSON (bench/eval --json) and, for
// every acc@5 miss that is a multi-file fix with a gold file in the top
// five, builds the code graph of the task's checked-out tree and prints how
// each gold file below the top five is joined to the gold files above it:
// the file-level edges (calls, references, imports, implements, embeds,
// inherits) out of a top gold file ("out:", the top file uses it) or into
// one ("in:", it uses the top file), and how many graph neighbours the top
// gold files have. It answers "is the second file of a fix one hop from the
// first?" before a ranking signal is built on it.
//
//	go run ./bench/graphmiss --json /tmp/base.json [--cache ~/.cache/rtch-eval]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/codegraph"
	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/walk"
)

type task struct {
	ID, Repo, Commit string
	Gold             []string
	Pipeline         struct {
		Rank      struct{ Acc []bool }
		GoldRanks map[string]int `json:"gold_ranks"`
	}
}

func main() {
	home, _ := os.UserHomeDir()
	js := flag.String("json", "", "an eval run's --json output")
	cache := flag.String("cache", filepath.Join(home, ".cache/rtch-eval"), "the eval's checked-out trees (OWNER+NAME/COMMIT)")
	flag.Parse()
	b, err := os.ReadFile(*js)
	if err != nil {
		fail(err)
	}
	var run struct{ Tasks []task }
	if err := json.Unmarshal(b, &run); err != nil {
		fail(fmt.Errorf("%s: %v", *js, err))
	}
	for _, t := range run.Tasks {
		if err := report(t, *cache); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "graphmiss: error:", err)
	os.Exit(1)
}

// report prints one line per gold file below the top five of a
// multi-file miss.
func report(t task, cache string) error {
	p := t.Pipeline
	if len(p.Rank.Acc) < 3 || p.Rank.Acc[2] || len(t.Gold) < 2 {
		return nil
	}
	var top, miss []string
	for _, g := range t.Gold {
		if r := p.GoldRanks[g]; r > 0 && r <= 5 {
			top = append(top, g)
		} else {
			miss = append(miss, g)
		}
	}
	if len(top) == 0 {
		return nil
	}
	root := filepath.Join(cache, strings.ReplaceAll(t.Repo, "/", "+"), t.Commit)
	res, err := codegraph.BuildTree(context.Background(), codegraph.TreeOptions{Walk: walk.Options{Root: root}})
	if err != nil {
		return fmt.Errorf("%s: %v", t.ID, err)
	}
	nb := neighbours(res.Graph.File.Edges, top)
	n := 0
	for _, tf := range top {
		n += len(nb[tf])
	}
	for _, m := range miss {
		var how []string
		for _, tf := range top {
			if kinds, ok := nb[tf][m]; ok {
				how = append(how, fmt.Sprintf("%s[%s]", tf, strings.Join(sorted(kinds), ",")))
			}
		}
		fmt.Printf("%s\t%s\trank=%d\tneighbours_of_top=%d\t%v\n", t.ID, m, p.GoldRanks[m], n, how)
	}
	return nil
}

// neighbours maps each top file to the files its symbols are joined to,
// with the edge kinds ("out:calls", "in:references").
func neighbours(edges []graph.Edge, top []string) map[string]map[string]map[string]bool {
	fileOf := map[string]string{}
	for _, e := range edges {
		if e.Type == codegraph.EdgeDefines {
			fileOf[e.Target] = strings.TrimPrefix(e.Source, "file:")
		}
	}
	nb := map[string]map[string]map[string]bool{}
	for _, tf := range top {
		nb[tf] = map[string]map[string]bool{}
	}
	add := func(from, to, kind string) {
		if m, ok := nb[from]; ok {
			if m[to] == nil {
				m[to] = map[string]bool{}
			}
			m[to][kind] = true
		}
	}
	for _, e := range edges {
		if e.Type == codegraph.EdgeDefines || e.Type == codegraph.EdgeContains {
			continue
		}
		sf, tf := fileOf[e.Source], fileOf[e.Target]
		if strings.HasPrefix(e.Source, "file:") {
			sf = strings.TrimPrefix(e.Source, "file:")
		}
		if sf == "" || tf == "" || sf == tf {
			continue
		}
		add(sf, tf, "out:"+e.Type)
		add(tf, sf, "in:"+e.Type)
	}
	return nb
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
