// Command benchdoc keeps the tables of the benchmark pages equal to the
// results they come from. A page marks each generated table with a region
//
//	<!-- bench-doc KIND RUN -->
//	…
//	<!-- /bench-doc -->
//
// where RUN is a run summary under bench/runs (relative to the repository
// root) and KIND one of the renderers below. benchdoc rewrites every region of
// the pages it is given; with --check it changes nothing and exits 1 when a
// region differs from its rendering. With --import it turns an eval runner's
// --json output into a run summary (the per-set tables without the per-task
// results, plus the commit and each set's language).
//
//	go run ./bench/benchdoc docs/BENCHMARKS.md docs/bench/retrieval.md
//	go run ./bench/benchdoc --import /work/evalruns/e547916.json --commit e547916 --out bench/runs/2026-12-04-e547916/eval.json
//
// `make bench-doc` runs the first form over every page of docs/.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchdoc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "change nothing; exit 1 when a page differs from its rendering")
	root := fs.String("root", ".", "the repository root RUN paths are relative to")
	imp := fs.String("import", "", "an eval runner's --json `FILE` to turn into a run summary")
	commit := fs.String("commit", "", "the `COMMIT` the imported run measured (with --import)")
	out := fs.String("out", "", "the run summary `FILE` to write (with --import)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *imp != "" {
		if *commit == "" || *out == "" || fs.NArg() > 0 {
			fmt.Fprintln(stderr, "benchdoc: error: --import needs --commit and --out and no pages")
			return 2
		}
		if err := importRun(*imp, *commit, *out); err != nil {
			fmt.Fprintf(stderr, "benchdoc: error: %v\n", err)
			return 1
		}
		return 0
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "benchdoc: error: no pages given")
		fmt.Fprintln(stderr, "benchdoc: hint: go run ./bench/benchdoc docs/BENCHMARKS.md")
		return 2
	}
	stale := 0
	for _, page := range fs.Args() {
		old, err := os.ReadFile(page)
		if err != nil {
			fmt.Fprintf(stderr, "benchdoc: error: %v\n", err)
			return 2
		}
		updated, err := renderPage(page, string(old), filepath.Clean(*root))
		if err != nil {
			fmt.Fprintf(stderr, "benchdoc: error: %v\n", err)
			return 1
		}
		if updated == string(old) {
			continue
		}
		if *check {
			fmt.Fprintf(stderr, "benchdoc: error: %s differs from its runs\n", page)
			stale++
			continue
		}
		if err := atomicfile.WriteFile(page, []byte(updated), 0o644); err != nil {
			fmt.Fprintf(stderr, "benchdoc: error: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", page)
	}
	if stale > 0 {
		fmt.Fprintln(stderr, "benchdoc: hint: make bench-doc")
		return 1
	}
	return 0
}

// renderPage returns text with every bench-doc region rendered again.
func renderPage(name, text, root string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		b.WriteString(line)
		kind, run, ok, err := regionStart(line)
		if err != nil {
			return "", fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
		if !ok {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != regionEnd {
			end++
		}
		if end == len(lines) {
			return "", fmt.Errorf("%s:%d: region %s has no %q line", name, i+1, kind, regionEnd)
		}
		table, err := renderRegion(kind, filepath.Join(root, run))
		if err != nil {
			return "", fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
		b.WriteString(table)
		b.WriteString(lines[end])
		i = end
	}
	return b.String(), nil
}

const regionEnd = "<!-- /bench-doc -->"

// regionStart parses "<!-- bench-doc KIND RUN -->".
func regionStart(line string) (kind, run string, ok bool, err error) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "<!-- bench-doc ") {
		return "", "", false, nil
	}
	f := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(s, "<!-- bench-doc "), "-->"))
	if len(f) != 2 || !strings.HasSuffix(s, "-->") {
		return "", "", false, fmt.Errorf("want <!-- bench-doc KIND RUN -->, got %q", s)
	}
	return f[0], f[1], true, nil
}
