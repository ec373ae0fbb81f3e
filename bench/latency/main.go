// Command latency measures what a new question costs rtch-mcp, goal by
// goal, over every goal of the shared evaluation sets (each run against
// one tree of its repository) and over other trees with goals of their
// own, with the tree index on and off (issue 40, item 2): per tree the
// p50, p95 and max of the calls, and how many times the median the
// slowest one cost.
//
// For each tree it builds the index first (the piped lane with --index,
// timed), starts two servers on the tree, one with that index and one
// with --no-index, warms each with one call, then asks every goal of the
// tree of both, alternating which goes first, and checks that the two
// briefs are byte-identical. A call's wall time is the client's; its CPU
// is the server's (/proc). With --cli each goal is also run through the
// piped binaries, with and without the index.
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/latency --bin /tmp/b --repos /work/.mirror \
//	  --tasks ../shared/eval/go-commits.jsonl --tasks ../shared/eval/swebench-verified-dev.jsonl \
//	  --tree "goroot=$(go env GOROOT)/src:bench/latency/goals.jsonl" \
//	  --git moby=/work/.mirror/moby+moby/repo@HEAD:39 --json /work/evalruns/latency.json
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rtch/rtch/bench/internal/mcpserver"
	"github.com/rtch/rtch/bench/internal/timing"
)

// warmGoal is each server's first call, not counted.
const warmGoal = "where is the configuration read"

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	var tasks, trees, gits list
	bin := flag.String("bin", "", "directory of the built binaries")
	repos := flag.String("repos", "", "directory of the evaluation repositories' git directories (for --tasks)")
	flag.Var(&tasks, "tasks", "an evaluation task file (JSONL: repo, parent or base_commit, intent or problem_statement); repeatable")
	flag.Var(&trees, "tree", "`NAME=DIR:GOALS`: a tree and a JSONL file of goals ({\"goal\": …}); repeatable")
	flag.Var(&gits, "git", "`NAME=GITDIR@REV:N`: the tree of REV, asked the messages of its N latest non-merge commits; repeatable")
	filter := flag.String("repo-filter", "", "only trees whose name contains this")
	limit := flag.Int("limit", 0, "at most N goals per tree (0: all)")
	work := flag.String("work", "", "directory for the trees and indexes (default a fresh temporary, removed at the end)")
	cli := flag.Bool("cli", false, "also run each goal through the piped binaries, with and without the index")
	beside := flag.String("beside", "", "a second build's binaries (an older commit's): its rtch-mcp is asked each goal too, with a copy of the index, in the same rotation")
	out := flag.String("json", "", "write every call's figures to this file")
	flag.Parse()
	if *bin == "" || (len(tasks) == 0 && len(trees) == 0 && len(gits) == 0) || (len(tasks) > 0 && *repos == "") {
		fmt.Fprintln(os.Stderr, "usage: latency --bin DIR [--repos DIR --tasks FILE…] [--tree NAME=DIR:GOALS…] [--git NAME=GITDIR@REV:N…] [--json OUT]")
		os.Exit(2)
	}
	b := &bench{bin: *bin, cli: *cli, limit: *limit, beside: *beside}
	err := b.run(*repos, *work, *filter, *out, tasks, trees, gits)
	if err != nil {
		fmt.Fprintln(os.Stderr, "latency:", err)
		os.Exit(1)
	}
}

// bench is one run's settings.
type bench struct {
	bin    string
	beside string // another build's binaries, asked beside bin's (mcp/beside)
	cli    bool
	limit  int
	work   string
}

// tree is one tree and the goals asked of it.
type tree struct {
	Name  string   `json:"name"`
	Dir   string   `json:"dir"`
	Goals []string `json:"goals"`
	Files int      `json:"files"`
	// Build is the piped lane that built the index.
	Build timing.Sample `json:"build"`
	// Calls are the servers' (mcp/index, mcp/no-index, with --beside
	// mcp/beside: the other build with the index) and, with --cli,
	// the piped lane's (cli/index, cli/no-index), goal by goal.
	Calls map[string][]timing.Sample `json:"calls"`
	// Failed are the goals (by number) each server answered with a tool
	// error; their calls are timed all the same.
	Failed map[string][]int `json:"failed,omitempty"`
}

