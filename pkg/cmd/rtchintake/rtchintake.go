// Package rtchintake is the rtch-intake command: stage 1 of the lane. It turns
// flags, an intake file and the [intake] defaults of .rtch.toml into one
// rtch.intake record, or declines (exit 2) naming every missing field and the
// flag that sets it. It reads no record stream.
package rtchintake

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/zone"
)

type options struct {
	goal, goalFile, intakeFile                string
	profile, fanout, risk, outputKind, enough string
	knownTarget                               string
	seeds, forbid, neighbors                  cli.Strings
	budget                                    int
	ideas                                     bool
	ideasSet                                  bool
}

// Tool returns the rtch-intake tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:    "rtch-intake",
		Summary: "state the lane's contract as an rtch.intake record",
		Usage:   "rtch-intake --goal TEXT|--goal-file FILE [--profile P] [--fanout F] [--risk R] [--output-kind K] [--enough TEXT] [flags]\n       rtch-intake --intake FILE [flags]",
		Description: `Builds the intake, the contract every later stage works to: the goal, the
target profile, the fanout, the mutation risk, the expected output and the
definition of enough evidence. Flags win over --intake FILE (TOML or JSON, the
record's own keys), which wins over [intake] in .rtch.toml at the zone root,
which wins over the defaults rtch-mcp's arguments have too: profile
code_path, fanout normal, risk read_only, output hydration_packet, and enough
derived from the goal (its first code-shaped names read, else its best-ranked
place read), which the record's warnings (enough_derived) and a hint say; the
record's source names the default layer when it filled a field. Without a
goal the intake declines: exit 2, naming the flag. Goal terms (identifiers
and their parts, paths, file names, stack frames, quoted strings, error
fragments, words) are extracted from the goal for the scout. Standard input is read only by --goal-file -.

profiles:  ` + strings.Join(intake.Profiles, " | ") + `
fanout:    ` + strings.Join(intake.FanoutLevels, " | ") + `
risk:      ` + strings.Join(intake.MutationRisks, " | ") + `
output:    ` + strings.Join(intake.ExpectedOutputs, " | "),
		Example: `rtch-intake --goal "fix trailing <nil> on help output" | rtch-zone
rtch-intake --goal "fix trailing <nil> on help output" --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "the line printing <nil> is found" | rtch-zone
rtch-intake --goal-file issue.md --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "the faulty function is hydrated" --jq '.goal_terms | length > 0'`,
		Stdin: cli.NoStdin,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&o.goal, "goal", "", "the goal: one sentence or a whole problem `TEXT`")
			fs.StringVar(&o.goalFile, "goal-file", "", "read the goal from `FILE` (- for standard input)")
			fs.StringVar(&o.intakeFile, "intake", "", "read intake fields from `FILE` (TOML or JSON)")
			fs.StringVar(&o.profile, "profile", "", "target profile `P` (target_profile; default code_path)")
			fs.StringVar(&o.fanout, "fanout", "", "fanout level `F` (fanout_level; default normal)")
			fs.StringVar(&o.risk, "risk", "", "mutation risk `R` (mutation_risk; default read_only)")
			fs.StringVar(&o.outputKind, "output-kind", "", "expected output `K` (expected_output; default hydration_packet)")
			fs.StringVar(&o.enough, "enough", "", "when the lane halts: the enough-evidence definition `TEXT` (default derived from the goal)")
			fs.StringVar(&o.knownTarget, "known-target", "", "a `PATH` (or PATH:Lx-Ly) already suspected")
			fs.Var(&o.seeds, "seed", "an explicit seed `TERM` (repeatable)")
			fs.Var(&o.forbid, "forbid", "a forbidden assumption `TEXT`: a path or term to exclude (repeatable)")
			fs.Var(&o.neighbors, "neighbor", "a known neighbor surface `PATH`, read as neighbor only (repeatable)")
			fs.IntVar(&o.budget, "budget-tokens", 0, "hydration token budget `N` (overrides the fanout default)")
			fs.BoolFunc("ideas", "group the goal terms that spell one idea (restart, restarts; back-off, backoff) so the ranking counts it once ([intake] ideas; default off)", func(v string) error {
				b, err := strconv.ParseBool(v)
				o.ideas, o.ideasSet = b, true
				return err
			})
		},
		Inputs: func() []string {
			var in []string
			if o.intakeFile != "" {
				in = append(in, o.intakeFile)
			}
			if o.goalFile != "" && o.goalFile != "-" {
				in = append(in, o.goalFile)
			}
			return in
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

// Main runs rtch-intake with the process's arguments.
func Main() int { return cli.Main(Tool()) }

func run(ctx context.Context, env *cli.Env, o *options) error {
	if len(env.Args) > 0 {
		return cli.UsageHint("put the goal in --goal \"…\" or --goal-file FILE", "unexpected argument %q", env.Args[0])
	}
	if o.goal != "" && o.goalFile != "" {
		return cli.Usage("--goal and --goal-file are exclusive")
	}
	flags := intake.Layer{Name: "flags", Fields: schema.IntakeFields{
		Goal:                     o.goal,
		TargetProfile:            o.profile,
		FanoutLevel:              o.fanout,
		MutationRisk:             o.risk,
		ExpectedOutput:           o.outputKind,
		EnoughEvidenceDefinition: o.enough,
		KnownTarget:              o.knownTarget,
		ExplicitSeeds:            o.seeds,
		ForbiddenAssumptions:     o.forbid,
		KnownNeighborSurfaces:    o.neighbors,
		BudgetTokens:             o.budget,
	}}
	if o.goalFile != "" {
		g, err := readGoalFile(env, o.goalFile)
		if err != nil {
			return err
		}
		flags.Fields.Goal = g
	}
	layers := []intake.Layer{flags}
	if o.intakeFile != "" {
		data, err := os.ReadFile(o.intakeFile)
		if err != nil {
			return cli.Usage("--intake %s: %v", o.intakeFile, pathErr(err))
		}
		f, err := intake.ParseFile(o.intakeFile, data)
		if err != nil {
			return cli.Usage("%v", err)
		}
		layers = append(layers, intake.Layer{Name: "file:" + o.intakeFile, Fields: f})
	}
	root, err := zone.ResolveRoot(ctx, env.Dir, env.Getenv)
	if err != nil {
		return cli.Usage("zone root: %v", err)
	}
	cfg, _, err := env.LoadConfig(root.Dir)
	if err != nil {
		return err
	}
	layers = append(layers, intake.FromConfig(cfg.Intake))

	m := intake.WithDefaults(intake.Merge(layers...))
	if probs := intake.Validate(m); len(probs) > 0 {
		return decline(probs)
	}
	rec, err := intake.Build(m)
	if err != nil {
		return cli.Failed(err)
	}
	if o.ideas || (!o.ideasSet && cfg.Intake.Ideas) {
		rec.GoalTerms = intake.Ideas(rec.Goal, rec.GoalTerms)
	}
	for _, w := range rec.Warnings {
		if w.Code == intake.WarnEnoughDerived {
			env.Hintf("%s", w.Message) // a default said, not a problem
			continue
		}
		env.Warnf("%s: %s", w.Code, w.Message)
	}
	return env.Out.Emit(rec)
}

// decline reports every problem at once: the missing fields in one line (the
// spec's decline), then each invalid value.
func decline(probs []intake.Problem) error {
	var missing, invalid []string
	for _, p := range probs {
		if p.Missing {
			missing = append(missing, p.Msg)
		} else {
			invalid = append(invalid, p.Msg)
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(missing, ", "))
	}
	parts = append(parts, invalid...)
	return cli.UsageHint("the intake is the lane's contract: set the fields with flags, --intake FILE or [intake] in .rtch.toml",
		"intake declined: %s", strings.Join(parts, "; "))
}

func readGoalFile(env *cli.Env, name string) (string, error) {
	var (
		data []byte
		err  error
	)
	if name == "-" {
		if env.Stdin == nil {
			return "", cli.Usage("--goal-file -: no standard input")
		}
		if f, ok := env.Stdin.(*os.File); ok {
			st, err := f.Stat()
			null, nerr := os.Stat(os.DevNull)
			if err == nil && st.Mode()&os.ModeCharDevice != 0 && (nerr != nil || !os.SameFile(st, null)) {
				env.Hintf("reading the goal from the terminal; end it with Ctrl-D")
			}
		}
		data, err = io.ReadAll(env.Stdin)
		name = "stdin"
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return "", cli.Usage("--goal-file %s: %v", name, pathErr(err))
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", cli.Usage("--goal-file %s: the goal is empty", name)
	}
	return string(data), nil
}

func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no such file")
		}
		return pe.Err
	}
	return err
}
