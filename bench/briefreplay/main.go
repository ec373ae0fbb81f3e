// Command briefreplay measures a hydration or packet change on the
// evaluation tasks without running the whole lane: it saves each task's
// stream as rtch-probe writes it (intake | zone | scout | probe of
// --base-bin, once per task, in --streams) and then runs only rtch-hydrate
// and rtch-packet of --bin on the saved stream, scoring the md brief and the
// JSON packet as bench/eval does (brief line recall, packet has gold, JSON
// line recall, the brief's size). The ranking is the saved one, so a change
// to the probe or earlier is not measured here. The trees are bench/eval's
// cache (bench/eval must have run once). A tool for iterating: a change is
// judged by a full run of bench/eval beside BM25.
//
//	go run ./bench/briefreplay --bin /tmp/bin --base-bin /tmp/base --streams /tmp/probe-streams \
//	  --tasks go-commits.jsonl --tasks swebench-verified-dev.jsonl [--json out.json] [--jobs 2] [--briefs DIR]
//
// --briefs DIR also keeps each task's md brief (DIR/ID.md) for reading what
// a change did.
// With --diff old.json the tasks whose brief line recall changed are listed.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/rtch/rtch/bench/internal/replay"
	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/tokens"
)

// result is one task's replayed brief and packet.
type result struct {
	ID    string                `json:"id"`
	Set   string                `json:"set"`
	Repo  string                `json:"repo"`
	Gold  []string              `json:"gold"`
	Lines map[string][][2]int   `json:"gold_lines"`
	Brief evalscore.PacketScore `json:"brief"`
	JSON  evalscore.PacketScore `json:"packet"`
	Size  int                   `json:"brief_tokens"`
	Spans map[string][][2]int   `json:"brief_gold_chunks,omitempty"`
	Ranks map[string]int        `json:"gold_ranks,omitempty"`
	Error string                `json:"error,omitempty"`
}

type options struct {
	bin, base, streams, cache, briefs string
}

func main() {
	home, _ := os.UserHomeDir()
	var tasks replay.Files
	var o options
	flag.StringVar(&o.bin, "bin", "", "directory of the rtch binaries whose rtch-hydrate and rtch-packet are measured")
	flag.StringVar(&o.base, "base-bin", "", "directory of the binaries that write the saved streams (default --bin)")
	flag.StringVar(&o.streams, "streams", "", "directory of the saved probe streams (created)")
	flag.StringVar(&o.cache, "cache", filepath.Join(home, ".cache/rtch-eval"), "bench/eval's trees")
	flag.StringVar(&o.briefs, "briefs", "", "also write each task's md brief here (created)")
	jobs := flag.Int("jobs", 2, "tasks at a time")
	out := flag.String("json", "", "write the per-task results here")
	diff := flag.String("diff", "", "an earlier --json to compare with")
	flag.Var(&tasks, "tasks", "a task file (repeatable)")
	flag.Parse()
	if o.bin == "" || o.streams == "" || len(tasks) == 0 {
		fail(errors.New("--bin, --streams and --tasks are required"))
	}
	if o.base == "" {
		o.base = o.bin
	}
	for _, d := range []string{o.streams, o.briefs} {
		if d == "" {
			continue
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			fail(err)
		}
	}
	all, sets, err := replay.ReadTasks(tasks)
	if err != nil {
		fail(err)
	}
	res := replayAll(all, sets, o, *jobs)
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
	fmt.Fprintln(os.Stderr, "briefreplay: error:", err)
	os.Exit(1)
}

// replayAll runs every task, jobs at a time, results in task order.
func replayAll(all []evalscore.Task, sets map[string]string, o options, jobs int) []result {
	res := make([]result, len(all))
	replay.Each(len(all), jobs, func(i int) { res[i] = one(all[i], sets[all[i].ID], o) })
	return res
}

