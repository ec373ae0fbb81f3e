// Command rankreplay measures a ranking change on the evaluation tasks
// without running the whole lane: it saves each task's stream as
// rtch-scout writes it (intake | zone | scout, once per task, in --streams)
// and then runs only rtch-probe of --bin on the saved stream, scoring the
// rtch.rank record's surfaces as bench/eval scores the packet's (acc@k,
// MRR). The trees are the eval's cache (bench/eval must have run once).
// It is a tool for iterating; a change is judged by a full run of
// bench/eval beside BM25.
//
//	go run ./bench/rankreplay --bin /tmp/bin --streams /tmp/streams \
//	  --tasks go-commits.jsonl --tasks swebench-verified-dev.jsonl [--json out.json] [--jobs 2]
//
// With --diff old.json the tasks whose first gold rank or acc@5 changed
// are listed.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rtch/rtch/bench/internal/replay"
	"github.com/rtch/rtch/pkg/evalscore"
)

// result is one task's replayed ranking.
type result struct {
	ID     string   `json:"id"`
	Set    string   `json:"set"`
	Gold   []string `json:"gold"`
	Worst  int      `json:"worst"` // rank of the last gold file, 0 if one is unranked
	First  int      `json:"first"`
	Acc    [4]bool  `json:"acc"`
	RR     float64  `json:"rr"`
	Top    []string `json:"top"`
	TopWhy []string `json:"top_why,omitempty"`
	Error  string   `json:"error,omitempty"`
}

func main() {
	home, _ := os.UserHomeDir()
	var tasks replay.Files
	bin := flag.String("bin", "", "directory of the rtch binaries")
	streams := flag.String("streams", "", "directory of the saved scout streams (created)")
	cache := flag.String("cache", filepath.Join(home, ".cache/rtch-eval"), "bench/eval's trees")
	jobs := flag.Int("jobs", 2, "tasks at a time")
	out := flag.String("json", "", "write the per-task results here")
	diff := flag.String("diff", "", "an earlier --json to compare with")
	flag.Var(&tasks, "tasks", "a task file (repeatable)")
	flag.Parse()
	if *bin == "" || *streams == "" || len(tasks) == 0 {
		fail(errors.New("--bin, --streams and --tasks are required"))
	}
	if err := os.MkdirAll(*streams, 0o755); err != nil {
		fail(err)
	}
	all, sets, err := replay.ReadTasks(tasks)
	if err != nil {
		fail(err)
	}
	res := replayAll(all, sets, *bin, *streams, *cache, *jobs)
	summarize(res)
	if *diff != "" {
		if err := compare(res, *diff); err != nil {
			fail(err)
		}
	}
	if err := replay.WriteJSON(*out, res); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "rankreplay: error:", err)
	os.Exit(1)
}

// replayAll runs every task, jobs at a time, results in task order.
func replayAll(all []evalscore.Task, sets map[string]string, bin, streams, cache string, jobs int) []result {
	res := make([]result, len(all))
	replay.Each(len(all), jobs, func(i int) { res[i] = one(all[i], sets[all[i].ID], bin, streams, cache) })
	return res
}

// one replays one task.
func one(t evalscore.Task, set, bin, streams, cache string) result {
	r := result{ID: t.ID, Set: set, Gold: t.Gold}
	tree := replay.Tree(cache, t)
	stream := filepath.Join(streams, strings.ReplaceAll(t.ID, "/", "+")+".ndjson")
	if _, err := os.Stat(stream); err != nil {
		if err := replay.Save(t, tree, bin, stream, []string{"rtch-scout"}); err != nil {
			r.Error = err.Error()
			return r
		}
	}
	in, err := os.ReadFile(stream)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	outb, err := replay.Stage(tree, filepath.Join(bin, "rtch-probe"), in)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	ranked, why := rankOf(outb)
	s := evalscore.ScoreRanking(ranked, t.Gold)
	r.First, r.Acc, r.RR = s.FirstGold, s.Acc, s.RR
	pos := map[string]int{}
	for i, p := range ranked {
		pos[p] = i + 1
	}
	for _, g := range t.Gold {
		if pos[g] == 0 {
			r.Worst = 0
			break
		}
		r.Worst = max(r.Worst, pos[g])
	}
	r.Top = ranked[:min(len(ranked), 10)]
	r.TopWhy = why[:min(len(why), 10)]
	return r
}

// rankOf reads the rtch.rank record's surfaces, in rank order, and the
// first reason of each.
func rankOf(out []byte) ([]string, []string) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		if !bytes.Contains(line, []byte(`"rtch.rank"`)) {
			continue
		}
		var rk struct {
			Kind     string `json:"kind"`
			Surfaces []struct {
				Path string   `json:"path"`
				Rank int      `json:"rank"`
				Why  []string `json:"why_selected"`
			} `json:"surfaces"`
		}
		if json.Unmarshal(line, &rk) != nil || rk.Kind != "rtch.rank" {
			continue
		}
		sort.SliceStable(rk.Surfaces, func(i, j int) bool { return rk.Surfaces[i].Rank < rk.Surfaces[j].Rank })
		var paths, why []string
		for _, s := range rk.Surfaces {
			paths = append(paths, s.Path)
			why = append(why, strings.Join(s.Why, "; "))
		}
		return paths, why
	}
	return nil, nil
}

// summarize prints acc@k and MRR per set.
func summarize(res []result) {
	names, bySet := replay.BySet(res, func(r result) string { return r.Set })
	for _, n := range names {
		rs := bySet[n]
		var acc [4]int
		rr, errs := 0.0, 0
		for _, r := range rs {
			for i := range acc {
				if r.Acc[i] {
					acc[i]++
				}
			}
			rr += r.RR
			if r.Error != "" {
				errs++
				fmt.Fprintf(os.Stderr, "rankreplay: %s: %s\n", r.ID, r.Error)
			}
		}
		p := func(k int) float64 { return 100 * float64(k) / float64(len(rs)) }
		fmt.Printf("%-28s n=%d acc@1 %.1f acc@3 %.1f acc@5 %.1f acc@10 %.1f MRR %.1f errors %d\n",
			n, len(rs), p(acc[0]), p(acc[1]), p(acc[2]), p(acc[3]), 100*rr/float64(len(rs)), errs)
	}
}

// compare lists the tasks whose acc@5 or first gold rank differ from an
// earlier run's.
func compare(res []result, old string) error {
	at, err := replay.ReadByID(old, func(r result) string { return r.ID })
	if err != nil {
		return err
	}
	for _, r := range res {
		p, ok := at[r.ID]
		if !ok || (p.Acc[2] == r.Acc[2] && p.First == r.First && p.Worst == r.Worst) {
			continue
		}
		mark := " "
		switch {
		case r.Acc[2] && !p.Acc[2]:
			mark = "+"
		case !r.Acc[2] && p.Acc[2]:
			mark = "-"
		}
		fmt.Printf("%s %-40s first %d→%d worst %d→%d\n", mark, r.ID, p.First, r.First, p.Worst, r.Worst)
	}
	return nil
}
