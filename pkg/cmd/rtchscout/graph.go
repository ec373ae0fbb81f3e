package rtchscout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/codegraph"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/disposition"
	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/walk"
)

// graphOnly builds the graph of --root without needing a record stream: a
// stream on stdin, if any, passes through unchanged, then rtch.skip records
// for what the walk could not read follow.
func graphOnly(ctx context.Context, env *cli.Env, opt *options) error {
	if len(env.Args) > 0 {
		return cli.UsageHint("rtch-scout --graph FILE --root DIR takes no arguments", "unexpected argument %q", env.Args[0])
	}
	if opt.graph == "" {
		return cli.UsageHint("add --graph FILE: --root names the tree a graph is built from", "--root without --graph")
	}
	info, err := os.Stat(opt.root)
	if err != nil || !info.IsDir() {
		return cli.UsageHint("give --root an existing directory", "--root %s: not a directory", opt.root)
	}
	root, err := filepath.Abs(opt.root)
	if err != nil {
		return cli.UsageHint("give --root an existing directory", "--root %s: %v", opt.root, err)
	}
	cfg, _, err := env.LoadConfig(root)
	if err != nil {
		return err
	}
	if err := env.Each(nil); err != nil {
		return err
	}
	var skips []walk.Skip
	res, err := buildGraph(ctx, env, cfg, &opt.index, root, func(s walk.Skip) { skips = append(skips, s) })
	if err != nil {
		return err
	}
	if err := writeGraph(res, opt.graph); err != nil {
		return err
	}
	return emitSkips(env, skips, "graph")
}

// buildGraph builds the code graph of root.
func buildGraph(ctx context.Context, env *cli.Env, cfg *config.Config, ix *IndexFlags, root string, skip func(walk.Skip)) (*codegraph.Result, error) {
	wo := scout.WalkOptions(cfg, root)
	wo.Warn = func(format string, args ...any) { env.Warnf(format, args...) }
	wo.Progress = func(done, total int) { env.Progressf("graph: reading %d/%d files", done, total) }
	cache, err := ix.GraphCache(env, cfg, root)
	if err != nil {
		return nil, err
	}
	res, err := codegraph.BuildTree(ctx, codegraph.TreeOptions{
		Walk:    wo,
		Skip:    skip,
		Problem: func(p string) { env.Warnf("%s; the file is in the graph without its symbols", p) },
		Cache:   cache,
	})
	env.ProgressDone()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, cli.Failed(fmt.Errorf("graph of %s: %v", root, err))
	}
	if cache != nil {
		if err := cache.Save(); err != nil {
			env.Warnf("the graph facts cache was not saved: %v", err)
		}
	}
	return res, nil
}

// writeGraph writes a built graph to file atomically: the whole graph or, on
// any failure, the old file untouched. Missing parent directories are
// created (the graph's usual home, .guild/indexes/, may not exist yet),
// beneath the working directory for a relative path, never through a
// symlink.
func writeGraph(res *codegraph.Result, file string) error {
	p, err := atomicfile.CreateAll(file, 0o644)
	if err != nil {
		return cli.Failed(fmt.Errorf("--graph %s: %v", file, err))
	}
	// every byte a tool writes passes the redactor: a path, an import or a
	// summary that holds a secret is written with its mark
	w := secret.NewWriter(p)
	_, err = res.Graph.WriteTo(w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		p.Cleanup()
		return cli.Failed(fmt.Errorf("--graph %s: %v", file, err))
	}
	if err := p.Commit(); err != nil {
		return cli.Failed(fmt.Errorf("--graph %s: %v", file, err))
	}
	return nil
}

func emitSkips(env *cli.Env, skips []walk.Skip, stage string) error {
	for _, s := range skips {
		rec := schema.Skip{Envelope: record.Env(schema.KindSkip, schema.V1, stage, s.Path, s.Reason),
			Path: s.Path, Reason: s.Reason, SizeBytes: s.SizeBytes, Stage: stage, Detail: s.Detail}
		if err := env.Out.Emit(rec); err != nil {
			return err
		}
	}
	return nil
}

// relations gathers the relational surface of the intake's disposition from
// the built graph.
func relations(ctx context.Context, res *codegraph.Result, root string, in *schema.Intake) (schema.Relations, error) {
	g, _, err := graph.Build(res.Graph.File)
	if err != nil {
		return schema.Relations{}, cli.Failed(fmt.Errorf("graph of %s: %v", root, err))
	}
	r := disposition.Surface(ctx, g, root, *in.Disposition)
	r.Envelope = record.Env(schema.KindRelations, schema.V1, in.IntakeHash, in.Disposition.Artifact)
	return r, nil
}