// one replays one task: hydrate and packet on its saved probe stream.
func one(t evalscore.Task, set string, o options) result {
	r := result{ID: t.ID, Set: set, Repo: t.Repo, Gold: t.Gold, Lines: t.GoldLines}
	tree := replay.Tree(o.cache, t)
	stream := filepath.Join(o.streams, strings.ReplaceAll(t.ID, "/", "+")+".ndjson")
	if _, err := os.Stat(stream); err != nil {
		if err := replay.Save(t, tree, o.base, stream, []string{"rtch-scout", "--no-index"}, []string{"rtch-probe", "--no-index"}); err != nil {
			r.Error = err.Error()
			return r
		}
	}
	in, err := os.ReadFile(stream)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	hyd, err := replay.Stage(tree, filepath.Join(o.bin, "rtch-hydrate"), in)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	md, err := replay.Stage(tree, filepath.Join(o.bin, "rtch-packet"), hyd, "--format", "md")
	if err != nil {
		r.Error = err.Error()
		return r
	}
	js, err := replay.Stage(tree, filepath.Join(o.bin, "rtch-packet"), hyd, "--format", "json")
	if err != nil {
		r.Error = err.Error()
		return r
	}
	if o.briefs != "" {
		if err := os.WriteFile(filepath.Join(o.briefs, filepath.Base(stream[:len(stream)-len(".ndjson")])+".md"), md, 0o644); err != nil {
			r.Error = err.Error()
			return r
		}
	}
	var spans []evalscore.Span
	for _, sp := range brief.Spans(string(md)) {
		spans = append(spans, evalscore.Span{Path: sp.Path, Start: sp.Start, End: sp.End})
	}
	r.Brief = evalscore.ScorePacket(spans, t.Gold, t.GoldLines)
	r.Spans = goldSpans(spans, t.Gold)
	jspans, ranks, budget, err := packetSpans(js)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Size = tokens.Estimate(string(md))
	if m := statedSize.FindSubmatch(md); m == nil {
		r.Error = "the brief states no size"
	} else if n, _ := strconv.Atoi(string(m[1])); n != r.Size || n > budget {
		r.Error = fmt.Sprintf("the brief is %d tokens, its header states %d, the budget is %d", r.Size, n, budget)
	}
	r.JSON = evalscore.ScorePacket(jspans, t.Gold, t.GoldLines)
	r.Ranks = map[string]int{}
	for _, g := range t.Gold {
		r.Ranks[g] = ranks[g]
	}
	return r
}

var statedSize = regexp.MustCompile(`(?m)^- \*\*size:\*\* (\d+) of \d+ tokens`)

// packetSpans reads the JSON packet's chunk ranges, its surfaces' ranks and
// its budget.
func packetSpans(js []byte) ([]evalscore.Span, map[string]int, int, error) {
	var p struct {
		Chunks []struct {
			Path      string `json:"path"`
			StartLine int    `json:"start_line"`
			EndLine   int    `json:"end_line"`
		} `json:"hydrated_chunks"`
		Surfaces []struct {
			Path string `json:"path"`
			Rank int    `json:"rank"`
		} `json:"selected_surfaces"`
		Budget struct {
			Cap int `json:"cap"`
		} `json:"budget"`
	}
	if err := json.Unmarshal(js, &p); err != nil {
		return nil, nil, 0, fmt.Errorf("json packet: %v", err)
	}
	var spans []evalscore.Span
	for _, c := range p.Chunks {
		spans = append(spans, evalscore.Span{Path: c.Path, Start: c.StartLine, End: c.EndLine})
	}
	ranks := map[string]int{}
	for _, s := range p.Surfaces {
		ranks[evalscore.CleanPath(s.Path)] = s.Rank
	}
	return spans, ranks, p.Budget.Cap, nil
}

func goldSpans(spans []evalscore.Span, gold []string) map[string][][2]int {
	out := map[string][][2]int{}
	for _, sp := range spans {
		p := evalscore.CleanPath(sp.Path)
		for _, g := range gold {
			if g == p {
				out[p] = append(out[p], [2]int{sp.Start, sp.End})
			}
		}
	}
	return out
}

// summarize prints each set's brief and packet figures.
func summarize(res []result) {
	names, bySet := replay.BySet(res, func(r result) string { return r.Set })
	for _, n := range names {
		rs := bySet[n]
		var bl, jl, hg, bg, size float64
		maxSize, errs := 0, 0
		for _, r := range rs {
			if r.Error != "" {
				errs++
				fmt.Fprintf(os.Stderr, "briefreplay: %s: %s\n", r.ID, r.Error)
			}
			bl += r.Brief.LineRecall
			jl += r.JSON.LineRecall
			if r.JSON.HasGold {
				hg++
			}
			if r.Brief.HasGold {
				bg++
			}
			size += float64(r.Size)
			maxSize = max(maxSize, r.Size)
		}
		k := float64(len(rs))
		fmt.Printf("%-28s n=%d brief line recall %.1f brief has gold %.1f packet has gold %.1f JSON line recall %.1f brief tokens %.0f (max %d) errors %d\n",
			n, len(rs), 100*bl/k, 100*bg/k, 100*hg/k, 100*jl/k, size/k, maxSize, errs)
	}
}

// compare lists the tasks whose brief line recall differs from an earlier
// run's.
func compare(res []result, old string) error {
	at, err := replay.ReadByID(old, func(r result) string { return r.ID })
	if err != nil {
		return err
	}
	for _, r := range res {
		p, ok := at[r.ID]
		if !ok || (p.Brief.CoveredLines == r.Brief.CoveredLines && p.JSON.HasGold == r.JSON.HasGold) {
			continue
		}
		fmt.Printf("%-28s %-44s brief lines %d→%d of %d, packet has gold %v→%v\n", r.Set, r.ID,
			p.Brief.CoveredLines, r.Brief.CoveredLines, r.Brief.GoldLines, p.JSON.HasGold, r.JSON.HasGold)
	}
	return nil
}
