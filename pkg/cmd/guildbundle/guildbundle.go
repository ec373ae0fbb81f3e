// Package guildbundle is the guild-bundle command: it assembles the context
// bundle of one plan lane (or of every lane) with pkg/bundle, writes each to
// .guild/context/<run-id>/<specialist>-<task-id>.md atomically and emits one
// guild.bundle_receipt per bundle. An rtch record stream on stdin, when there is
// one, is passed through and supplies the codebase map.
package guildbundle

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/secret"

	"github.com/rtch/rtch/pkg/bundle"
	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/recall"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// RecallLimit is how many wiki chunks (and, separately, graph chunks) one lane
// asks recall for: enough to fill a Task layer near the 3,000-token target.
const RecallLimit = 4

// Main runs guild-bundle with the process's arguments and returns the exit code.
func Main() int { return cli.Main(Tool()) }

// Tool returns the command description.
func Tool() *cli.Tool {
	var (
		planPath, runID, autonomy, initiative, root, rigor string
		tasks                                              cli.Strings
		all, threshold, lead                               bool
		lastN, capacity                                    optInt
	)
	return &cli.Tool{
		ConfigFile: ".guild/config.toml under the project root",
		Name:       "guild-bundle",
		Summary:    "assemble a specialist's three-layer context bundle under a hard token budget",
		Usage:      "guild-bundle --plan .guild/plan/<slug>.md (--task ID... | --all) [--run-id R] [--autonomy ask|all] [< rtch stream]\n       guild-bundle --lead --run-id R [--plan FILE] [--last N] [--capacity TOKENS]",
		Description: `Writes .guild/context/<run-id>/<specialist>-<task-id>.md for each lane and emits a
guild.bundle_receipt record per bundle. Layers: Universal (principles, project
overview, goals; byte-identical in every bundle of a run), Role-dependent
(standards of the role group and 2-4 entity pages; byte-identical across a
specialist's lanes), Task-dependent (lane block, upstream v2 contracts, ask-gate
directive, named refs, active decisions, initiative summary, recall, knowledge
graph, codebase map).

Target ~3,000 tokens, hard cap 6,000 (ceil(code points/4)). Over the cap the
bundle is cut in order: graph nodes, codebase map, recall tail, named refs beyond
the top two (to extracts), entity pages down to two; each cut is a
dropped_for_budget: line. Every bundle is linted (guild-lint --strict) before it
is written; if any requested lane cannot fit, nothing is written and the exit
code is 1.

An rtch record stream on stdin (rtch.chunk, rtch.packet) is passed through and
becomes the codebase map: paths, line ranges and re-entry commands.

--check-threshold writes nothing: it emits a guild.bundle_threshold record per
lane saying whether formal assembly is mandatory (more than 3 source files, a
source over 500 lines, a depends-on contract, a cross-repo workspace, or deep
rigor with a borderline signal).

--lead writes the run's lean lead context, .guild/context/<run-id>/lead.md: the
Universal layer, the plan's lanes with the status their receipts give, the last
N guild.handoff.v2 envelopes verbatim (--last, lead.last_n, default 5) and one
compacted line per older envelope (fields copied as JSON, the summary cut at a
sentence boundary with an ellipsis). Frontmatter-only receipts are listed, not
digested. The current lead context is lead.md plus the envelopes that arrived
after it; it is recomputed only when there is none yet or when it reaches
lead.recompute_at (0.7) of --capacity (lead.capacity_tokens, default 8000). A
guild.lead_context record reports the decision; a guild.bundle_receipt follows
when lead.md was written. The new lead.md stays under the threshold and the
6,000-token cap: digest lines are dropped oldest first, each a
dropped_for_budget: line; the plan and the last N envelopes are never cut.`,
		Example: "rtch-intake --goal \"…\" … | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate | rtch-packet \\\n  | guild-bundle --plan .guild/plan/search.md --task T2-backend --run-id r1",
		Stdin:   cli.OptionalStream,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&planPath, "plan", "", "the plan `FILE` (.guild/plan/<slug>.md)")
			fs.Var(&tasks, "task", "build the lane with this task `ID` (repeatable)")
			fs.BoolVar(&all, "all", false, "build every lane whose upstream receipts exist (the others are named in a warning)")
			fs.StringVar(&runID, "run-id", "", "the run `ID`; bundles go to .guild/context/<run-id>/ (default: a UTC timestamp)")
			fs.StringVar(&autonomy, "autonomy", "", "override every lane's autonomy: `ask` or all")
			fs.StringVar(&initiative, "initiative", "", "the run's initiative `ID` (default: the run's run.yaml, else the single active initiative)")
			fs.StringVar(&root, "cwd", "", "the project `ROOT` (default: the nearest directory upward holding .guild/)")
			fs.BoolVar(&threshold, "check-threshold", false, "report whether formal assembly is mandatory for each lane; write nothing")
			fs.StringVar(&rigor, "rigor", "normal", "`RIGOR` of the run for --check-threshold: normal or deep")
			fs.BoolVar(&lead, "lead", false, "write the run's lean lead context (.guild/context/<run-id>/lead.md) instead of lane bundles")
			fs.Var(&lastN, "last", "with --lead: hold the last `N` envelopes verbatim (default: lead.last_n, 5)")
			fs.Var(&capacity, "capacity", "with --lead: the lead's context capacity in `TOKENS` (default: lead.capacity_tokens, 8000)")
		},
		Inputs: func() []string { return []string{planPath} },
		Run: func(ctx context.Context, env *cli.Env) error {
			if lead {
				return runLead(env, leadFlags{planPath, runID, root, lastN, capacity, len(tasks) > 0 || all || threshold || autonomy != "" || initiative != ""})
			}
			if lastN.set || capacity.set {
				return cli.Usage("--last and --capacity go with --lead")
			}
			if planPath == "" {
				return cli.UsageHint("name the plan: guild-bundle --plan .guild/plan/<slug>.md --task <task-id>", "--plan is required")
			}
			if all == (len(tasks) > 0) {
				return cli.UsageHint("use --task ID (repeatable) for some lanes or --all for every lane", "give exactly one of --task and --all")
			}
			if len(env.Args) > 0 {
				return cli.Usage("unexpected argument %q", env.Args[0])
			}
			if rigor != "normal" && rigor != "deep" {
				return cli.Usage("--rigor %q is not normal or deep", rigor)
			}
			if root == "" {
				root = findRoot(env.Dir)
			}
			if runID == "" {
				runID = time.Now().UTC().Format("20060102T150405Z")
				env.Hintf("no --run-id; using %s (pass --run-id %s to put further lanes in the same run)", runID, runID)
			}
			base := bundle.Options{Root: root, PlanPath: planPath, RunID: runID, Autonomy: autonomy, Initiative: initiative}
			if !threshold {
				// Refuse bad input before the stream is consumed and passed on.
				if err := bundle.Validate(base, tasks); err != nil {
					return mapErr(env, err)
				}
			}
			var cm bundle.CodebaseMap
			if err := env.Each(func(l record.Line) error { return cm.Add(l) }); err != nil {
				return err
			}
			cfg, _, err := guildconfig.Load(env.ConfigPath, root)
			if err != nil {
				return cli.Usage("%v", err)
			}
			settings := cfg.Settings()
			now := time.Now()
			opt := bundle.Options{
				Root: root, PlanPath: planPath, RunID: runID, Autonomy: autonomy, Initiative: initiative,
				Map: cm.Entries(), Now: now, Warn: env.Warnf, MaxPageBytes: settings.MaxPageBytes,
				Recall: RecallFunc(ctx, root, runID, settings, now, func(s string) { env.Warnf("%s", s) }),
			}
			if threshold {
				recs, err := bundle.Threshold(opt, tasks, rigor == "deep")
				if err != nil {
					return mapErr(env, err)
				}
				for _, r := range recs {
					if err := env.Out.Emit(r); err != nil {
						return err
					}
				}
				return nil
			}
			bs, err := bundle.Build(opt, tasks)
			if err != nil {
				return mapErr(env, err)
			}
			// Every bundle is built and linted before the first is written.
			for _, b := range bs {
				if err := write(root, b); err != nil {
					return cli.Failed(err)
				}
			}
			events, err := protect.EventLog(runID)
			if err != nil {
				return cli.Failed(err)
			}
			logged := map[string]bool{}
			for _, b := range bs {
				for _, ev := range b.Events {
					if logged[ev.SourcePath] {
						continue
					}
					logged[ev.SourcePath] = true
					ev.At = now.UTC().Format(time.RFC3339)
					if err := protect.AppendEvent(root, events, ev); err != nil {
						return cli.Failed(err)
					}
				}
			}
			for _, b := range bs {
				if err := env.Out.Emit(b.Receipt); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// RecallFunc is the bundle's recall path: guild-recall's package, in-process,
// RecallLimit wiki chunks and RecallLimit graph chunks per lane.
func RecallFunc(ctx context.Context, root, runID string, settings guildconfig.Settings, now time.Time, warn func(string)) bundle.RecallFunc {
	return func(q string) (*schema.Recall, error) {
		res, err := recall.Recall(ctx, recall.Options{
			Root: root, Query: q, RunID: runID, Limit: RecallLimit, Settings: settings,
			Now: now, Tool: "guild-bundle", Warn: warn,
		})
		if err != nil {
			return nil, err
		}
		return &schema.Recall{Source: res.Source, Directive: res.Directive, TopScore: res.TopScore, RecallBeforeRead: res.RecallBeforeRead, Chunks: res.Chunks}, nil
	}
}

// mapErr gives bundle errors their exit codes (bad input 2, no fit 1) and
// prints every problem of a joined error as its own diagnostic line; the last
// one goes back to the framework.
func mapErr(env *cli.Env, err error) error {
	last := func(e error) error {
		lines := strings.Split(e.Error(), "\n")
		for _, l := range lines[:len(lines)-1] {
			fmt.Fprintf(env.Stderr, "guild-bundle: error: %s\n", l)
		}
		return errors.New(lines[len(lines)-1])
	}
	var ie *bundle.InputError
	if errors.As(err, &ie) {
		return &cli.ExitError{Code: cli.ExitUsage, Err: last(ie.Err)}
	}
	var fe *bundle.FitError
	if errors.As(err, &fe) {
		return &cli.ExitError{Code: cli.ExitFailed, Err: last(fe.Err), Hint: "nothing was written; shorten the lane's refs or upstream contracts, or the Universal pages"}
	}
	return cli.Failed(err)
}

// write puts a bundle in place atomically.
func write(root string, b *bundle.Bundle) error {
	// The output boundary for a bundle file: its sources were redacted
	// where they were read, so this pass only catches what slipped by. The
	// file is written beneath the project root (no symlink leads it out).
	if err := atomicfile.WriteBeneath(root, b.Path, []byte(secret.String(b.Text)), 0o644); err != nil {
		return fmt.Errorf("%s: %w", b.Path, err)
	}
	return nil
}

// findRoot walks up from the working directory (dir, the invocation's, or
// the process's when "") to the nearest directory that holds .guild/,
// falling back to the working directory.
func findRoot(dir string) string {
	wd, err := filepath.Abs(dir)
	if dir == "" {
		wd, err = os.Getwd()
	}
	if err != nil {
		return "."
	}
	for d := wd; ; {
		if st, err := os.Stat(filepath.Join(d, ".guild")); err == nil && st.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return wd
		}
		d = parent
	}
}
