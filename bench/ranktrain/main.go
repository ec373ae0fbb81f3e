// Command ranktrain trains and measures learned rankings on the features
// bench/traincorpus extracts from the training corpus.
//
//	ranktrain linear --features F --out model.json [--limit N] [--history]
//	                 (--history: a model over the history columns too, which
//	                 eval reads and the lane cannot use)
//	ranktrain cv     --features F [--folds 5] [--limit N] [--history] [--models DIR] [--json OUT]
//	ranktrain eval   --features F --model model.json
//	ranktrain pack   --model pkg/rank/model.json --out pkg/rank/model.bin
//
// linear fits the pairwise linear model (linear.go) on every task (the
// first N with --limit: the file's order is balanced across repositories)
// and writes it as a pkg/rank model file. cv is the cross-validation by
// repository: the repositories are dealt into folds (every language in
// each, folds below), each fold's tasks are ranked by models trained on
// the other folds' repositories only, and acc@k and MRR are reported per
// language beside the hand-written ranking's. The linear model is trained
// here; the gradient-boosted trees by train.py, which writes one model per
// fold into --models (DIR/fold-K.json, each naming the repositories it held
// out, checked against this fold's). eval scores one model file on a
// features file. pack writes a model file in the packed form the lane
// embeds (rank.Pack).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/rank"
)

const usage = `usage: ranktrain linear|cv|eval [flags]

  linear  --features F --out model.json [--limit N] [--history]   train the pairwise linear model
  cv      --features F [--folds 5] [--limit N] [--history] [--models DIR] [--json OUT]
          cross-validation by repository: classic, linear and DIR/fold-K.json models
  eval    --features F --model model.json              a model's acc@k and MRR
  pack    --model pkg/rank/model.json --out pkg/rank/model.bin   the packed form the lane embeds
`

func main() { os.Exit(run(os.Args[1:])) }

type usageError struct{ error }

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "linear":
		err = cmdLinear(args[1:])
	case "cv":
		err = cmdCV(args[1:])
	case "eval":
		err = cmdEval(args[1:])
	case "pack":
		err = cmdPack(args[1:])
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
		fmt.Fprintf(os.Stderr, "ranktrain: error: %v\n", err)
		fmt.Fprintln(os.Stderr, "ranktrain: hint: ranktrain --help lists the commands and flags")
		return 2
	default:
		fmt.Fprintf(os.Stderr, "ranktrain: error: %v\n", err)
		return 1
	}
}

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

// columns are the columns a model uses: the lane's features, and the
// history's with history.
func columns(ds *dataset, history bool) []int {
	n := ds.Lane
	if history {
		n = len(ds.Names)
	}
	cols := make([]int, n)
	for i := range cols {
		cols[i] = i
	}
	return cols
}

func load(file string, limit int) (*dataset, error) {
	if file == "" {
		return nil, usageError{errors.New("--features is required")}
	}
	if limit < 0 {
		return nil, usageError{errors.New("--limit must be at least 0")}
	}
	ds, err := readDataset(file, limit)
	if err != nil {
		return nil, usageError{err}
	}
	return ds, nil
}

func cmdLinear(args []string) error {
	fs := flag.NewFlagSet("linear", flag.ContinueOnError)
	features := fs.String("features", "", "")
	out := fs.String("out", "", "")
	history := fs.Bool("history", false, "")
	limit := fs.Int("limit", 0, "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError{errors.New("--out is required")}
	}
	ds, err := load(*features, *limit)
	if err != nil {
		return err
	}
	if !ds.Current {
		return usageError{fmt.Errorf("%s: a model needs this build's features (rank.FeatureNames): extract them again", *features)}
	}
	o := defaultLinear
	o.Cols = columns(ds, *history)
	m := trainLinear(ds.Queries, ds.Names, o)
	m.Trained = fmt.Sprintf("pairwise linear, %d tasks of %d repositories", len(ds.Queries), len(repos(ds.Queries)))
	if *history {
		// The lane computes no history column: rank.LoadModel refuses
		// this model, ranktrain eval reads it.
		m.Trained += ", with the history columns (for ranktrain eval, not the lane)"
	}
	return writeModel(*out, m)
}

func writeModel(file string, m *rank.Model) error {
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(file, append(b, '\n'), 0o644)
}

func repos(qs []query) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.Repo)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func cmdEval(args []string) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	features := fs.String("features", "", "")
	model := fs.String("model", "", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	ds, err := load(*features, 0)
	if err != nil {
		return err
	}
	m, err := readModel(*model, ds)
	if err != nil {
		return err
	}
	outs := map[string][]outcome{}
	for _, q := range ds.Queries {
		outs["classic"] = append(outs["classic"], score(q, classicScores(q)))
		outs["model"] = append(outs["model"], score(q, modelScores(m, q)))
	}
	table(os.Stdout, ds.Queries, []string{"classic", "model"}, outs)
	return nil
}

