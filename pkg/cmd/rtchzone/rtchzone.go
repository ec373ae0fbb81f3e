// Package rtchzone is the rtch-zone command: stage 2 of the lane. It passes an
// incoming record stream through (typically the intake), then appends
// rtch.zone (where the lane works) and rtch.gate (whether the zone's
// append-only record surfaces may be read raw). With --gate-only it prints the
// gate alone and exits with the gate's code, for hooks.
package rtchzone

import (
	"context"
	"flag"
	"fmt"
	"github.com/rtch/rtch/pkg/pathenc"
	"strings"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/gate"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/zone"
)

// Gate exit codes of --gate-only, on top of the shared ones.
const (
	ExitBlocked   = 2
	ExitCorrected = 3
)

type options struct {
	dir      string
	gateOnly bool
	surfaces cli.Strings
}

// Tool returns the rtch-zone tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:    "rtch-zone",
		Summary: "orient the lane: zone root, rungs, truth files, git snapshot and the effective-record gate",
		Usage:   "rtch-intake … | rtch-zone [--dir DIR] [flags]\n       rtch-zone [--dir DIR] [--gate-only] [flags]",
		Description: `Passes the incoming record stream through unchanged, then appends rtch.zone and
rtch.gate. Without a stream (stdin a terminal or /dev/null) it works from flags
alone.

The zone root is $RTCH_ZONE_ROOT, else the nearest directory at or above the
start directory (--dir, default the working directory) holding .ticzone, else
the top of its git work tree, else the start directory; rtch.zone says which
rule decided. .rtch.toml is read at the zone root (or --config).

The gate reads the append-only JSONL record surfaces ([gate] surfaces, default
audit-logs/**/*.jsonl), applies authorized and ratified corrections (JSON Merge
Patch) in (effective_at, correction_id) order and reports safe, corrected or
blocked. A blocked gate exits 2 after the whole stream is written.

--gate-only prints only rtch.gate, reads no standard input, and exits 0 safe,
2 blocked, 3 corrected.`,
		Example: `rtch-intake --goal "fix trailing <nil> on help output" --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "the line is found" | rtch-zone | rtch-scout
rtch-zone --gate-only -q || echo "read the effective views, not the raw audit lines"`,
		ExitCodes: [][2]string{
			{"2", "also: the gate is blocked (after the whole stream is written; --gate-only too)"},
			{"3", "gate status corrected (--gate-only only)"},
		},
		Stdin: cli.OptionalStream,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&o.dir, "dir", "", "start the zone search in `DIR` instead of the working directory")
			fs.BoolVar(&o.gateOnly, "gate-only", false, "print only the rtch.gate record and exit 0 safe, 2 blocked, 3 corrected")
			fs.Var(&o.surfaces, "surface", "a record surface `GLOB` relative to the zone root (repeatable; replaces [gate] surfaces)")
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

// Main runs rtch-zone with the process's arguments.
func Main() int { return cli.Main(Tool()) }

func run(ctx context.Context, env *cli.Env, o *options) error {
	if len(env.Args) > 0 {
		return cli.UsageHint("name the start directory with --dir DIR", "unexpected argument %q", env.Args[0])
	}
	start := env.Dir
	if o.dir != "" {
		start = env.Path(o.dir)
	}
	root, err := zone.ResolveRoot(ctx, start, env.Getenv)
	if err != nil {
		if o.dir != "" {
			return cli.Usage("--dir: %v", err)
		}
		return cli.Usage("zone root: %v", err)
	}
	cfg, cfgPath, err := env.LoadConfig(root.Dir)
	if err != nil {
		return err
	}
	globs := []string(o.surfaces)
	if len(globs) == 0 {
		globs = cfg.Gate.Surfaces
	}

	// Orientation and the gate are computed before the stream is passed on, so
	// a configuration error stops the stage before it has written anything.
	g, err := gate.Evaluate(gate.Options{FS: pathenc.DirFS(root.Dir), Surfaces: globs, IDFields: cfg.Gate.IDFields})
	if err != nil {
		return cli.Failed(fmt.Errorf("gate: %v", err))
	}

	if o.gateOnly {
		if err := env.Out.Emit(g); err != nil {
			return err
		}
		return gateExit(env, g, true)
	}

	z, warns := zone.Describe(ctx, zone.Options{
		Root:        root,
		RungMarkers: cfg.Zone.RungMarkers,
		TruthFiles:  cfg.Zone.TruthFiles,
		StatusLines: cfg.Zone.StatusLines,
		ConfigPath:  cfgPath,
		Git:         env.Resident.GitCache(),
	})
	for _, w := range warns {
		env.Warnf("%s", w)
	}
	if err := env.Each(func(record.Line) error { return ctx.Err() }); err != nil {
		return err
	}
	if err := env.Out.Emit(z); err != nil {
		return err
	}
	if err := env.Out.Emit(g); err != nil {
		return err
	}
	return gateExit(env, g, false)
}

// gateExit maps the gate's status to the run's end: blocked is exit 2 after a
// complete stream; corrected is 3 only with --gate-only, a warning otherwise.
func gateExit(env *cli.Env, g schema.Gate, gateOnly bool) error {
	switch g.Status {
	case gate.StatusBlocked:
		first := g.Unresolved[0]
		more := ""
		if n := len(g.Unresolved) - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more)", n)
		}
		return cli.Code(ExitBlocked, fmt.Errorf("effective-record gate blocked: %s at %s: %s%s", first.Reason, first.Location, first.Detail, more))
	case gate.StatusCorrected:
		var ids []string
		for _, e := range g.EffectiveRecords {
			ids = append(ids, e.TargetRecordID+" ("+e.BaseLocation+")")
		}
		env.Warnf("effective-record gate corrected: read the effective view of %s, not the raw line", strings.Join(ids, ", "))
		if gateOnly {
			return cli.Code(ExitCorrected, nil)
		}
	}
	return nil
}
