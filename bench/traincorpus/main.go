// Command traincorpus builds the ranking's training corpus from bug-fix
// commits of the repositories in ../shared/eval/train-repos.txt, and only
// those, with the rules of the evaluation sets: the commit message (its
// trailer block removed) is the intent, the parent's tree is the corpus, the
// modified non-test source files are the gold files, the base-side lines the
// fix touched their gold lines, and the definitions enclosing those lines
// the gold functions. The rules that make a commit a task are in rules.go
// and docs/decisions/ranker.md.
//
//	traincorpus select   --mirrors DIR [--per-repo N] [--pin ids.tsv] --out ids.tsv
//	traincorpus tasks    --mirrors DIR --ids ids.tsv --out tasks.jsonl
//	traincorpus features --mirrors DIR --tasks tasks.jsonl --out features.ndjson [--limit N] [--shard K/N]
//	traincorpus merge    --tasks tasks.jsonl --out features.ndjson SHARD.ndjson...
//	traincorpus siblings --mirrors DIR --tasks tasks.jsonl --out FILE [--skip N] [--langs ts,rust]
//
// select reads every repository's history from its head (or the head pinned
// in --pin) and writes the task list committed as bench/traincorpus/ids.tsv:
// repository, commit, parent and language, never a tree or a message. tasks
// rebuilds the full tasks from that list and the mirrors (the go-commits
// format plus "lang" and "gold_functions"). features runs the lane's first
// stages on each task's tree and writes the ranking features of every
// candidate file (see features.go); with --shard K/N it extracts every N-th
// task only, so N runs share the work, and merge puts their files together
// in the order one run writes. siblings picks the tasks where a gold file
// has a namesake in the tree, as an evaluation task file for bench/eval. Mirrors are bare repositories or clones
// laid out as OWNER+NAME/repo (the fetch tool's layout).
package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/rtch/rtch/bench/internal/trees"
	"os"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
)

const usage = `usage: traincorpus select|tasks|features|merge|siblings [flags]

  select    choose the tasks: --mirrors DIR --out ids.tsv [--per-repo N] [--pin ids.tsv]
            [--train-repos FILE] [--eval-dir DIR]
  tasks     expand a task list into tasks: --mirrors DIR --ids ids.tsv --out tasks.jsonl
  features  ranking features of every task's candidates: --mirrors DIR --tasks tasks.jsonl
            --out features.ndjson [--limit N] [--tmp DIR] [--timeout D] [--shard K/N]
  fnfeatures  the function ranking's features of every task's ranked definitions: --mirrors DIR
            --tasks tasks.jsonl --out fnfeatures.ndjson [--limit N] [--tmp DIR] [--timeout D] [--shard K/N]
  merge     features files of shards as one, in one run's order: --tasks tasks.jsonl
            --out features.ndjson SHARD.ndjson...
  siblings  an evaluation task file of tasks whose gold file has a namesake in the tree:
            --mirrors DIR --tasks tasks.jsonl --out FILE [--skip N] [--limit N] [--langs ts,rust]
`

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "select":
		err = cmdSelect(args[1:])
	case "tasks":
		err = cmdTasks(args[1:])
	case "features":
		err = cmdFeatures(args[1:])
	case "fnfeatures":
		err = cmdFnFeatures(args[1:])
	case "merge":
		err = cmdMerge(args[1:])
	case "siblings":
		err = cmdSiblings(args[1:])
	case "-h", "--help", "help":
		fmt.Print(usage)
		return 0
	default:
		err = usageError{fmt.Errorf("unknown command %q", args[0])}
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(os.Stderr, "traincorpus: error: %v\n", err)
		fmt.Fprintln(os.Stderr, "traincorpus: hint: traincorpus --help lists the commands and flags")
		return 2
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(os.Stderr, "traincorpus: interrupted")
		return 130
	default:
		fmt.Fprintf(os.Stderr, "traincorpus: error: %v\n", err)
		return 1
	}
}

// usageError is a bad command line or missing input (exit 2).
type usageError struct{ error }

func parse(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(new(strings.Builder))
	if err := fs.Parse(args); err != nil {
		return usageError{errors.New(strings.TrimSpace(strings.SplitN(err.Error(), "\n", 2)[0]))}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}

func cmdSelect(args []string) error {
	fs := flag.NewFlagSet("select", flag.ContinueOnError)
	repos := fs.String("train-repos", "../shared/eval/train-repos.txt", "")
	evalDir := fs.String("eval-dir", "../shared/eval", "")
	mirrors := fs.String("mirrors", "", "")
	perRepo := fs.Int("per-repo", 150, "")
	pin := fs.String("pin", "", "")
	out := fs.String("out", "", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *mirrors == "" || *out == "" || *perRepo < 1 {
		return usageError{errors.New("select needs --mirrors and --out, and --per-repo ≥ 1")}
	}
	specs, err := readTrainRepos(*repos)
	if err != nil {
		return usageError{err}
	}
	ev, err := evalRepos(*evalDir)
	if err != nil {
		return usageError{err}
	}
	heads := map[string]string{}
	if *pin != "" {
		l, err := readIDs(*pin)
		if err != nil {
			return usageError{err}
		}
		heads = l.Heads
	}
	l, err := selectTasks(selectOptions{Repos: specs, Mirrors: *mirrors, Eval: ev, PerRepo: *perRepo, Heads: heads, Log: os.Stderr})
	if err != nil {
		return err
	}
	p, err := atomicfile.Create(*out, 0o644)
	if err != nil {
		return err
	}
	defer p.Cleanup()
	if err := writeIDs(p, l); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "traincorpus: %d tasks from %d repositories\n", len(l.Tasks), len(l.Heads))
	return p.Commit()
}

func cmdTasks(args []string) error {
	fs := flag.NewFlagSet("tasks", flag.ContinueOnError)
	mirrors := fs.String("mirrors", "", "")
	ids := fs.String("ids", "", "")
	out := fs.String("out", "", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *mirrors == "" || *ids == "" || *out == "" {
		return usageError{errors.New("tasks needs --mirrors, --ids and --out")}
	}
	l, err := readIDs(*ids)
	if err != nil {
		return usageError{err}
	}
	p, err := atomicfile.Create(*out, 0o644)
	if err != nil {
		return err
	}
	defer p.Cleanup()
	byRepo := map[string][]taskID{}
	var order []string
	for _, t := range l.Tasks {
		if byRepo[t.Repo] == nil {
			order = append(order, t.Repo)
		}
		byRepo[t.Repo] = append(byRepo[t.Repo], t)
	}
	for _, r := range order {
		gitDir, err := trees.FindGitDir(*mirrors, r)
		if err != nil {
			return usageError{err}
		}
		if err := expandRepo(gitDir, byRepo[r], p); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "traincorpus: %s: %d tasks\n", r, len(byRepo[r]))
	}
	return p.Commit()
}
