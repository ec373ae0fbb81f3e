// Package rtchscout is the rtch-scout command: stages 3 and 4 of the lane. It
// reads the record stream (it needs rtch.intake and rtch.zone), passes every
// record through, walks the zone root once running the shape scans, and
// appends rtch.skip records for what the walk could not read, one rtch.shape,
// the rtch.candidate records of the basket and the closing rtch.basket.
//
// The stage needs the whole input before it can scout (the intake and the
// zone may come in any order), so it emits its own records after the last
// input record.
package rtchscout

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/rtch/rtch/pkg/basket"
	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/codegraph"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
	"github.com/rtch/rtch/pkg/walk"
)

// Tool returns the rtch-scout tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:     "rtch-scout",
		HugeHeap: 512 << 20, // an index build over GOROOT/src grows to about 330 MB
		Summary:  "scout the zone's shape and build the candidate basket",
		Usage:    "rtch-scout [flags] < stream",
		Description: `Reads the record stream (rtch.intake and rtch.zone are required), passes it
through unchanged, walks the zone root once and runs every structural scan on
each text file: directory map, file names, markdown headings, frontmatter
keys, durable handles ([scout] durable_handles), JSON/YAML/TOML keys, code
symbol definitions (Go, Python, JS/TS, Rust, Java, C/C++, Ruby),
source-of-truth phrases, deprecation markers, and the document frequency of
every goal term. Then it classifies every term (origin and use), applies the
pairing rule to generic terms, turns forbidden assumptions into exclusions
and known neighbors into neighbor-only surfaces.

Appends: rtch.skip (one per file the walk could not read), rtch.shape,
rtch.candidate (one per term, most trusted origin first), rtch.relations
when the intake recognised a disposition goal (keep, merge, sunset,
deprecate, delete …: the artifact's importers, callers, entry points,
overlapping artifacts and git history, from the code graph), rtch.basket.

--graph FILE also writes the code knowledge graph of the zone root
(guild.knowledge_graph.v1: files, packages and modules, symbols; contains,
defines, imports, calls, references, embeds, inherits edges) to FILE,
atomically. With --root DIR it builds only the graph of DIR and needs no
stream (one on stdin passes through unchanged); the rtch.skip records of
that walk follow it. Guild's tools read
the graph at .guild/indexes/knowledge-graph.json.`,
		Example: `rtch-intake --goal "fix trailing <nil> on help output" --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "the faulty line is found" | rtch-zone | rtch-scout | rtch-probe
rtch-intake … | rtch-zone | rtch-scout --jq 'select(.kind == "rtch.candidate") | .origin != "exploratory"'
rtch-scout --root . --graph .guild/indexes/knowledge-graph.json`,
		Stdin: cli.OptionalStream,
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&o.noTiming, "no-timing", false, "record every scan's wall_ms as 0, so two runs over the same tree are byte-identical")
			fs.StringVar(&o.graph, "graph", "", "also write the code knowledge graph of the tree to `FILE` (guild.knowledge_graph.v1)")
			fs.StringVar(&o.root, "root", "", "with --graph: build only the graph of `DIR`; no record stream is needed")
			o.index.Register(fs)
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

type options struct {
	noTiming bool
	graph    string
	root     string
	index    IndexFlags
}

// Main runs rtch-scout with the process's arguments.
func Main() int { return cli.Main(Tool()) }

