// Package rtchask is the rtch command, the toolkit's front door for people:
// `rtch ask "QUESTION"` runs the whole lane on the tree it is in, in
// process, and prints the brief. It is the pipe
//
//	rtch-intake --goal QUESTION | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate | rtch-packet --format md --line-numbers
//
// with the same stages (pkg/pipeline) and the intake's defaults; its flags
// are the intake's and the packet's a person changes most.
package rtchask

import (
	"context"
	"errors"
	"flag"
	"io"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/pipeline"
)

// Verb is the command's one verb: `rtch ask`.
const Verb = "ask"

type options struct {
	goalFile, profile, fanout, risk, outputKind, enough string
	format                                              string
	seeds                                               cli.Strings
	budget                                              int
	lineNumbers                                         bool
}

// Tool returns the rtch tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:    "rtch",
		Verb:    Verb,
		Summary: "ask a question of the tree and print the brief",
		Usage:   "rtch ask [flags] QUESTION…\n       rtch ask [flags] --goal-file FILE",
		Description: `Runs the whole lane on the tree of the working directory (its zone root:
$RTCH_ZONE_ROOT, a .ticzone marker, the git top level, else the directory)
and prints the brief: the few places that matter for the question, ranked,
each a bounded chunk with its lines numbered, what was skipped, cautions,
open questions and the next commands. The question is the words after ask,
or --goal-file. It is the pipe rtch-intake | rtch-zone | rtch-scout |
rtch-probe | rtch-hydrate | rtch-packet, run in one process with the same
code; every intake field the flags leave unset comes from [intake] in
.rtch.toml, else the intake's defaults (profile code_path, fanout normal,
risk read_only, output hydration_packet, enough derived from the question,
which the record's warnings say). The stages' diagnostics follow, each
under its stage's name; a failing stage's exit code is rtch's.

profiles:  ` + strings.Join(intake.Profiles, " | ") + `
fanout:    ` + strings.Join(intake.FanoutLevels, " | ") + `
risk:      ` + strings.Join(intake.MutationRisks, " | ") + `
output:    ` + strings.Join(intake.ExpectedOutputs, " | "),
		Example: `rtch ask "where does the record stream reader report malformed lines"
rtch ask --fanout wide --enough "the function that prints the help is read" "fix trailing <nil> on help output"
rtch ask --format json "why does the retry loop never back off" | jq '.hydrated_chunks[].path'`,
		Stdin: cli.NoStdin,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&o.goalFile, "goal-file", "", "read the question from `FILE` (- for standard input)")
			fs.StringVar(&o.profile, "profile", "", "target profile `P` (default code_path)")
			fs.StringVar(&o.fanout, "fanout", "", "fanout level `F` (default normal)")
			fs.StringVar(&o.risk, "risk", "", "mutation risk `R` (default read_only)")
			fs.StringVar(&o.outputKind, "output-kind", "", "expected output `K` (default hydration_packet)")
			fs.StringVar(&o.enough, "enough", "", "when the lane may stop: the evidence that would be enough, `TEXT` (default derived from the question)")
			fs.Var(&o.seeds, "seed", "a search `TERM` you know matters (repeatable)")
			fs.IntVar(&o.budget, "budget-tokens", 0, "token budget `N` of the brief (default the fanout's: 4000, 8000, 16000)")
			fs.StringVar(&o.format, "format", "md", "print `FORMAT`: md (the brief), json, yaml, ndjson or summary (rtch-packet's)")
			fs.BoolVar(&o.lineNumbers, "line-numbers", true, "number the brief's chunk lines (--line-numbers=false for none)")
		},
		Inputs: func() []string {
			if o.goalFile != "" && o.goalFile != "-" {
				return []string{o.goalFile}
			}
			return nil
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

// Main runs rtch with the process's arguments.
func Main() int { return cli.Main(Tool()) }

func run(ctx context.Context, env *cli.Env, o *options) error {
	question := strings.TrimSpace(strings.Join(env.Args, " "))
	switch {
	case question == "" && o.goalFile == "":
		return cli.UsageHint(`rtch ask "where does the server parse request headers"`, "no question: give it after ask, or --goal-file FILE")
	case question != "" && o.goalFile != "":
		return cli.Usage("a question and --goal-file are exclusive")
	}
	stages := append(pipeline.Lane(intakeArgs(env, o, question)), pipeline.Packet(packetArgs(o)...))
	for i := range stages {
		stages[i].Args = append(stages[i].Args, commonArgs(env)...)
	}
	res, err := pipeline.Run(ctx, pipeline.Options{
		Dir: env.Dir, Getenv: env.Getenv, Progress: func(s string) { env.Progressf("%s", s) },
	}, stages, env.Stdin, env.Stdout)
	env.ProgressDone()
	io.WriteString(env.Stderr, res.Diagnostics)
	var se *pipeline.StageError
	if errors.As(err, &se) {
		return &cli.ExitError{Code: se.Code} // the stage said why, under its name
	}
	return err
}

// intakeArgs are rtch-intake's flags for the question and o.
func intakeArgs(env *cli.Env, o *options, question string) []string {
	args := []string{"--goal=" + question}
	if o.goalFile != "" {
		args = []string{"--goal-file=" + env.Path(o.goalFile)}
	}
	for _, f := range []struct{ name, v string }{
		{"profile", o.profile}, {"fanout", o.fanout}, {"risk", o.risk}, {"output-kind", o.outputKind}, {"enough", o.enough},
	} {
		if f.v != "" {
			args = append(args, "--"+f.name+"="+f.v)
		}
	}
	for _, s := range o.seeds {
		args = append(args, "--seed="+s)
	}
	if o.budget != 0 {
		args = append(args, "--budget-tokens="+strconv.Itoa(o.budget))
	}
	return args
}

// packetArgs are rtch-packet's flags for o.
func packetArgs(o *options) []string {
	args := []string{"--format=" + o.format}
	if o.lineNumbers && o.format == "md" {
		args = append(args, "--line-numbers")
	}
	return args
}

// commonArgs are the common flags every stage takes from rtch's own.
func commonArgs(env *cli.Env) []string {
	var args []string
	if env.ConfigPath != "" {
		args = append(args, "--config="+env.Path(env.ConfigPath))
	}
	if env.Quiet {
		args = append(args, "-q")
	}
	return args
}
