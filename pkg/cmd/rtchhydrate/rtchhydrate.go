// Package rtchhydrate is the rtch-hydrate command: stage 6 of the lane. From
// the record stream it reads bounded chunks of the ranked surfaces within the
// token budget (rtch.chunk) and reports everything it did not read (rtch.skip);
// with --reenter it reads one range again, with no stream needed; with
// --rehydrate it re-reads every chunk of a persisted packet (rtch.rehydrate).
package rtchhydrate

import (
	"context"
	"flag"
	"os"
	"path/filepath"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/packet"
	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/tokens/exact"
	"github.com/rtch/rtch/pkg/zone"
)

type options struct {
	budget    int
	tokenizer string
	reenter   cli.Strings
	rehydrate string
	window    int
	floor     int
	order     string
}

// Tool returns the rtch-hydrate tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:     "rtch-hydrate",
		HugeHeap: 256 << 20, // 30 MB on GOROOT/src
		Summary:  "read bounded, re-enterable chunks of the ranked surfaces",
		Usage: "rtch-hydrate < stream                      (after rtch-probe)\n" +
			"       rtch-hydrate --reenter PATH:L<s>-L<e> | PATH:<line> [...]\n" +
			"       rtch-hydrate --rehydrate PACKET.yaml|PACKET.json",
		Description: `Hydration reads the whole stream first (the ranking comes last), passes it
through, then appends one rtch.chunk per chunk and one rtch.skip per surface,
range or row not read. Chunks are ±window lines around the ranked target lines
(default 20, [hydrate] window), overlapping windows merged up to two windows'
length, a file of ≤200 lines (or the intake's known_target of ≤500 lines below
wide fanout) read whole, at most 8 chunks per probe, and the token budget of
the fanout level (4000/8000/16000, or the intake's budget_tokens) filled in
rank order, breadth first. Lines longer than 400 characters are cut in the
text (flag truncated_lines). Every chunk passes the injection probe (flags
injection:<pattern>) and secret redaction ([REDACTED:<rule>], flags
redacted:<rule>); sha256 is over the original bytes, so re-entry verifies.
A record corrected in the effective-record gate is shown as its effective
view (confidence effective_record_view), never as its raw row.

--reenter reads one range again as an rtch.chunk (PATH:<line> reads the
window around the line); paths are relative to the zone root ($RTCH_ZONE_ROOT,
a .ticzone marker, the git top level, or the working directory).
--rehydrate re-reads a persisted packet's chunks and emits rtch.rehydrate with
refreshed, drift_detected, superseded, failed_rehydration or
effective_record_hold per chunk and overall.`,
		Example: `rtch-intake --goal "fix the flag parser" --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "ParseFlags is hydrated" | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate | rtch-packet --format md
rtch-hydrate --reenter internal/flag/parse.go:L120-L160
rtch-hydrate --rehydrate audit-logs/rtch/packets/rtch_packet_0123456789ab.yaml --jq '.overall != "refreshed"'`,
		Stdin: cli.OptionalStream,
		Flags: func(fs *flag.FlagSet) {
			fs.Var(&o.reenter, "reenter", "read `PATH:L<s>-L<e>` (or PATH:<line>, a window) again as an rtch.chunk (repeatable)")
			fs.StringVar(&o.rehydrate, "rehydrate", "", "re-read every chunk of the persisted packet `FILE` (YAML or JSON)")
			fs.IntVar(&o.budget, "budget-tokens", 0, "token budget `N` of the brief the chunks go into (default: the intake's budget_tokens, else the fanout level's)")
			fs.StringVar(&o.tokenizer, "tokenizer", "", "count tokens with `NAME`: chars4 (ceil(chars/4), the default), o200k or cl100k")
			fs.IntVar(&o.floor, "enough-floor", 0, "percent `N` of the chunk budget spent before the lane may stop for enough evidence, 1-100; 100 spends the whole budget (default: [hydrate] enough_floor, else 90)")
			fs.StringVar(&o.order, "function-order", "hand", "order the definitions read by `NAME`: hand (the hand-weighted evidence, the default) or learned (the model trained on the training corpus; measured lower on the briefs' line recall, for experiments)")
			fs.IntVar(&o.window, "window", 0, "half-width `N` of a window in lines (default: [hydrate] window, else 20)")
		},
		Inputs: func() []string {
			if o.rehydrate != "" {
				return []string{o.rehydrate}
			}
			return nil
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

// Main runs rtch-hydrate with the process's arguments.
func Main() int { return cli.Main(Tool()) }

// Protect is the protection every chunk passes: the injection probe, its
// rules and its learned model (flags injection:<pattern>,
// injection:model:<score>), then secret redaction (flags redacted:<rule>).
// Chunk text arrives already redacted from the whole file (hydrate.File), so
// the rules flagged are the marks the text holds, plus any this pass adds.
func Protect(text string) (string, []string) {
	flags := protect.Flags(protect.Scan(text))
	out := secret.String(text)
	for _, r := range secret.Rules(out) {
		flags = append(flags, "redacted:"+r)
	}
	return out, flags
}

// apply lets the flags given win over the configuration's options.
func (o *options) apply(opts *hydrate.Options) {
	if o.window > 0 {
		opts.Window = o.window
	}
	if o.budget > 0 {
		opts.Budget = o.budget
	}
	if o.floor > 0 {
		opts.EnoughFloor = o.floor
	}
	opts.LearnedFunctions = o.order == "learned"
}

func run(ctx context.Context, env *cli.Env, o *options) error {
	if len(env.Args) > 0 {
		return cli.UsageHint("re-enter a range with --reenter PATH:L<s>-L<e>", "unexpected argument %q", env.Args[0])
	}
	if o.window < 0 {
		return cli.Usage("--window %d: must be positive", o.window)
	}
	if o.floor < 0 || o.floor > 100 {
		return cli.Usage("--enough-floor %d: must be a percentage from 1 to 100", o.floor)
	}
	if o.order != "hand" && o.order != "learned" {
		return cli.Usage("--function-order %q: must be hand or learned", o.order)
	}
	if len(o.reenter) > 0 && o.rehydrate != "" {
		return cli.Usage("--reenter and --rehydrate are exclusive")
	}
	var ranges []hydrate.Range
	for _, a := range o.reenter {
		r, err := hydrate.ParseRange(a)
		if err != nil {
			return cli.Usage("--reenter %v", err)
		}
		ranges = append(ranges, r)
	}
	in := &hydrate.Input{}
	collect := in.Collect
	if len(ranges) > 0 || o.rehydrate != "" {
		// Standalone modes pass a stream through but only need its zone.
		collect = func(l record.Line) error {
			if l.Kind == schema.KindZone && l.V <= schema.V1 {
				in.Zone = new(schema.Zone)
				return l.Decode(in.Zone)
			}
			return nil
		}
	} else if env.In == nil {
		return cli.UsageHint("pipe rtch-probe into it, or use --reenter PATH:L<s>-L<e> or --rehydrate PACKET",
			"no record stream on standard input")
	}
	if err := env.Each(collect); err != nil {
		return err
	}
	switch {
	case len(ranges) > 0:
		return reenter(ctx, env, o, in, ranges)
	case o.rehydrate != "":
		return rehydrate(ctx, env, o, in)
	}
	if in.Rank == nil {
		return cli.Usage("%v", hydrate.ErrNoRank)
	}
	if in.Zone == nil {
		return cli.Usage("%v", hydrate.ErrNoZone)
	}
	cfg, _, err := env.LoadConfig(in.Zone.ZoneRoot)
	if err != nil {
		return err
	}
	opts := hydrate.NewOptions(cfg, in, in.Zone.ZoneRoot)
	o.apply(&opts)
	if o.tokenizer == "" {
		o.tokenizer = cfg.Tokenizer
	}
	if opts.Count, err = exact.Get(o.tokenizer); err != nil {
		return cli.Usage("--tokenizer: %v", err)
	}
	opts.Cache = env.Resident.HydrateCache()
	opts.Protect = opts.Cache.Protector(Protect)
	res, err := hydrate.Hydrate(in, opts)
	if err != nil {
		return cli.Failed(err)
	}
	if err := env.Out.Emit(hydrate.FunctionsRecord(res.Functions)); err != nil {
		return err
	}
	for _, c := range res.Chunks {
		if err := env.Out.Emit(c); err != nil {
			return err
		}
	}
	for _, s := range res.Skips {
		if err := env.Out.Emit(s); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// root finds the zone root: the stream's rtch.zone, else rtch-zone's rule.
func root(ctx context.Context, env *cli.Env, in *hydrate.Input) (string, error) {
	if in.Zone != nil && in.Zone.ZoneRoot != "" {
		return in.Zone.ZoneRoot, nil
	}
	r, err := zone.ResolveRoot(ctx, env.Dir, env.Getenv)
	if err != nil {
		return "", cli.Usage("zone root: %v", err)
	}
	return r.Dir, nil
}

func loadConfig(env *cli.Env, dir string) (*config.Config, error) {
	cfg, _, err := env.LoadConfig(dir)
	return cfg, err
}

func reenter(ctx context.Context, env *cli.Env, o *options, in *hydrate.Input, ranges []hydrate.Range) error {
	dir, err := root(ctx, env, in)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(env, dir)
	if err != nil {
		return err
	}
	ro := hydrate.ReenterOptions{
		Root:        dir,
		Window:      cfg.Hydrate.Window,
		MaxFileSize: cfg.MaxFileSize(),
		Protect:     Protect,
		Commit:      hydrate.GitHead(dir),
	}
	if o.window > 0 {
		ro.Window = o.window
	}
	for _, r := range ranges {
		c, err := hydrate.Reenter(r, ro)
		if err != nil {
			return cli.Failed(err)
		}
		if err := env.Out.Emit(c); err != nil {
			return err
		}
	}
	return nil
}

func rehydrate(ctx context.Context, env *cli.Env, o *options, in *hydrate.Input) error {
	p, err := packet.Load(o.rehydrate)
	if err != nil {
		return cli.Usage("--rehydrate %v", err)
	}
	// The root: $RTCH_ZONE_ROOT or the stream's zone win; else the packet's own
	// zone_root when it still exists; else rtch-zone's rule.
	dir := ""
	if env.Getenv(zone.EnvRoot) == "" && (in.Zone == nil || in.Zone.ZoneRoot == "") {
		if zr := p.ZoneDescriptor.ZoneRoot; zr != "" && filepath.IsAbs(zr) && isDir(zr) {
			dir = zr
		}
	}
	if dir == "" {
		if dir, err = root(ctx, env, in); err != nil {
			return err
		}
	}
	cfg, err := loadConfig(env, dir)
	if err != nil {
		return err
	}
	res := hydrate.Rehydrate(p, hydrate.RehydrateOptions{Root: dir, PacketPath: o.rehydrate, MaxFileSize: cfg.MaxFileSize()})
	if res.Overall != hydrate.Refreshed && res.Overall != hydrate.EffectiveRecordHold {
		env.Warnf("packet %s: %s (%v)", p.PacketID, res.Overall, res.Counts)
	}
	return env.Out.Emit(res)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
