package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/fnrank"
	"github.com/rtch/rtch/pkg/rank"
)

// shard is the part K of N a features run extracts (--shard K/N): the
// tasks whose place in the interleaved list is K modulo N, so that N runs
// share the work and `traincorpus merge` puts their lines back in the
// order one run writes them.
type shard struct{ k, n int }

// parseShard reads K/N (0 ≤ K < N); "" is the whole list.
func parseShard(s string) (shard, error) {
	if s == "" {
		return shard{0, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return shard{}, fmt.Errorf("--shard %q: want K/N with 0 ≤ K < N", s)
	}
	return shard{k, n}, nil
}

// of keeps the shard's tasks, in their order.
func (s shard) of(tasks []task) []task {
	if s.n == 1 {
		return tasks
	}
	var out []task
	for i, t := range tasks {
		if i%s.n == s.k {
			out = append(out, t)
		}
	}
	return out
}

// cmdMerge writes the lines of features files written by shards (or by
// any runs over the same tasks) as one file, in the order one unsharded
// run writes them: the interleaved task order. A task in two files keeps
// its first line; a last line cut short by a run still writing is left
// out; a line of a task the tasks file does not hold is an error.
func cmdMerge(args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	tasksFile := fs.String("tasks", "", "")
	out := fs.String("out", "", "")
	fs.SetOutput(new(strings.Builder))
	if err := fs.Parse(args); err != nil {
		return usageError{errors.New(strings.TrimSpace(strings.SplitN(err.Error(), "\n", 2)[0]))}
	}
	if *tasksFile == "" || *out == "" || fs.NArg() == 0 {
		return usageError{errors.New("merge needs --tasks, --out and at least one features file")}
	}
	tasks, err := readTasks(*tasksFile)
	if err != nil {
		return usageError{err}
	}
	known := map[string]bool{}
	for _, t := range tasks {
		known[taskKey(t)] = true
	}
	// The first file's header says which features the files hold: the
	// file ranking's (features) or the function ranking's (fnfeatures).
	var header any = featureHeader{Kind: "traincorpus.features", Names: rank.FeatureNames, History: historyNames}
	check := checkHeader
	if fnFile(fs.Arg(0)) {
		header, check = fnHeader{Kind: fnKind, Names: fnrank.FeatureNames}, checkFnHeader
	}
	lines := map[string]string{}
	for _, in := range fs.Args() {
		if err := readShard(in, known, lines, check); err != nil {
			return err
		}
	}
	p, err := atomicfile.Create(*out, 0o644)
	if err != nil {
		return err
	}
	defer p.Cleanup()
	if err := writeLine(p, header); err != nil {
		return err
	}
	for _, t := range interleave(tasks) {
		if l, ok := lines[taskKey(t)]; ok {
			if _, err := io.WriteString(p, l+"\n"); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(os.Stderr, "traincorpus: %d of %d tasks merged\n", len(lines), len(tasks))
	return p.Commit()
}

// readShard adds the complete task lines of a features file to lines.
func readShard(file string, known map[string]bool, lines map[string]string, check func(file, line string) error) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return usageError{err}
	}
	text := string(data)
	text = text[:strings.LastIndexByte(text, '\n')+1] // a line still being written is not taken
	all := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		return fmt.Errorf("%s:1: not a features file", file)
	}
	if err := check(file, all[0]); err != nil {
		return err
	}
	for i, l := range all[1:] {
		id, err := lineID(file, i+2, l)
		if err != nil {
			return err
		}
		if !known[id] {
			return fmt.Errorf("%s:%d: task %s is not in the tasks file", file, i+2, id)
		}
		if _, ok := lines[id]; !ok {
			lines[id] = l
		}
	}
	return nil
}

// fnFile reports whether file begins with a function features header.
func fnFile(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	var h struct {
		Kind string `json:"kind"`
	}
	return json.NewDecoder(f).Decode(&h) == nil && h.Kind == fnKind
}
