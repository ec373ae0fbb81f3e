package guildbundle

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/rtch/rtch/pkg/bundle"
	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/record"
)

// leadFlags are the flags --lead reads.
type leadFlags struct {
	plan, runID, root string
	lastN, capacity   optInt
	// laneFlags reports a lane-bundle flag given with --lead.
	laneFlags bool
}

// runLead is guild-bundle --lead: the capacity report, then lead.md and its
// receipt when it was recomputed.
func runLead(env *cli.Env, f leadFlags) error {
	switch {
	case f.laneFlags:
		return cli.Usage("--lead builds the run's lead context; it takes no --task, --all, --check-threshold, --autonomy or --initiative")
	case f.runID == "":
		return cli.UsageHint("name the run: guild-bundle --lead --run-id <run-id>", "--lead needs --run-id (the run whose receipts it reads)")
	case len(env.Args) > 0:
		return cli.Usage("unexpected argument %q", env.Args[0])
	}
	if f.root == "" {
		f.root = findRoot(env.Dir)
	}
	// A stream on stdin is passed through; the lead has no codebase map.
	if err := env.Each(func(record.Line) error { return nil }); err != nil {
		return err
	}
	cfg, _, err := guildconfig.Load(env.ConfigPath, f.root)
	if err != nil {
		return cli.Usage("%v", err)
	}
	s := cfg.Settings()
	lo := bundle.LeadOptions{LastN: s.LeadLastN, CapacityTokens: s.LeadCapacityTokens, RecomputeAt: s.LeadRecomputeAt}
	if f.lastN.set {
		lo.LastN = f.lastN.v
	}
	if f.capacity.set {
		lo.CapacityTokens = f.capacity.v
	}
	opt := bundle.Options{Root: f.root, PlanPath: f.plan, RunID: f.runID, Now: time.Now(), Warn: env.Warnf, MaxPageBytes: s.MaxPageBytes}
	res, err := bundle.BuildLead(opt, lo)
	var fe *bundle.FitError
	if errors.As(err, &fe) {
		return &cli.ExitError{Code: cli.ExitFailed, Err: fe.Err, Hint: "nothing was written; the current " + bundle.LeadPath(f.runID) + ", if any, is unchanged"}
	}
	if err != nil {
		return mapErr(env, err)
	}
	if res.Bundle != nil {
		if err := write(f.root, res.Bundle); err != nil {
			return cli.Failed(err)
		}
	}
	if err := env.Out.Emit(res.Report); err != nil {
		return err
	}
	if res.Bundle != nil {
		return env.Out.Emit(res.Bundle.Receipt)
	}
	return nil
}

// optInt is an integer flag that knows whether it was given, so that an
// absent flag falls back to .guild/config.toml and an explicit 0 does not.
type optInt struct {
	v   int
	set bool
}

func (o *optInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.v)
}

func (o *optInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not an integer", s)
	}
	o.v, o.set = n, true
	return nil
}
