// Package guildlint is the guild-lint command: it lints context bundles with
// pkg/lint and prints one verdict object per bundle on stdout.
//
// Its exit codes differ from the toolkit's default, as SPEC §10 fixes them for
// hooks: 0 every bundle passes, 2 any bundle fails, 1 a usage error or an
// unreadable bundle.
package guildlint

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/lint"
)

// Exit codes of guild-lint.
const (
	ExitPass       = 0
	ExitUnreadable = 1 // also usage errors
	ExitFail       = 2
)

// Main runs guild-lint with the process's arguments and returns the exit code.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs guild-lint in-process.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Run(ctx, Tool(), args, stdin, stdout, stderr)
}

// Tool returns the guild-lint tool.
func Tool() *cli.Tool {
	var (
		strict  bool
		runDir  string
		bundles cli.Strings
	)
	return &cli.Tool{
		Name:    "guild-lint",
		Summary: "deterministic budget and integrity lint of context bundles",
		Usage:   "guild-lint [--strict] [--run DIR] BUNDLE...\n       guild-lint [--strict] --run DIR\n       guild-lint [--strict] --bundle FILE",
		Description: `Prints one verdict per bundle, one JSON object per line, with exactly the keys
bundle, pass, est_tokens, graph_est_tokens, has_dropped_for_budget,
frontmatter_token_estimate and reasons. est_tokens is ceil(code points / 4) of
the whole file. A graph section is a heading matching /knowledge.?graph/i up to
the next heading of the same or higher level.

A bundle FAILS when est_tokens > 6000, or when its graph sections hold more than
1200 tokens and no dropped_for_budget: line records a cut. A frontmatter
token_estimate that disagrees with est_tokens is a reason, not a failure.

--strict also fails raw (unwrapped, non-operator) recall text, a wrapped chunk
without the integrity notice before it, and unbalanced or malformed recall
delimiters. --run DIR lints every *.md bundle in DIR (besides any named) and
fails bundles whose Universal section differs by a byte from the run's, or
whose Role-dependent section differs from other bundles of the same specialist.
BUNDLE "-" reads a bundle from standard input.

--bundle FILE is the original Guild linter's command line
(lint-context-bundle.ts --bundle FILE), so skill text written for it works
unchanged; it may be repeated and mixed with positional bundles. The verdicts
match the original's except where docs/decisions/guild-lint.md says why not.`,
		Example:   "guild-bundle --plan .guild/plan/search.md --all --run-id r1 >/dev/null && guild-lint --strict --run .guild/context/r1",
		NoRecords: true,
		// Lint verdicts depend on the bundle alone; --config is accepted for
		// uniformity and no key of the file changes them.
		ConfigFile: ".guild/config.toml (guild-lint reads none of its keys)",
		// guild-lint is the one tool whose usage code is 1: 2 means "a bundle fails".
		UsageExitCode: ExitUnreadable,
		BaseExitCodes: [][2]string{
			{"0", "every bundle passes"},
			{"1", "usage error, or a bundle could not be read (guild-lint differs from the toolkit here)"},
			{"2", "at least one bundle fails"},
		},
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&strict, "strict", false, "also fail integrity problems: raw recall text, missing integrity notice, unbalanced delimiters")
			fs.Var(&bundles, "bundle", "lint the bundle `FILE` (the original Guild linter's flag; repeatable, same as a positional BUNDLE)")
			fs.StringVar(&runDir, "run", "", "lint every bundle in the run directory `DIR` and check the Universal and Role layers are byte-identical across them")
		},
		Run: func(ctx context.Context, env *cli.Env) error {
			names := append(append([]string{}, bundles...), env.Args...)
			if runDir != "" {
				ents, err := os.ReadDir(env.Path(runDir))
				if err != nil {
					return &cli.ExitError{Code: ExitUnreadable, Err: fmt.Errorf("--run %s: %w", runDir, unwrapPath(err))}
				}
				var inRun []string
				for _, e := range ents {
					if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
						inRun = append(inRun, filepath.Join(runDir, e.Name()))
					}
				}
				sort.Strings(inRun)
				if len(inRun) == 0 {
					return &cli.ExitError{Code: ExitUnreadable, Err: fmt.Errorf("--run %s holds no *.md bundles", runDir)}
				}
				for _, n := range inRun {
					if !containsPath(names, n) {
						names = append(names, n)
					}
				}
			}
			if len(names) == 0 {
				return &cli.ExitError{Code: ExitUnreadable, Err: errors.New("no bundle named"), Hint: "run 'guild-lint BUNDLE...', 'guild-lint --bundle FILE' or 'guild-lint --run .guild/context/<run-id>'"}
			}
			var (
				verdicts   []lint.Verdict
				runBundles []lint.RunBundle
				unreadable int
			)
			for _, n := range names {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				var data []byte
				var err error
				if n == "-" {
					data, err = io.ReadAll(env.Stdin)
				} else {
					data, err = os.ReadFile(env.Path(n))
				}
				if err != nil {
					fmt.Fprintf(env.Stderr, "guild-lint: error: %s: %v\n", n, unwrapPath(err))
					unreadable++
					continue
				}
				text := string(data)
				verdicts = append(verdicts, lint.Check(n, text, lint.Options{Strict: strict}))
				if runDir != "" && n != "-" && filepath.Dir(n) == filepath.Clean(runDir) {
					runBundles = append(runBundles, lint.RunBundle{Name: n, Text: text})
				}
			}
			if runDir != "" {
				byName := lint.CheckRun(runBundles)
				for i := range verdicts {
					for _, r := range byName[verdicts[i].Bundle] {
						verdicts[i].Pass = false
						verdicts[i].Reasons = append(verdicts[i].Reasons, r)
					}
				}
			}
			failed := 0
			for _, v := range verdicts {
				if err := env.Out.Emit(v); err != nil {
					return err
				}
				if !v.Pass {
					failed++
				}
			}
			switch {
			case unreadable > 0:
				return cli.Code(ExitUnreadable, fmt.Errorf("%d of %d bundles could not be read", unreadable, len(names)))
			case failed > 0:
				return cli.Code(ExitFail, nil)
			}
			return nil
		},
	}
}

func containsPath(list []string, p string) bool {
	for _, q := range list {
		if filepath.Clean(q) == filepath.Clean(p) {
			return true
		}
	}
	return false
}

// unwrapPath drops the *PathError's repetition of the file name.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
