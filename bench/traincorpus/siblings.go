package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/rtch/rtch/bench/internal/trees"
	"github.com/rtch/rtch/pkg/atomicfile"
)

// cmdSiblings writes an evaluation task file (the go-commits format) of
// tasks whose gold file has a namesake elsewhere in the parent's tree (a
// sibling crate's or package's file of the same name, or a copy): the
// tasks where copies and siblings can crowd out the source. It takes the
// tasks after the first --skip of the interleaved order (those a features
// run of that size trained on), of the languages in --langs, at most
// --limit per language, in that order.
func cmdSiblings(args []string) error {
	fs := flag.NewFlagSet("siblings", flag.ContinueOnError)
	mirrors := fs.String("mirrors", "", "")
	tasksFile := fs.String("tasks", "", "")
	out := fs.String("out", "", "")
	skip := fs.Int("skip", 0, "")
	limit := fs.Int("limit", 40, "")
	langs := fs.String("langs", "ts,rust", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *mirrors == "" || *tasksFile == "" || *out == "" || *skip < 0 || *limit < 1 {
		return usageError{errors.New("siblings needs --mirrors, --tasks and --out (--skip ≥ 0, --limit ≥ 1)")}
	}
	tasks, err := readTasks(*tasksFile)
	if err != nil {
		return usageError{err}
	}
	tasks = interleave(tasks)
	tasks = tasks[min(*skip, len(tasks)):]
	want := map[string]int{}
	for _, l := range strings.Split(*langs, ",") {
		want[l] = *limit
	}
	p, err := atomicfile.Create(*out, 0o644)
	if err != nil {
		return err
	}
	defer p.Cleanup()
	for _, t := range tasks {
		if want[t.Lang] == 0 {
			continue
		}
		gitDir, err := trees.FindGitDir(*mirrors, t.Repo)
		if err != nil {
			return usageError{err}
		}
		ok, err := hasNamesake(gitDir, t.Parent, t.GoldFiles)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		want[t.Lang]--
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		if _, err := p.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	for l, n := range want {
		if n > 0 {
			fmt.Fprintf(os.Stderr, "traincorpus: %s: %d tasks short of --limit\n", l, n)
		}
	}
	return p.Commit()
}

// hasNamesake reports whether another file of commit's tree has the name
// of one of the gold files.
func hasNamesake(gitDir, commit string, gold []string) (bool, error) {
	out, err := git(gitDir, "ls-tree", "-r", "--name-only", commit)
	if err != nil {
		return false, err
	}
	names := map[string]int{}
	for _, p := range strings.Split(string(out), "\n") {
		names[path.Base(p)]++
	}
	for _, g := range gold {
		if names[path.Base(g)] > 1 {
			return true, nil
		}
	}
	return false, nil
}
