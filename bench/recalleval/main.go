// Command recalleval measures how well guild-recall finds the page that
// answers a question, on public documentation trees turned into guild
// wikis (docs/bench/recall.md).
//
// The pairs (pairs.jsonl) are built mechanically from the trees: an FAQ
// entry, or a heading that asks a question, and the first page of the tree
// its answer links to (buildPairs). Each tree is read from a git mirror at
// a fixed commit (sources.go) and written as a guild project; every
// question is then asked of each backend (file-bm25, sqlite, postgres,
// through pkg/recall with the mechanism forced) and of plain BM25 over
// whole pages in the same run, and recall@1, recall@5 and MRR of the gold
// page are reported for all pairs, for the tuning split and for the
// held-out sources.
//
//	go run ./bench/recalleval --repos /work/.mirror                 # evaluate
//	go run ./bench/recalleval --repos /work/.mirror --write-pairs bench/recalleval/pairs.jsonl
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "recalleval: error:", err)
		var ue usageError
		switch {
		case errors.As(err, &ue):
			os.Exit(2)
		case ctx.Err() != nil:
			os.Exit(130)
		}
		os.Exit(1)
	}
}

// usageError is a problem with the command line or its inputs (exit 2).
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("recalleval", flag.ContinueOnError)
	repos := fs.String("repos", "", "`DIR` holding the git mirrors of the sources (OWNER+NAME/repo, OWNER/NAME.git, …) (required)")
	pairsPath := fs.String("pairs", "bench/recalleval/pairs.jsonl", "the pair list `FILE`")
	work := fs.String("work", filepath.Join(os.TempDir(), "recalleval"), "`DIR` for the wikis built from the sources")
	systems := fs.String("systems", "", "comma-separated `LIST` of systems (default: "+strings.Join(allSystems, ",")+", postgres only with a DSN)")
	dsn := fs.String("dsn", os.Getenv(pgtest.EnvDSN), "admin `DSN` of a PostgreSQL server for the postgres backend (default $"+pgtest.EnvDSN+"); a database is created and dropped")
	only := fs.String("source", "", "only the sources whose repository contains `TEXT`")
	jsonOut := fs.String("json", "", "also write every question's answers to `FILE`")
	writePairs := fs.String("write-pairs", "", "build the pair list from the sources into `FILE` instead of evaluating")
	fetch := fs.Bool("fetch", false, "fetch every missing source's commit from its public repository ("+publicBase+"/OWNER/NAME) into --repos")
	floorOut := fs.Bool("floor", false, "measure the floor of the lexical design (what the questions share with their gold pages, variants of the ranking on the tuning split) instead of the systems")
	fetchFrom := fs.String("fetch-from", publicBase, "`URL` the repositories are fetched from with --fetch (OWNER/NAME is appended)")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if *repos == "" {
		return usageError{errors.New("--repos is required (a directory of git mirrors; see docs/bench/recall.md)")}
	}
	if *writePairs != "" {
		return buildPairList(ctx, *repos, *writePairs)
	}
	pairs, err := readPairs(*pairsPath)
	if err != nil {
		return usageError{err}
	}
	if *only != "" {
		pairs = filterPairs(pairs, *only)
	}
	cfg := runConfig{repos: *repos, work: *work, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	switch {
	case *systems != "":
		cfg.systems = strings.Split(*systems, ",")
	case *dsn != "":
		cfg.systems = allSystems
	default:
		cfg.systems = without(allSystems, sysPostgres)
		fmt.Fprintln(os.Stderr, "recalleval: warning: no --dsn and no $"+pgtest.EnvDSN+": the postgres backend is left out")
	}
	for _, s := range cfg.systems {
		if !slices.Contains(allSystems, s) {
			return usageError{fmt.Errorf("unknown system %q in --systems (known: %s)", s, strings.Join(allSystems, ", "))}
		}
	}
	if slices.Contains(cfg.systems, sysPostgres) && !*floorOut {
		if *dsn == "" {
			return usageError{errors.New("the postgres backend needs --dsn or $" + pgtest.EnvDSN + " (or leave postgres out of --systems)")}
		}
		db, drop, err := pgtest.NewDatabase(ctx, *dsn)
		if err != nil {
			return err
		}
		defer drop()
		cfg.dsn = db
	}
	if *fetch {
		if err := fetchMissing(ctx, *repos, *fetchFrom, pairs, func(s string) { fmt.Fprintln(os.Stderr, "recalleval:", s) }); err != nil {
			return err
		}
	}
	if err := checkMirrors(*repos, pairs); err != nil {
		return usageError{err}
	}
	if *floorOut {
		return floor(ctx, cfg, pairs, os.Stdout, func(s string) { fmt.Fprintln(os.Stderr, "recalleval:", s) })
	}
	start := time.Now()
	outs, err := evaluate(ctx, cfg, pairs, func(s string) { fmt.Fprintln(os.Stderr, "recalleval:", s) })
	if err != nil {
		return err
	}
	fmt.Printf("## guild-recall on %d documentation questions\n", len(outs))
	printReport(os.Stdout, outs, cfg.systems)
	fmt.Fprintf(os.Stderr, "recalleval: %d questions in %.1f s\n", len(outs), time.Since(start).Seconds())
	if *jsonOut != "" {
		return writeJSONL(*jsonOut, outs)
	}
	return nil
}

// checkMirrors makes sure every source of the pairs has a git directory
// under repos, and names every missing one with the command that gets it.
func checkMirrors(repos string, pairs []pair) error {
	var missing []string
	for _, g := range groupBySource(pairs) {
		if _, err := gitDir(repos, g[0].Repo); err != nil {
			missing = append(missing, err.Error())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%d of the sources are missing (--fetch gets them from %s):\n%s", len(missing), publicBase, strings.Join(missing, "\n"))
	}
	return nil
}

func filterPairs(ps []pair, text string) []pair {
	var out []pair
	for _, p := range ps {
		if strings.Contains(p.Repo, text) {
			out = append(out, p)
		}
	}
	return out
}

// buildPairList writes the pairs of every source, one JSON object a line.
func buildPairList(ctx context.Context, repos, path string) error {
	var all []any
	for _, src := range sources {
		pages, err := readTree(ctx, repos, src)
		if err != nil {
			return err
		}
		ps := buildPairs(src, pages)
		fmt.Fprintf(os.Stderr, "recalleval: %s: %d pages, %d pairs (%s)\n", src.Repo, len(pages), len(ps), splitOf(src))
		for _, p := range ps {
			all = append(all, p)
		}
	}
	fmt.Fprintf(os.Stderr, "recalleval: %d pairs\n", len(all))
	return writeJSONL(path, all)
}

func splitOf(s source) string {
	if s.heldOut() {
		return "heldout"
	}
	return "tune"
}

func readPairs(path string) ([]pair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []pair
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var p pair
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no pairs", path)
	}
	return out, nil
}

// writeJSONL writes one JSON object a line, atomically.
func writeJSONL[T any](path string, xs []T) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, x := range xs {
		if err := enc.Encode(x); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(path, b.Bytes(), 0o644)
}
