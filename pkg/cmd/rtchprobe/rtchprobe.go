// Package rtchprobe is the rtch-probe command: stage 5 of the lane. It reads
// the record stream (rtch.intake, rtch.zone, rtch.candidate… and rtch.basket
// are required), passes it through, plans the typed probes within the fanout
// budget, executes them all in one parallel pass over the zone, and appends
// rtch.skip (forbidden or newly unreadable surfaces), the rtch.probe plan, the
// rtch.hit records and one rtch.rank with the ranked surfaces.
//
// Like rtch-scout it needs the whole input first, so its records follow the
// last input record.
package rtchprobe

import (
	"context"
	"flag"
	"fmt"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/probe"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

type options struct {
	planOnly bool
	hits     int
	rankCap  int
	index    rtchscout.IndexFlags
	features string
	ranker   string
}

// Tool returns the rtch-probe tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:     "rtch-probe",
		HugeHeap: 256 << 20, // 27 MB warm on GOROOT/src, more cold
		Summary:  "plan and execute typed probes in one pass, and rank the surfaces",
		Usage:    "rtch-probe [--plan-only] [flags] < stream",
		Description: `Reads the record stream (rtch.intake, rtch.zone, rtch.candidate and rtch.basket
are required), passes it through unchanged, and plans typed probes from the
basket: explicit_seed, durable_handle, file_inventory, code_symbol, heading,
json_yaml_key, reference_backlink, caution, source_of_truth_phrase,
temporal_provenance and exploratory body_term probes, never more than the
fanout level allows (conservative 5, normal 12, wide 25; [fanout] in
.rtch.toml). All probes run in one parallel pass over the zone: every file is
read once and every term found by one case-folded literal scan. The pass is
also the cost dry run: a probe whose target set exceeds 100 files or 50,000
lines runs only at wide (as exploratory), otherwise it is skipped_cost.

Appends: rtch.skip (forbidden surfaces), rtch.probe (the plan, with costs,
status and hit counts), rtch.hit (per executed probe, its target files in rank
order, at most max-files-per-probe files and --hits hits), rtch.rank (the
surfaces in rank order with score, reasons and anchor lines).`,
		Example: `rtch-intake --goal "fix trailing <nil> on help output" --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "the faulty line is found" | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate
rtch-intake … | rtch-zone | rtch-scout | rtch-probe --plan-only --jq 'select(.kind == "rtch.probe")'`,
		Stdin: cli.StreamIn,
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&o.planOnly, "plan-only", false, "emit the plan (with its dry-run costs) and no hits or ranking")
			fs.IntVar(&o.hits, "hits", probe.DefaultHitsPerProbe, "at most `N` rtch.hit records per probe")
			fs.IntVar(&o.rankCap, "rank-cap", probe.DefaultRankCap, "at most `N` surfaces in rtch.rank")
			fs.StringVar(&o.ranker, "ranker", probe.DefaultRanker, "the ranking `NAME`: classic (the hand-written one) or learned (a linear model over its evidence, trained on bug fixes of other repositories); under both a copy is ranked with its source")
			fs.StringVar(&o.features, "features", "", "write the ranking features of the first files to `FILE` (NDJSON, for training a ranking)")
			o.index.Register(fs)
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

// Main runs rtch-probe with the process's arguments.
func Main() int { return cli.Main(Tool()) }

