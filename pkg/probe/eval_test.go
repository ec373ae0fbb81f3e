package probe

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/basket"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

// evalTask is one localization task of ../shared/eval.
type evalTask struct {
	Repo      string              `json:"repo"`
	Parent    string              `json:"parent"`
	Base      string              `json:"base_commit"`
	Intent    string              `json:"intent"`
	Problem   string              `json:"problem_statement"`
	GoldFiles []string            `json:"gold_files"`
	GoldLines map[string][][2]int `json:"gold_lines"`
}

// TestEvalRanking measures file-level localization of the scout → probe
// ranking on the shared evaluation tasks. It needs the corpora: set
// RTCH_EVAL_TASKS to a tasks .jsonl, RTCH_EVAL_MIRRORS to a directory of
// <owner>+<name>/repo git dirs and RTCH_EVAL_CACHE to a directory for trees.
// RTCH_EVAL_LIMIT caps the number of tasks.
func TestEvalRanking(t *testing.T) {
	tasksPath := os.Getenv("RTCH_EVAL_TASKS")
	if tasksPath == "" {
		t.Skip("set RTCH_EVAL_TASKS, RTCH_EVAL_MIRRORS and RTCH_EVAL_CACHE to run the ranking evaluation")
	}
	mirrors, cache := os.Getenv("RTCH_EVAL_MIRRORS"), os.Getenv("RTCH_EVAL_CACHE")
	limit := 0
	fmt.Sscan(os.Getenv("RTCH_EVAL_LIMIT"), &limit)
	f, err := os.Open(tasksPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tasks []evalTask
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var tk evalTask
		if err := json.Unmarshal(sc.Bytes(), &tk); err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, tk)
	}
	if limit > 0 && len(tasks) > limit {
		tasks = tasks[:limit]
	}
	type agg struct {
		n, h1, h3, h5, h10, a1, a3, a5, a10 int
		mrr                                 float64
		lineN, lineHit, firstHit            int // gold files in the top 10 with gold lines, and those an anchor window (the first anchor's) covers
	}
	per := map[string]*agg{}
	all := &agg{}
	verbose := os.Getenv("RTCH_EVAL_VERBOSE") != ""
	for _, tk := range tasks {
		commit := tk.Parent
		if commit == "" {
			commit = tk.Base
		}
		goal := tk.Intent
		if goal == "" {
			goal = tk.Problem
		}
		dir := filepath.Join(cache, strings.ReplaceAll(tk.Repo, "/", "+")+"@"+commit[:12])
		if _, err := os.Stat(dir); err != nil {
			gitDir := filepath.Join(mirrors, strings.ReplaceAll(tk.Repo, "/", "+"), "repo")
			tmp := dir + ".tmp"
			os.RemoveAll(tmp)
			os.MkdirAll(tmp, 0o755)
			cmd := exec.Command("sh", "-c", fmt.Sprintf("git --git-dir=%q archive %s | tar -x -C %q", gitDir, commit, tmp))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Logf("%s %s: %v %s", tk.Repo, commit, err, out)
				continue
			}
			os.Rename(tmp, dir)
		}
		ranked, why, anchors := rankFor(t, dir, goal)
		gold := map[string]bool{}
		for _, g := range tk.GoldFiles {
			gold[g] = true
		}
		a := per[tk.Repo]
		if a == nil {
			a = &agg{}
			per[tk.Repo] = a
		}
		first := 0
		found := 0
		for i, p := range ranked {
			if gold[p] {
				if first == 0 {
					first = i + 1
				}
				found++
			}
			_ = found
		}
		allIn := func(k int) bool {
			n := 0
			for i := 0; i < k && i < len(ranked); i++ {
				if gold[ranked[i]] {
					n++
				}
			}
			return n == len(gold)
		}
		for i, p := range ranked {
			if i >= 10 || len(tk.GoldLines[p]) == 0 {
				continue
			}
			covered, first := false, false
			for _, r := range tk.GoldLines[p] {
				for k, an := range anchors[p] {
					if an-20 <= r[1] && r[0] <= an+20 {
						covered = true
						first = first || k == 0
					}
				}
			}
			for _, x := range []*agg{a, all} {
				x.lineN++
				if covered {
					x.lineHit++
				}
				if first {
					x.firstHit++
				}
			}
		}
		for _, x := range []*agg{a, all} {
			x.n++
			if first > 0 {
				x.mrr += 1 / float64(first)
			}
			if first == 1 {
				x.h1++
			}
			if first > 0 && first <= 3 {
				x.h3++
			}
			if first > 0 && first <= 5 {
				x.h5++
			}
			if first > 0 && first <= 10 {
				x.h10++
			}
			if allIn(1) {
				x.a1++
			}
			if allIn(3) {
				x.a3++
			}
			if allIn(5) {
				x.a5++
			}
			if allIn(10) {
				x.a10++
			}
		}
		if verbose {
			top := ranked
			if len(top) > 5 {
				top = top[:5]
			}
			t.Logf("%s first=%d gold=%v top=%v goal=%.60q", tk.Repo, first, tk.GoldFiles, top, goal)
			if os.Getenv("RTCH_EVAL_VERBOSE") == "2" && first != 1 {
				if len(ranked) > 0 {
					t.Logf("   top1 %s: %v", ranked[0], why[ranked[0]])
				}
				for _, g := range tk.GoldFiles {
					t.Logf("   gold %s: %v", g, why[g])
				}
			}
		}
	}
	pct := func(x, n int) float64 { return 100 * float64(x) / float64(max(n, 1)) }
	var repos []string
	for r := range per {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	for _, r := range append(repos, "ALL") {
		a := per[r]
		if r == "ALL" {
			a = all
		}
		t.Logf("%-22s n=%3d acc@1 %5.1f acc@3 %5.1f acc@5 %5.1f acc@10 %5.1f | hit@1 %5.1f hit@5 %5.1f hit@10 %5.1f | MRR %5.1f | anchors cover gold lines %5.1f%% (first %5.1f%%) of %d",
			r, a.n, pct(a.a1, a.n), pct(a.a3, a.n), pct(a.a5, a.n), pct(a.a10, a.n), pct(a.h1, a.n), pct(a.h5, a.n), pct(a.h10, a.n), 100*a.mrr/float64(max(a.n, 1)),
			pct(a.lineHit, a.lineN), pct(a.firstHit, a.lineN), a.lineN)
	}
}

