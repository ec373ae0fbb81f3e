// Command readfloor measures how much of a fix the reads hydration plans
// could hold in any order: for each task it replans rtch-hydrate's reads on
// the task's saved probe stream (hydrate.Plan: every ranked definition's
// read, the windows, the whole-file reads) and finds the choice of them
// within the chunk budget that holds the most gold lines (an oracle fill,
// exact by knapsack over the gold files' reads). What no choice holds is
// the floor of the ranking's evidence, grouped by where the line stands:
// its file not among the ranked surfaces, its definition holding no goal
// term, the top level outside the windows, a long definition or a class
// read by its head and evidence. The streams are bench/briefreplay's
// (--streams; run it once first); each names its tree (bench/eval's
// cache) as its zone root.
//
//	go run ./bench/readfloor --streams /tmp/probe-streams \
//	  --tasks go-commits.jsonl --tasks swebench-verified-dev.jsonl [--json out.json]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rtch/rtch/bench/internal/replay"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/symbols"
)

// result is one task's floor: the oracle's line recall, the recall of
// every planned read with no budget, and the share of gold lines no
// planned read holds, by cause.
type result struct {
	ID      string             `json:"id"`
	Set     string             `json:"set"`
	Oracle  float64            `json:"oracle_line_recall"`
	Planned float64            `json:"planned_line_recall"`
	Causes  map[string]float64 `json:"unplanned,omitempty"`
	Error   string             `json:"error,omitempty"`
}

// The causes of a gold line no planned read holds.
const (
	causeFile      = "gold file not among the ranked surfaces read"
	causeWindows   = "file read by windows only, line outside them"
	causeTop       = "top level outside its windows"
	causePart      = "definition read by its head and evidence (long, or a class)"
	causeNoEvident = "definition holds no goal term (not ranked)"
)

func main() {
	var tasks replay.Files
	streams := flag.String("streams", "", "directory of the saved probe streams (bench/briefreplay --streams)")
	jobs := flag.Int("jobs", 2, "tasks at a time")
	out := flag.String("json", "", "write the per-task results here")
	flag.Var(&tasks, "tasks", "a task file (repeatable)")
	flag.Parse()
	if *streams == "" || len(tasks) == 0 {
		fail(errors.New("--streams and --tasks are required"))
	}
	all, sets, err := replay.ReadTasks(tasks)
	if err != nil {
		fail(err)
	}
	res := make([]result, len(all))
	replay.Each(len(all), *jobs, func(i int) {
		t := all[i]
		stream := filepath.Join(*streams, strings.ReplaceAll(t.ID, "/", "+")+".ndjson")
		res[i] = one(t, stream)
		res[i].Set = sets[t.ID]
	})
	summarize(res)
	if err := replay.WriteJSON(*out, res); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "readfloor: error:", err)
	os.Exit(1)
}

// one replans a task's reads and measures them.
func one(t evalscore.Task, stream string) result {
	r := result{ID: t.ID}
	in, err := readLane(stream)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	root := in.Zone.ZoneRoot
	cfg, _, err := config.Load("", root)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	p, err := hydrate.Plan(in, hydrate.NewOptions(cfg, in, root))
	if err != nil {
		r.Error = err.Error()
		return r
	}
	byPath := map[string][]hydrate.PlannedRead{}
	for _, rd := range p.Reads {
		byPath[evalscore.CleanPath(rd.Path)] = append(byPath[evalscore.CleanPath(rd.Path)], rd)
	}
	r.Oracle = oracle(t, byPath, p.Budget)
	var every []evalscore.Span
	for _, rd := range p.Reads {
		every = append(every, evalscore.Span{Path: rd.Path, Start: rd.Start, End: rd.End})
	}
	r.Planned = evalscore.ScorePacket(every, t.Gold, t.GoldLines).LineRecall
	r.Causes = causes(t, byPath, root)
	return r
}

// readLane collects a saved stream as rtch-hydrate does.
func readLane(stream string) (*hydrate.Input, error) {
	f, err := os.Open(stream)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in := &hydrate.Input{}
	rd := record.NewReader(f, stream)
	for {
		l, err := rd.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
		if err := in.Collect(l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", stream, l.No, err)
		}
	}
	if in.Zone == nil || in.Rank == nil {
		return nil, fmt.Errorf("%s: no rtch.zone or rtch.rank record", stream)
	}
	return in, nil
}

// causes groups the gold lines no planned read holds, as shares of the
// task's gold lines.
func causes(t evalscore.Task, byPath map[string][]hydrate.PlannedRead, root string) map[string]float64 {
	gold := evalscore.ScorePacket(nil, t.Gold, t.GoldLines).GoldLines
	out := map[string]float64{}
	if gold == 0 {
		return out
	}
	for _, g := range t.Gold {
		g = evalscore.CleanPath(g)
		reads := byPath[g]
		var defs []symbols.Def
		if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(g))); err == nil {
			defs = symbols.Defs(g, data)
		}
		for _, l := range evalscore.LineSet(t.GoldLines[g]) {
			if c := cause(reads, defs, l); c != "" {
				out[c] += 1 / float64(gold)
			}
		}
	}
	return out
}

// cause says why no read of the file holds line l ("" when one does).
func cause(reads []hydrate.PlannedRead, defs []symbols.Def, l int) string {
	ranked := false
	for _, rd := range reads {
		if l >= rd.Start && l <= rd.End {
			return ""
		}
		ranked = ranked || rd.UnitRank > 0
	}
	switch {
	case len(reads) == 0:
		return causeFile
	case !ranked:
		return causeWindows
	}
	i := symbols.Innermost(defs, l)
	if i < 0 {
		return causeTop
	}
	for _, rd := range reads {
		if rd.UnitRank > 0 && rd.Start <= defs[i].End && rd.End >= defs[i].Lead {
			return causePart
		}
	}
	return causeNoEvident
}

// summarize prints each set's oracle and planned recall and the unplanned
// lines by cause, in points of mean line recall.
func summarize(res []result) {
	names, bySet := replay.BySet(res, func(r result) string { return r.Set })
	for _, n := range names {
		rs := bySet[n]
		var or, pl float64
		by := map[string]float64{}
		errs := 0
		for _, r := range rs {
			if r.Error != "" {
				errs++
				fmt.Fprintf(os.Stderr, "readfloor: %s: %s\n", r.ID, r.Error)
			}
			or += r.Oracle
			pl += r.Planned
			for c, v := range r.Causes {
				by[c] += v
			}
		}
		k := float64(len(rs)) / 100
		fmt.Printf("%-28s n=%d oracle fill line recall %.1f every planned read %.1f errors %d\n", n, len(rs), or/k, pl/k, errs)
		for _, c := range []string{causeFile, causeWindows, causeTop, causePart, causeNoEvident} {
			fmt.Printf("  %-64s %5.1f\n", c, by[c]/k)
		}
	}
}
