// Command scale measures how the lane, the index and the server grow with
// the tree (issue 40, items 3, 4 and 6): for 1, 4 and 16 copies of a tree
// side by side in one directory it measures, each beside `rg -c -i` over
// the same terms in the same run,
//
//	cold     the piped lane with --no-index, alternating with rg
//	build    the piped lane with --index on an empty index directory: its
//	         time, max RSS (/usr/bin/time) and the index's size on disk
//	first    rtch-mcp started with an empty index directory and asked at
//	         once (the build runs in the background, the call reads the
//	         tree without it), then how long until the index is saved and
//	         the server's peak resident size meanwhile
//	new      new questions to the server once the index is built (the
//	         twelve terms and one more word, another each time),
//	         alternating with rg: p50 and p95
//	rss      the server's resident size after the questions
//
// and checks that the first call's brief and a later call's with the same
// goal are byte-identical.
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/scale --bin /tmp/b --root "$(go env GOROOT)/src" --copies 1,4,16 --work /tmp/scale
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rtch/rtch/bench/internal/mcpserver"
	"github.com/rtch/rtch/bench/internal/timing"
)

func main() {
	bin := flag.String("bin", "", "directory of the built binaries")
	root := flag.String("root", "", "the tree to copy")
	copies := flag.String("copies", "1,4,16", "comma-separated numbers of copies")
	rounds := flag.Int("rounds", 5, "alternating rounds of rg and the cold lane")
	builds := flag.Int("builds", 1, "index builds per tree")
	questions := flag.Int("questions", 12, "new questions to the server per tree")
	work := flag.String("work", "", "directory for the copies and indexes (default a fresh temporary, removed at the end)")
	out := flag.String("json", "", "write the figures to this file")
	flag.Parse()
	if *bin == "" || *root == "" {
		fmt.Fprintln(os.Stderr, "usage: scale --bin DIR --root TREE [--copies 1,4,16] [--rounds N] [--builds N] [--questions N] [--work DIR] [--json OUT]")
		os.Exit(2)
	}
	var ns []int
	for _, f := range strings.Split(*copies, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "scale: --copies %q: want positive counts\n", *copies)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	s := &scale{bin: *bin, root: *root, rounds: *rounds, builds: *builds, questions: *questions}
	if err := s.run(ns, *work, *out); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

type scale struct {
	bin, root                 string
	rounds, builds, questions int
	work                      string
}

// result is one tree's figures.
type result struct {
	Copies int `json:"copies"`
	Files  int `json:"files"`
	// Rg, Cold and First (first calls to a server started on an empty
	// index directory) alternate; RgBuild and RgNew are rg beside the
	// builds and the new questions.
	Rg, Cold, First, Build, RgBuild []timing.Sample
	IndexMB                         float64
	ReadyAfter                      float64 // seconds from the server's start until the index was saved
	PeakMB                          float64 // the server's VmHWM once the index is built
	New, RgNew                      []timing.Sample
	RSSAfterMB, PeakAfterMB         float64
	// ToolErrors counts the calls answered with a tool error (timed all
	// the same: the call ran).
	ToolErrors int
}

// ask is one call to sv, timed; a tool error is an answer (its text the
// brief), counted in r.
func ask(sv *mcpserver.Server, goal string, r *result) (timing.Sample, string, error) {
	x, brief, err := sv.Ask(goal)
	var te *mcpserver.ToolError
	if errors.As(err, &te) {
		r.ToolErrors++
		fmt.Printf("  %v\n", err)
		return x, brief, nil
	}
	return x, brief, err
}

func (s *scale) run(ns []int, work, out string) error {
	if work == "" {
		d, err := os.MkdirTemp("", "scale-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		work = d
	}
	s.work = work
	var rs []*result
	for _, n := range ns {
		tree, err := s.copies(n)
		if err != nil {
			return err
		}
		r := &result{Copies: n, Files: timing.Files(tree)}
		fmt.Printf("%dx: %s, %d files\n", n, tree, r.Files)
		if err := s.measure(tree, r); err != nil {
			return fmt.Errorf("%dx: %v", n, err)
		}
		rs = append(rs, r)
		if n > 1 {
			os.RemoveAll(tree)
		}
	}
	report(rs)
	if out == "" {
		return nil
	}
	b, err := json.MarshalIndent(rs, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}

// copies is the tree itself (n 1) or a directory of n copies of it.
func (s *scale) copies(n int) (string, error) {
	if n == 1 {
		return s.root, nil
	}
	dir := filepath.Join(s.work, fmt.Sprintf("x%d", n))
	os.RemoveAll(dir)
	for i := range n {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		if out, err := exec.Command("cp", "-a", s.root, filepath.Join(dir, fmt.Sprintf("copy%02d", i))).CombinedOutput(); err != nil {
			return "", fmt.Errorf("cp: %v: %s", err, out)
		}
	}
	return dir, nil
}

func (s *scale) measure(tree string, r *result) error {
	env := []string{"SOURCE_DATE_EPOCH=" + mcpserver.Epoch}
	rg := func(into *[]timing.Sample) error {
		x, err := timing.Time(nil, timing.RipgrepArgs(tree)...)
		*into = append(*into, x)
		return err
	}
	for range s.rounds {
		if err := rg(&r.Rg); err != nil {
			return err
		}
		c, err := timing.Time(env, timing.Lane(s.bin, tree, timing.Goal(), mcpserver.Enough, "md", "--no-index")...)
		if err != nil {
			return err
		}
		r.Cold = append(r.Cold, c)
		f, err := s.firstCall(tree, r)
		if err != nil {
			return err
		}
		r.First = append(r.First, f)
		fmt.Printf("  rg %.3f s (%.2f CPU), cold lane %.3f s (%.2f CPU), server first call %.3f s (%.2f CPU)\n",
			last(r.Rg).Wall, last(r.Rg).CPU, c.Wall, c.CPU, f.Wall, f.CPU)
	}
	ix := filepath.Join(s.work, "ix-build")
	for range s.builds {
		os.RemoveAll(ix)
		if err := rg(&r.RgBuild); err != nil {
			return err
		}
		b, err := timing.Time(env, timing.Lane(s.bin, tree, timing.Goal(), mcpserver.Enough, "md", "--index", ix)...)
		if err != nil {
			return err
		}
		r.Build = append(r.Build, b)
		fi, err := os.Stat(filepath.Join(ix, "index"))
		if err != nil {
			return err
		}
		r.IndexMB = float64(fi.Size()) / 1e6
		fmt.Printf("  build %.3f s (%.2f CPU, %.0f MB max RSS), index %.1f MB\n", b.Wall, b.CPU, b.RSS, r.IndexMB)
	}
	os.RemoveAll(ix)
	return s.server(tree, r)
}

// firstCall is the first question to a server started on an empty index
// directory, asked at once; the server is stopped after it.
func (s *scale) firstCall(tree string, r *result) (timing.Sample, error) {
	ix := filepath.Join(s.work, "ix-first")
	os.RemoveAll(ix)
	defer os.RemoveAll(ix)
	sv, err := mcpserver.Start(s.bin, tree, "--index", ix)
	if err != nil {
		return timing.Sample{}, err
	}
	defer sv.Close()
	x, _, err := ask(sv, timing.Goal(), r)
	return x, err
}

// server measures the background build, then new questions once the
// index is saved; the first call's brief (read without the index) must be
// the one a call gives with it.
func (s *scale) server(tree string, r *result) error {
	ix := filepath.Join(s.work, "ix-server")
	os.RemoveAll(ix)
	defer os.RemoveAll(ix)
	sv, err := mcpserver.Start(s.bin, tree, "--index", ix, "--no-memo")
	if err != nil {
		return err
	}
	defer sv.Close()
	_, brief, err := ask(sv, timing.Goal(), r)
	if err != nil {
		return err
	}
	for {
		if _, err := os.Stat(filepath.Join(ix, "index")); err == nil {
			break
		}
		if time.Since(sv.Started) > time.Hour {
			return fmt.Errorf("no index an hour after the server started")
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.ReadyAfter = time.Since(sv.Started).Seconds()
	again, brief2, err := ask(sv, timing.Goal(), r)
	if err != nil {
		return err
	}
	if brief2 != brief {
		return fmt.Errorf("the brief after the index was built differs from the first call's (%d and %d bytes)", len(brief2), len(brief))
	}
	if r.PeakMB, _, err = sv.Memory(); err != nil {
		return err
	}
	fmt.Printf("  index saved %.1f s after the start (peak %.0f MB); the same question again %.3f s (%.2f CPU), same brief\n",
		r.ReadyAfter, r.PeakMB, again.Wall, again.CPU)
	for i := range s.questions {
		x, err := timing.Time(nil, timing.RipgrepArgs(tree)...)
		if err != nil {
			return err
		}
		r.RgNew = append(r.RgNew, x)
		q, _, err := ask(sv, timing.Goal()+" "+extraWords[i%len(extraWords)], r)
		if err != nil {
			return err
		}
		r.New = append(r.New, q)
		fmt.Printf("  new question %d: %.3f s (%.2f CPU); rg %.3f s (%.2f CPU)\n", i+1, q.Wall, q.CPU, x.Wall, x.CPU)
	}
	r.PeakAfterMB, r.RSSAfterMB, err = sv.Memory()
	return err
}

// extraWords make the new questions, words GOROOT/src holds.
var extraWords = strings.Fields("mutex socket parser cache timer channel signal deadline cookie header proxy cipher certificate compress decode encode hash random sort heap ring list template json")

func last(s []timing.Sample) timing.Sample { return s[len(s)-1] }

func report(rs []*result) {
	med := timing.Median
	fmt.Println("\n| tree | files | rg wall / CPU | cold lane wall / CPU (÷ rg, pair medians) | index build wall / CPU, max RSS, size | server first call wall / CPU (÷ cold lane, pair medians) | index saved after | new question p50 / p95 wall, p50 CPU (÷ rg CPU) | server RSS after (peak) | tool errors |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		fmt.Printf("| %dx | %d | %.2f / %.2f s | %.2f / %.2f s (%.2f / %.2f) | %.1f / %.1f s, %.0f MB, %.0f MB | %.2f / %.2f s (%.2f / %.2f) | %.1f s | %.2f / %.2f s, %.2f s (%.2f) | %.0f MB (%.0f MB) | %d |\n",
			r.Copies, r.Files, med(r.Rg, timing.Wall), med(r.Rg, timing.CPU),
			med(r.Cold, timing.Wall), med(r.Cold, timing.CPU), timing.PairRatio(r.Cold, r.Rg, timing.Wall), timing.PairRatio(r.Cold, r.Rg, timing.CPU),
			med(r.Build, timing.Wall), med(r.Build, timing.CPU), med(r.Build, timing.RSS), r.IndexMB,
			med(r.First, timing.Wall), med(r.First, timing.CPU), timing.PairRatio(r.First, r.Cold, timing.Wall), timing.PairRatio(r.First, r.Cold, timing.CPU), r.ReadyAfter,
			timing.Percentile(r.New, timing.Wall, 50), timing.Percentile(r.New, timing.Wall, 95), timing.Percentile(r.New, timing.CPU, 50), timing.PairRatio(r.New, r.RgNew, timing.CPU),
			r.RSSAfterMB, r.PeakAfterMB, r.ToolErrors)
	}
}