// rankFor runs intake → scout → basket → probe in process and returns the
// ranked paths.
func rankFor(t *testing.T, dir, goal string) ([]string, map[string]string, map[string][]int) {
	m := intake.Merge(intake.Layer{Name: "flags", Fields: schema.IntakeFields{Goal: goal, TargetProfile: "code_path",
		FanoutLevel: "normal", MutationRisk: "read_only", ExpectedOutput: "hydration_packet", EnoughEvidenceDefinition: "eval"}})
	in, err := intake.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{}
	wo := scout.WalkOptions(cfg, dir)
	res, err := scout.Run(context.Background(), scout.Options{Walk: wo, Terms: basket.ScoutTerms(in, nil)})
	if err != nil {
		t.Fatal(err)
	}
	b := basket.Build(basket.Input{Intake: in, Zone: schema.Zone{ZoneRoot: dir}, Scout: res})
	pr, err := Run(context.Background(), Options{Walk: wo, Intake: in, Candidates: b.Candidates, Basket: b.Basket,
		AvgBytes: res.Shape.Corpus.AvgLen * 4, Budget: cfg.FanoutFor("normal"), RankCap: 100, Weights: evalWeights()})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	why := map[string]string{}
	anchors := map[string][]int{}
	for _, s := range pr.Rank.Surfaces {
		out = append(out, s.Path)
		anchors[s.Path] = s.Anchors
		why[s.Path] = fmt.Sprintf("#%d %.3f %v", s.Rank, s.Score, s.WhySelected)
	}
	if os.Getenv("RTCH_EVAL_VERBOSE") == "2" {
		var ts []string
		for _, c := range b.Candidates {
			ts = append(ts, fmt.Sprintf("%s/%s/%.2f", c.Term, c.Origin, c.IDF))
		}
		t.Logf("   terms: %s", strings.Join(ts, " "))
	}
	return out, why, anchors
}

// evalWeights lets RTCH_EVAL_WEIGHTS (JSON) override rank.Default for tuning runs.
func evalWeights() rank.Weights {
	w := rank.Default
	if s := os.Getenv("RTCH_EVAL_WEIGHTS"); s != "" {
		if err := json.Unmarshal([]byte(s), &w); err != nil {
			panic(err)
		}
	}
	return w
}