func run(ctx context.Context, env *cli.Env, opt *options) error {
	if opt.root != "" {
		return graphOnly(ctx, env, opt)
	}
	if env.In == nil {
		return cli.UsageHint("pipe the previous stage into it, e.g. rtch-intake … | rtch-zone | rtch-scout, or build a graph alone with --root DIR --graph FILE",
			"no record stream on standard input")
	}
	if len(env.Args) > 0 {
		return cli.UsageHint("rtch-scout reads the record stream on standard input", "unexpected argument %q", env.Args[0])
	}
	var (
		in   *schema.Intake
		zone *schema.Zone
	)
	err := env.Each(func(l record.Line) error {
		switch l.Kind {
		case schema.KindIntake:
			var x schema.Intake
			if err := l.Decode(&x); err != nil {
				return cli.Failed(fmt.Errorf("%s:%v", env.In.Name(), err))
			}
			in = &x
		case schema.KindZone:
			var z schema.Zone
			if err := l.Decode(&z); err != nil {
				return cli.Failed(fmt.Errorf("%s:%v", env.In.Name(), err))
			}
			zone = &z
		}
		return nil
	})
	if err != nil {
		return err
	}
	if zone == nil {
		return cli.UsageHint("pipe rtch-intake … | rtch-zone into rtch-scout", "no rtch.zone record on input; run rtch-zone first")
	}
	if in == nil {
		return cli.UsageHint("start the pipeline with rtch-intake", "no rtch.intake record on input; run rtch-intake first")
	}
	cfg, _, err := env.LoadConfig(zone.ZoneRoot)
	if err != nil {
		return err
	}
	o := scout.Options{
		Walk:         scout.WalkOptions(cfg, zone.ZoneRoot),
		Terms:        basket.ScoutTerms(*in, handlesOrNil(cfg.Scout.DurableHandles)),
		Groups:       basket.ScoutGroups(*in),
		NameParts:    basket.ScoutNameParts(*in),
		Handles:      handlesOrNil(cfg.Scout.DurableHandles),
		FindingsCap:  cfg.Scout.FindingsCap,
		CeilingBytes: cfg.Scout.CeilingBytes,
		CeilingMS:    cfg.Scout.CeilingMS,
		Exclude:      forbiddenPaths(in.ForbiddenAssumptions),
		Progress:     Progress(env, "scouting"),
	}
	ix, err := opt.index.Open(env, cfg, zone.ZoneRoot, scout.IndexFingerprint(o.Handles))
	if err != nil {
		return err
	}
	defer ix.Close()
	o.Index = ix
	o.List = env.Resident.Lister()
	o.Walk.Pace = env.Resident.ReadPace()
	o.Walk.Warn = func(format string, args ...any) { env.Warnf(format, args...) }
	var skips []walk.Skip
	o.Skip = func(s walk.Skip) { skips = append(skips, s) }
	res, err := scout.Run(ctx, o)
	env.ProgressDone()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cli.Failed(fmt.Errorf("scout %s: %v", zone.ZoneRoot, err))
	}
	if ix != nil {
		env.Progressf("index: read %d of %d files, answered for the others", res.Read, len(res.Files))
		env.ProgressDone()
		if _, err := ix.Save(res.Files); err != nil {
			env.Warnf("the tree index was not saved: %v", err)
		}
	}
	if err := emitSkips(env, skips, "scout"); err != nil {
		return err
	}
	var built *codegraph.Result
	if opt.graph != "" || in.Disposition != nil {
		// The scout's own walk already reported every skip of this one.
		if built, err = buildGraph(ctx, env, cfg, &opt.index, zone.ZoneRoot, nil); err != nil {
			return err
		}
	}
	if opt.graph != "" {
		if err := writeGraph(built, opt.graph); err != nil {
			return err
		}
	}
	if opt.noTiming {
		for i := range res.Shape.ShapeInventory {
			res.Shape.ShapeInventory[i].WallMS = 0
		}
	}
	res.Shape.Envelope = record.Env(schema.KindShape, schema.V1, in.IntakeHash, zone.ZoneRoot)
	if err := env.Out.Emit(res.Shape); err != nil {
		return err
	}
	b := basket.Build(basket.Input{Intake: *in, Zone: *zone, Scout: res, Generic: genericOrNil(cfg.Scout.GenericTerms),
		Handles: handlesOrNil(cfg.Scout.DurableHandles)})
	for _, c := range b.Candidates {
		if err := env.Out.Emit(c); err != nil {
			return err
		}
	}
	if in.Disposition != nil {
		r, err := relations(ctx, built, zone.ZoneRoot, in)
		if err != nil {
			return err
		}
		if err := env.Out.Emit(r); err != nil {
			return err
		}
	}
	for _, w := range b.Basket.GenericAloneWarnings {
		env.Warnf("generic term %q is weak alone: no seed, handle, heading or file shape pairs it", w)
	}
	return env.Out.Emit(b.Basket)
}

func handlesOrNil(h []string) []string {
	if len(h) == 0 {
		return nil
	}
	return h
}

func genericOrNil(g []string) []string {
	if len(g) == 0 {
		return nil
	}
	return g
}

// forbiddenPaths are the path patterns among the forbidden assumptions.
func forbiddenPaths(fs []string) []string {
	var out []string
	for _, f := range fs {
		if scout.IsPathPattern(strings.TrimSpace(f)) {
			out = append(out, strings.TrimSpace(f))
		}
	}
	return out
}