func run(ctx context.Context, env *cli.Env, o *options) error {
	if len(env.Args) > 0 {
		return cli.UsageHint("rtch-probe reads the record stream on standard input", "unexpected argument %q", env.Args[0])
	}
	if o.hits < 1 || o.rankCap < 1 {
		return cli.Usage("--hits and --rank-cap must be at least 1")
	}
	if o.ranker != probe.RankerLearned && o.ranker != probe.RankerClassic {
		return cli.Usage("--ranker is %s or %s, not %q", probe.RankerLearned, probe.RankerClassic, o.ranker)
	}
	var (
		in     *schema.Intake
		zone   *schema.Zone
		shape  *schema.Shape
		basket *schema.Basket
		cands  []schema.Candidate
		skips  = map[string]bool{}
	)
	decode := func(l record.Line, v any) error {
		if err := l.Decode(v); err != nil {
			return cli.Failed(fmt.Errorf("%s:%v", env.In.Name(), err))
		}
		return nil
	}
	err := env.Each(func(l record.Line) error {
		switch l.Kind {
		case schema.KindIntake:
			in = &schema.Intake{}
			return decode(l, in)
		case schema.KindZone:
			zone = &schema.Zone{}
			return decode(l, zone)
		case schema.KindShape:
			shape = &schema.Shape{}
			return decode(l, shape)
		case schema.KindBasket:
			basket = &schema.Basket{}
			return decode(l, basket)
		case schema.KindCandidate:
			var c schema.Candidate
			if err := decode(l, &c); err != nil {
				return err
			}
			cands = append(cands, c)
		case schema.KindSkip:
			var s schema.Skip
			if err := decode(l, &s); err != nil {
				return err
			}
			skips[s.Path] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case basket == nil:
		return cli.UsageHint("pipe rtch-scout into rtch-probe", "no rtch.basket record on input; run rtch-scout first")
	case zone == nil:
		return cli.UsageHint("pipe rtch-intake … | rtch-zone | rtch-scout into rtch-probe", "no rtch.zone record on input; run rtch-zone first")
	case in == nil:
		return cli.UsageHint("start the pipeline with rtch-intake", "no rtch.intake record on input; run rtch-intake first")
	}
	cfg, _, err := env.LoadConfig(zone.ZoneRoot)
	if err != nil {
		return err
	}
	po := probe.Options{
		Walk:         scout.WalkOptions(cfg, zone.ZoneRoot),
		Intake:       *in,
		Candidates:   cands,
		Basket:       *basket,
		Budget:       cfg.FanoutFor(in.FanoutLevel),
		HitsPerProbe: o.hits,
		RankCap:      o.rankCap,
		PlanOnly:     o.planOnly,
		Progress:     rtchscout.Progress(env, "probing"),
		Ranker:       o.ranker,
	}
	var feats *featureFile
	if o.features != "" {
		feats = &featureFile{path: env.Path(o.features)}
		po.Features = feats.keep
	}
	// The probe only reads the index; rtch-scout, before it in the lane,
	// keeps it up to date. A damaged entry the probe alone reads is
	// dropped from it after the run (Repair), for the scout to store
	// afresh.
	ix, err := o.index.Open(env, cfg, zone.ZoneRoot, scout.IndexFingerprint(handlesOrNil(cfg.Scout.DurableHandles)))
	if err != nil {
		return err
	}
	defer ix.Close()
	po.Index = ix
	po.List = env.Resident.Lister()
	if shape != nil {
		po.AvgBytes = shape.Corpus.AvgLen * 4
	}
	res, err := probe.Run(ctx, po)
	if err == nil && ix != nil {
		env.Progressf("index: read %d files, answered for the others", res.Read)
		if _, rerr := ix.Repair(); rerr != nil {
			env.Warnf("the damaged index was not rewritten: %v", rerr)
		}
	}
	env.ProgressDone()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cli.Failed(fmt.Errorf("probe %s: %v", zone.ZoneRoot, err))
	}
	if feats != nil {
		// Before any record: a run that cannot keep its features emits
		// nothing.
		if err := feats.write(); err != nil {
			return cli.Failed(err)
		}
	}
	for _, s := range res.Skips {
		if skips[s.Path] {
			continue // the scout already reported it
		}
		rec := schema.Skip{Envelope: record.Env(schema.KindSkip, schema.V1, "probe", s.Path, s.Reason),
			Path: s.Path, Reason: s.Reason, SizeBytes: s.SizeBytes, Stage: "probe", Detail: s.Detail}
		if err := env.Out.Emit(rec); err != nil {
			return err
		}
	}
	for _, p := range res.Probes {
		if err := env.Out.Emit(p); err != nil {
			return err
		}
	}
	for _, h := range res.Hits {
		if err := env.Out.Emit(h); err != nil {
			return err
		}
	}
	if res.Rank != nil {
		return env.Out.Emit(res.Rank)
	}
	return nil
}

func handlesOrNil(h []string) []string {
	if len(h) == 0 {
		return nil
	}
	return h
}