func (b *bench) run(repos, work, filter, out string, tasks, trees, gits list) error {
	if work == "" {
		d, err := os.MkdirTemp("", "latency-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		work = d
	}
	b.work = work
	ts, err := b.trees(repos, tasks, trees, gits)
	if err != nil {
		return err
	}
	var done []*tree
	for _, t := range ts {
		if filter != "" && !strings.Contains(t.Name, filter) {
			continue
		}
		if b.limit > 0 && len(t.Goals) > b.limit {
			t.Goals = t.Goals[:b.limit]
		}
		if err := b.measure(t); err != nil {
			return fmt.Errorf("%s: %v", t.Name, err)
		}
		done = append(done, t)
	}
	report(done)
	if out == "" {
		return nil
	}
	j, err := json.MarshalIndent(done, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, j, 0o644)
}

// trees are the trees to measure, with their goals: one per repository of
// the task files (the tree of its newest task's commit), then --tree and
// --git.
func (b *bench) trees(repos string, tasks, trees, gits list) ([]*tree, error) {
	var out []*tree
	type repoTasks struct {
		commits []string
		goals   []string
	}
	byRepo := map[string]*repoTasks{}
	var order []string
	for _, file := range tasks {
		err := eachTask(file, func(repo, commit, goal string) error {
			r := byRepo[repo]
			if r == nil {
				r = &repoTasks{}
				byRepo[repo] = r
				order = append(order, repo)
			}
			r.commits, r.goals = append(r.commits, commit), append(r.goals, goal)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, repo := range order {
		gitDir := filepath.Join(repos, strings.ReplaceAll(repo, "/", "+"), "repo")
		commits, err := newestFirst(gitDir, byRepo[repo].commits)
		if err != nil {
			return nil, err
		}
		// A mirror may lack a large blob of some trees: the newest tree
		// that extracts whole is taken.
		var dir, commit string
		for _, commit = range commits {
			if dir, err = b.materialise(gitDir, commit, repo); err == nil {
				break
			}
			fmt.Fprintf(os.Stderr, "latency: %s@%s: %v; trying an older tree\n", repo, commit[:10], err)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, &tree{Name: repo + "@" + commit[:10], Dir: dir, Goals: byRepo[repo].goals})
	}
	for _, spec := range trees {
		name, rest, ok1 := strings.Cut(spec, "=")
		dir, goals, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("--tree %q: want NAME=DIR:GOALS", spec)
		}
		t := &tree{Name: name, Dir: dir}
		err := eachTask(goals, func(_, _, goal string) error { t.Goals = append(t.Goals, goal); return nil })
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	for _, spec := range gits {
		t, err := b.gitTree(spec)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// eachTask calls fn with the repository, commit and goal of every line of
// a JSONL file of tasks or goals.
func eachTask(file string, fn func(repo, commit, goal string) error) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var t struct {
			Repo, Parent, BaseCommit, Intent, ProblemStatement, Goal string
		}
		var raw map[string]any
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return fmt.Errorf("%s:%d: %v", file, n, err)
		}
		get := func(k string) string { s, _ := raw[k].(string); return s }
		t.Repo, t.Parent, t.BaseCommit = get("repo"), get("parent"), get("base_commit")
		t.Intent, t.ProblemStatement, t.Goal = get("intent"), get("problem_statement"), get("goal")
		goal := t.Goal + t.Intent + t.ProblemStatement
		if goal == "" {
			return fmt.Errorf("%s:%d: no goal, intent or problem_statement", file, n)
		}
		if err := fn(t.Repo, t.Parent+t.BaseCommit, goal); err != nil {
			return fmt.Errorf("%s:%d: %v", file, n, err)
		}
	}
	return sc.Err()
}

// newestFirst are the distinct commits, latest committer date first.
func newestFirst(gitDir string, commits []string) ([]string, error) {
	at := map[string]int64{}
	var out []string
	for _, c := range commits {
		if _, ok := at[c]; ok {
			continue
		}
		s, err := git(gitDir, "log", "-1", "--format=%ct", c)
		if err != nil {
			return nil, err
		}
		if at[c], err = strconv.ParseInt(strings.TrimSpace(s), 10, 64); err != nil {
			return nil, fmt.Errorf("%s: commit time %q", c, s)
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return at[out[i]] > at[out[j]] })
	return out, nil
}

// gitTree is --git NAME=GITDIR@REV:N.
func (b *bench) gitTree(spec string) (*tree, error) {
	name, rest, ok1 := strings.Cut(spec, "=")
	at := strings.LastIndexByte(rest, '@')
	colon := strings.LastIndexByte(rest, ':')
	if !ok1 || at < 0 || colon < at {
		return nil, fmt.Errorf("--git %q: want NAME=GITDIR@REV:N", spec)
	}
	gitDir, rev, nstr := rest[:at], rest[at+1:colon], rest[colon+1:]
	n, err := strconv.Atoi(nstr)
	if err != nil || n <= 0 {
		return nil, fmt.Errorf("--git %q: N must be a positive count", spec)
	}
	commit, err := git(gitDir, "rev-parse", "--verify", rev+"^{commit}")
	if err != nil {
		return nil, err
	}
	commit = strings.TrimSpace(commit)
	log, err := git(gitDir, "log", "--no-merges", "-z", "-n", nstr, "--format=%B", commit)
	if err != nil {
		return nil, err
	}
	dir, err := b.materialise(gitDir, commit, name)
	if err != nil {
		return nil, err
	}
	t := &tree{Name: name + "@" + commit[:10], Dir: dir}
	for _, m := range strings.Split(log, "\x00") {
		if m = strings.TrimSpace(m); m != "" {
			t.Goals = append(t.Goals, m)
		}
	}
	return t, nil
}

func git(gitDir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git --git-dir=%s %s: %v: %s", gitDir, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// materialise extracts gitDir's tree at commit under the work directory,
// once.
func (b *bench) materialise(gitDir, commit, name string) (string, error) {
	dir := filepath.Join(b.work, "trees", strings.ReplaceAll(name, "/", "+")+"@"+commit)
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("sh", "-c", `git --git-dir="$1" archive "$2" | tar -x -C "$3"`, "sh", gitDir, commit, tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("git archive %s %s: %v: %.300s", gitDir, commit, err, out)
	}
	return dir, os.Rename(tmp, dir)
}

// measure asks every goal of t of both servers (and the piped lanes).
func (b *bench) measure(t *tree) error {
	ix := filepath.Join(b.work, "ix", strings.NewReplacer("/", "+", "@", "+").Replace(t.Name))
	os.RemoveAll(ix)
	var err error
	if t.Build, err = timing.Time([]string{"SOURCE_DATE_EPOCH=" + mcpserver.Epoch}, timing.Lane(b.bin, t.Dir, warmGoal, mcpserver.Enough, "json", "--index", ix)...); err != nil {
		return err
	}
	t.Files = timing.Files(t.Dir)
	fmt.Printf("%s: %d files, %d goals; index built by the piped lane in %.2f s (%.2f s CPU, %.0f MB max RSS)\n",
		t.Name, t.Files, len(t.Goals), t.Build.Wall, t.Build.CPU, t.Build.RSS)
	on, err := start(b.bin, t.Dir, "--index", ix)
	if err != nil {
		return err
	}
	defer on.Close()
	off, err := start(b.bin, t.Dir, "--no-index")
	if err != nil {
		return err
	}
	defer off.Close()
	servers := []*server{on, off}
	if b.beside != "" {
		other, err := b.besideServer(t, ix)
		if err != nil {
			return err
		}
		defer other.Close()
		servers = append(servers, other)
	}
	t.Calls, t.Failed = map[string][]timing.Sample{}, map[string][]int{}
	for i, goal := range t.Goals {
		// each server goes first in turn
		pair := append(slices.Clone(servers[i%len(servers):]), servers[:i%len(servers)]...)
		briefs := map[string]string{}
		for _, sv := range pair {
			s, brief, err := sv.Ask(goal)
			var te *mcpserver.ToolError
			switch {
			case errors.As(err, &te):
				fmt.Printf("  %d/%d: %s: %v\n", i+1, len(t.Goals), sv.name, err)
				t.Failed[sv.name] = append(t.Failed[sv.name], i)
			case err != nil:
				return fmt.Errorf("goal %d: %v", i+1, err)
			}
			t.Calls["mcp/"+sv.name] = append(t.Calls["mcp/"+sv.name], s)
			briefs[sv.name] = brief
		}
		if b.beside != "" && briefs["beside"] != briefs["index"] {
			fmt.Printf("  %d/%d: the brief of --beside's build differs from this build's (%d and %d bytes)\n", i+1, len(t.Goals), len(briefs["beside"]), len(briefs["index"]))
		}
		if briefs["index"] != briefs["no-index"] {
			return fmt.Errorf("goal %d (%.60q): the brief with the index differs from the one without (%d and %d bytes)",
				i+1, goal, len(briefs["index"]), len(briefs["no-index"]))
		}
		if b.cli {
			for _, flags := range [][]string{{"--index", ix}, {"--no-index"}} {
				s, err := timing.Time([]string{"SOURCE_DATE_EPOCH=" + mcpserver.Epoch}, timing.Lane(b.bin, t.Dir, goal, mcpserver.Enough, "md", flags...)...)
				if err != nil {
					return err
				}
				t.Calls["cli/"+strings.TrimPrefix(flags[0], "--")] = append(t.Calls["cli/"+strings.TrimPrefix(flags[0], "--")], s)
			}
		}
		on, off := last(t.Calls["mcp/index"]), last(t.Calls["mcp/no-index"])
		fmt.Printf("  %d/%d: index %.3f s (%.2f CPU), no-index %.3f s (%.2f CPU)", i+1, len(t.Goals), on.Wall, on.CPU, off.Wall, off.CPU)
		if b.beside != "" {
			o := last(t.Calls["mcp/beside"])
			fmt.Printf(", beside %.3f s (%.2f CPU)", o.Wall, o.CPU)
		}
		fmt.Printf(": %.60q\n", goal)
	}
	return nil
}

func last(s []timing.Sample) timing.Sample { return s[len(s)-1] }

// besideServer is --beside's rtch-mcp on t with a copy of the index in
// ix (the two servers never share an index directory).
func (b *bench) besideServer(t *tree, ix string) (*server, error) {
	cp := ix + ".beside"
	os.RemoveAll(cp)
	if out, err := exec.Command("cp", "-r", ix, cp).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("copying the index: %v: %s", err, out)
	}
	sv, err := start(b.beside, t.Dir, "--index", cp)
	if err != nil {
		return nil, err
	}
	sv.name = "beside"
	return sv, nil
}

// server is one rtch-mcp under test, named by its index flag.
type server struct {
	*mcpserver.Server
	name string
}

func start(bin, root string, flags ...string) (*server, error) {
	s, err := mcpserver.Start(bin, root, flags...)
	if err != nil {
		return nil, err
	}
	sv := &server{s, strings.TrimPrefix(flags[0], "--")}
	if _, _, err := sv.Ask(warmGoal); err != nil {
		sv.Close()
		return nil, err
	}
	return sv, nil
}

// report prints, per tree and way of asking, the p50, p95 and max of the
// calls' wall and CPU time, and the slowest call over the median.
func report(trees []*tree) {
	fmt.Println("\n| tree | files | goals | asked by | p50 wall | p95 wall | max wall | max ÷ p50 | p50 CPU | max CPU | max ÷ p50 (CPU) | tool errors | slowest goal |")
	fmt.Println("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, t := range trees {
		ways := make([]string, 0, len(t.Calls))
		for w := range t.Calls {
			ways = append(ways, w)
		}
		sort.Strings(ways)
		for _, w := range ways {
			s := t.Calls[w]
			wall := func(p int) float64 { return timing.Percentile(s, timing.Wall, p) }
			cpu := func(p int) float64 { return timing.Percentile(s, timing.CPU, p) }
			slow := 0
			for i := range s {
				if s[i].Wall > s[slow].Wall {
					slow = i
				}
			}
			fmt.Printf("| %s | %d | %d | %s | %.3f | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f | %d | %.50q |\n", t.Name, t.Files, len(s), w,
				wall(50), wall(95), wall(100), wall(100)/wall(50), cpu(50), cpu(100), cpu(100)/max(cpu(50), 0.001),
				len(t.Failed[strings.TrimPrefix(w, "mcp/")]), t.Goals[slow])
		}
	}
}
