// Command lanebench measures issue 17's four ratios of the whole lane
// (rtch-intake | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate |
// rtch-packet, the goal made of the twelve terms) beside
// `rg -c -i` over the same terms, in alternating rounds on one tree:
//
//	rg      rg -c -i -e command … -e token ROOT
//	cold    the lane with --no-index
//	build   the lane with --index on an empty index directory (it builds it)
//	warm    the lane with --index on the index built before the rounds
//	edit    one file of a copy of the tree edited (a comment line appended),
//	        then the lane with --index on the copy's index
//
// Each run is timed by /usr/bin/time; it prints every round, the medians,
// the median of each case's per-round ratio to rg, the index's size, and
// checks that the warm and edited lanes' packets are byte-identical to the
// --no-index lane's on the same tree.
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/lanebench --bin /tmp/b --root "$(go env GOROOT)/src" --edit fmt/print.go --rounds 10
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rtch/rtch/bench/internal/timing"
)

const epoch = "SOURCE_DATE_EPOCH=1767225600"

func main() {
	bin := flag.String("bin", "", "directory of the built binaries")
	root := flag.String("root", "", "the tree")
	edit := flag.String("edit", "", "a text file of the tree, relative to it, edited before each edit-case run")
	rounds := flag.Int("rounds", 10, "alternating rounds")
	work := flag.String("work", "", "directory for the indexes and the tree's copy (default a fresh temporary, removed at the end)")
	flag.Parse()
	if *bin == "" || *root == "" || *edit == "" {
		fmt.Fprintln(os.Stderr, "usage: lanebench --bin DIR --root TREE --edit REL [--rounds N] [--work DIR]")
		os.Exit(2)
	}
	if err := run(*bin, *root, *edit, *rounds, *work); err != nil {
		fmt.Fprintln(os.Stderr, "lanebench:", err)
		os.Exit(1)
	}
}

// bench is one measurement's fixed parts.
type bench struct {
	bin, root, copy string
	edit            string // the edited file, in the copy
	warm, edited    string // index directories built before the rounds
	build           string // the index directory each build run starts empty
}

// kase is one timed case: how it is run, and the target ratio it answers to.
type kase struct {
	name, target string
	prepare      func() error
	lane         func() []string
	runs         []timing.Sample
}

func run(bin, root, edit string, rounds int, work string) error {
	b, cleanup, err := setUp(bin, root, edit, work)
	if err != nil {
		return err
	}
	defer cleanup()
	cases := b.cases()
	for r := range rounds {
		fmt.Printf("round %d:", r+1)
		for _, c := range cases {
			if c.prepare != nil {
				if err := c.prepare(); err != nil {
					return err
				}
			}
			s, err := timing.Time([]string{epoch}, c.lane()...)
			if err != nil {
				return err
			}
			c.runs = append(c.runs, s)
			fmt.Printf(" %s %.3f s (%.2f CPU)", c.name, s.Wall, s.CPU)
		}
		fmt.Println()
	}
	report(cases)
	if fi, err := os.Stat(filepath.Join(b.warm, "index")); err == nil {
		fmt.Printf("\nindex: %.1f MB\n", float64(fi.Size())/1e6)
	}
	return b.check()
}

// setUp copies the tree (so the edits leave the warm case's tree alone)
// and builds the warm and edit cases' indexes.
func setUp(bin, root, edit, work string) (*bench, func(), error) {
	cleanup := func() {}
	if work == "" {
		d, err := os.MkdirTemp("", "lanebench-")
		if err != nil {
			return nil, nil, err
		}
		work, cleanup = d, func() { os.RemoveAll(d) }
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, nil, fmt.Errorf("--work: %v", err)
	}
	b := &bench{bin: bin, root: root, copy: filepath.Join(work, "tree"),
		warm: filepath.Join(work, "ix-warm"), edited: filepath.Join(work, "ix-edit"), build: filepath.Join(work, "ix-build")}
	b.edit = filepath.Join(b.copy, edit)
	if _, err := os.Stat(filepath.Join(root, edit)); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("--edit: %v", err)
	}
	if out, err := exec.Command("cp", "-a", root, b.copy).CombinedOutput(); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("copying %s: %v: %s", root, err, bytes.TrimSpace(out))
	}
	for _, s := range [][2]string{{root, b.warm}, {b.copy, b.edited}} {
		if _, err := b.output(s[0], "--index", s[1]); err != nil {
			cleanup()
			return nil, nil, err
		}
	}
	return b, cleanup, nil
}

func (b *bench) cases() []*kase {
	return []*kase{
		{name: "rg", lane: func() []string { return timing.RipgrepArgs(b.root) }},
		{name: "cold", target: "≤ 1.5", lane: func() []string { return b.lane(b.root, "--no-index") }},
		{name: "build", target: "≤ 2.5", prepare: func() error { return os.RemoveAll(b.build) },
			lane: func() []string { return b.lane(b.root, "--index", b.build) }},
		{name: "warm", target: "≤ 0.5", lane: func() []string { return b.lane(b.root, "--index", b.warm) }},
		{name: "edit", target: "≤ 0.5", prepare: b.touch, lane: func() []string { return b.lane(b.copy, "--index", b.edited) }},
	}
}

// lane is the whole lane over tree as a bash pipeline, flags given to
// rtch-scout and rtch-probe.
func (b *bench) lane(tree string, flags ...string) []string {
	f := strings.Join(flags, " ")
	p := func(tool string) string { return filepath.Join(b.bin, tool) }
	script := fmt.Sprintf(`set -o pipefail; cd %q && %s -q --goal %q --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "the bench is done" | %s -q | %s -q --no-timing %s | %s -q %s | %s -q | %s -q`,
		tree, p("rtch-intake"), timing.Goal(), p("rtch-zone"), p("rtch-scout"), f, p("rtch-probe"), f, p("rtch-hydrate"), p("rtch-packet"))
	return []string{"bash", "-c", script}
}

// touch appends a comment line to the edited file.
func (b *bench) touch() error {
	f, err := os.OpenFile(b.edit, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "\n// edited by lanebench\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// output is the lane's packet on tree.
func (b *bench) output(tree string, flags ...string) ([]byte, error) {
	argv := b.lane(tree, flags...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), epoch)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("lane on %s %v: %v: %s", tree, flags, err, stderr.String())
	}
	return out, nil
}

// check compares the indexed lanes' packets with the --no-index lane's.
func (b *bench) check() error {
	for _, s := range [][2]string{{b.root, b.warm}, {b.copy, b.edited}} {
		want, err := b.output(s[0], "--no-index")
		if err != nil {
			return err
		}
		got, err := b.output(s[0], "--index", s[1])
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("the packet on %s with --index %s differs from --no-index (%d and %d bytes)", s[0], s[1], len(got), len(want))
		}
	}
	fmt.Println("packets: the warm and edited lanes are byte-identical to --no-index")
	return nil
}

func report(cases []*kase) {
	rg := cases[0].runs
	fmt.Println("\n| case | median wall | median CPU | median max RSS | wall ÷ rg (pair median) | CPU ÷ rg (pair median) | target |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---|")
	for _, c := range cases {
		fmt.Printf("| %s | %.3f s | %.3f s | %.1f MB | %.2f | %.2f | %s |\n", c.name,
			timing.Median(c.runs, timing.Wall), timing.Median(c.runs, timing.CPU), timing.Median(c.runs, timing.RSS),
			timing.PairRatio(c.runs, rg, timing.Wall), timing.PairRatio(c.runs, rg, timing.CPU), c.target)
	}
}