func readModel(file string, ds *dataset) (*rank.Model, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, usageError{err}
	}
	m, err := rank.LoadModelOver(data, ds.Names)
	if err != nil {
		return nil, usageError{fmt.Errorf("%s: %v", file, err)}
	}
	return m, nil
}

// classicScores keep the hand-written order.
func classicScores(q query) []float64 {
	s := make([]float64, len(q.Rows))
	for i := range s {
		s[i] = -float64(i)
	}
	return s
}

func modelScores(m *rank.Model, q query) []float64 {
	s := make([]float64, len(q.Rows))
	for i, r := range q.Rows {
		if i < m.Pool {
			s[i] = m.Score(r)
		} else {
			s[i] = -1e300 - float64(i) // beyond the pool: the hand-written order, below it
		}
	}
	return s
}

func cmdCV(args []string) error {
	fs := flag.NewFlagSet("cv", flag.ContinueOnError)
	features := fs.String("features", "", "")
	k := fs.Int("folds", 5, "")
	history := fs.Bool("history", false, "")
	models := fs.String("models", "", "")
	jsonOut := fs.String("json", "", "")
	limit := fs.Int("limit", 0, "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *k < 2 {
		return usageError{errors.New("--folds must be at least 2")}
	}
	ds, err := load(*features, *limit)
	if err != nil {
		return err
	}
	fold := folds(ds.Queries, *k)
	names := []string{"classic", "linear"}
	outs := map[string][]outcome{}
	for _, n := range names {
		outs[n] = make([]outcome, len(ds.Queries))
	}
	var fm []*rank.Model
	if *models != "" {
		names = append(names, "trees")
		outs["trees"] = make([]outcome, len(ds.Queries))
		for f := range *k {
			m, err := readFoldModel(*models, f, fold, ds)
			if err != nil {
				return err
			}
			fm = append(fm, m)
		}
	}
	for f := range *k {
		var train []query
		for _, q := range ds.Queries {
			if fold[q.Repo] != f {
				train = append(train, q)
			}
		}
		o := defaultLinear
		o.Cols = columns(ds, *history)
		lin := trainLinear(train, ds.Names, o)
		for i, q := range ds.Queries {
			if fold[q.Repo] != f {
				continue
			}
			outs["classic"][i] = score(q, classicScores(q))
			outs["linear"][i] = score(q, modelScores(lin, q))
			if fm != nil {
				outs["trees"][i] = score(q, modelScores(fm[f], q))
			}
		}
		fmt.Fprintf(os.Stderr, "ranktrain: fold %d of %d: %d training tasks, held out %s\n", f+1, *k, len(train), strings.Join(foldRepos(fold, f), " "))
	}
	fmt.Printf("Cross-validation by repository: %d tasks of %d repositories in %d folds (%d tasks without candidates left out)\n\n",
		len(ds.Queries), len(fold), *k, ds.Errors)
	table(os.Stdout, ds.Queries, names, outs)
	if *jsonOut != "" {
		return writeCV(*jsonOut, ds.Queries, names, outs)
	}
	return nil
}

func foldRepos(fold map[string]int, f int) []string {
	var out []string
	for r, g := range fold {
		if g == f {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// readFoldModel reads DIR/fold-F.json and checks that it held out exactly
// this fold's repositories ("held out: a/b c/d" in its trained note).
func readFoldModel(dir string, f int, fold map[string]int, ds *dataset) (*rank.Model, error) {
	file := filepath.Join(dir, fmt.Sprintf("fold-%d.json", f))
	m, err := readModel(file, ds)
	if err != nil {
		return nil, err
	}
	want := "held out: " + strings.Join(foldRepos(fold, f), " ")
	if !strings.Contains(m.Trained, want) {
		return nil, fmt.Errorf("%s was not trained without this fold's repositories (want %q in its note)", file, want)
	}
	return m, nil
}

func writeCV(file string, qs []query, names []string, outs map[string][]outcome) error {
	type row struct {
		ID   string             `json:"id"`
		Lang string             `json:"lang"`
		RR   map[string]float64 `json:"rr"`
	}
	var rows []row
	for i, q := range qs {
		r := row{ID: q.ID, Lang: q.Lang, RR: map[string]float64{}}
		for _, n := range names {
			r.RR[n] = outs[n][i].rr
		}
		rows = append(rows, r)
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(file, b, 0o644)
}

func cmdPack(args []string) error {
	fs := flag.NewFlagSet("pack", flag.ContinueOnError)
	model := fs.String("model", "", "")
	out := fs.String("out", "", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *model == "" || *out == "" {
		return usageError{errors.New("pack needs --model and --out")}
	}
	data, err := os.ReadFile(*model)
	if err != nil {
		return usageError{err}
	}
	m, err := rank.LoadModel(data)
	if err != nil {
		return usageError{fmt.Errorf("%s: %v", *model, err)}
	}
	b, err := rank.Pack(m)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(*out, b, 0o644)
}
