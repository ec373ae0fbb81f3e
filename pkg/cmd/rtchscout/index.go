package rtchscout

import (
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/codegraph"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/index"
)

// IndexFlags are --index and --no-index, shared by rtch-scout and
// rtch-probe.
type IndexFlags struct {
	Dir string
	Off bool
}

// Register adds the flags to fs.
func (f *IndexFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Dir, "index", "", "keep the tree index in `DIR` (default: the user cache directory, or [index] dir)")
	fs.BoolVar(&f.Off, "no-index", false, "read every file and leave the tree index alone, whatever the configuration says")
}

// Open opens the tree index of root that the flags and the configuration
// ask for (nil when off). fp is the fingerprint of what the caller stores.
func (f *IndexFlags) Open(env *cli.Env, cfg *config.Config, root string, fp [32]byte) (*index.Index, error) {
	w, err := f.where(env.Resident.IndexChoice(), cfg, root)
	if err != nil {
		return nil, err
	}
	ix, err := env.Resident.OpenIndex(root, w, fp, func(s string) { env.Warnf("%s", s) })
	if err != nil {
		return nil, cli.Usage("%v", err)
	}
	return ix, nil
}

// graphFacts is the file, beside root's index, that keeps the code graph's
// per-file facts between builds.
const graphFacts = "graph-facts"

// GraphCache opens the code graph's facts cache beside root's index, or
// returns nil when the index is off. A cache that cannot be used warns and
// the graph is built without it, as a missing default index directory does;
// a directory the user named that cannot be used is an error.
func (f *IndexFlags) GraphCache(env *cli.Env, cfg *config.Config, root string) (*codegraph.FactsCache, error) {
	w, err := f.where(env.Resident.IndexChoice(), cfg, root)
	if err != nil {
		return nil, err
	}
	under, file, err := index.Beside(root, w, graphFacts)
	if err == nil && file != "" {
		var c *codegraph.FactsCache
		var warning string
		if c, warning, err = codegraph.OpenFactsCache(under, file); err == nil {
			if warning != "" {
				env.Warnf("%s", warning)
			}
			return c, nil
		}
	}
	if err == nil {
		return nil, nil
	}
	if w.Dir != "" {
		return nil, cli.Usage("--index / [index] dir: %v", err)
	}
	env.Warnf("building the graph without its facts cache: %v", err)
	return nil, nil
}

// where decides where the index is, first decider first: the flags, the
// host's flags (rtch-mcp's --index, --no-index), the configuration
// ([index] dir, or enabled), the host's default; otherwise it is on in the
// user cache directory, by default.
func (f *IndexFlags) where(host cli.IndexChoice, cfg *config.Config, root string) (index.Where, error) {
	switch {
	case f.Off || f.Dir != "":
		return index.Where{Dir: f.Dir, Off: f.Off}, nil
	case host.Flag != nil:
		return *host.Flag, nil
	case cfg.Index.Dir != "":
		return configDir(cfg, root)
	case cfg.Index.Enabled != nil:
		return index.Where{Off: !*cfg.Index.Enabled}, nil
	case host.Default:
		return index.Where{}, nil
	}
	return index.Where{Default: true}, nil
}

// configDir is the index directory [index] dir names: a relative one is
// inside the tree, reached from the zone root without a symlink; an
// absolute one is taken only from a configuration file outside the tree
// (the user's own, named with --config): a repository's may not send a
// write elsewhere.
func configDir(cfg *config.Config, root string) (index.Where, error) {
	dir := cfg.Index.Dir
	if filepath.IsAbs(dir) {
		if config.InTree(root, cfg.File) {
			return index.Where{}, cli.UsageHint("keep the index in the user cache directory ([index] enabled = true), or name it with --index DIR",
				"%s: [index] dir %q: a configuration inside the tree may only name a directory inside it, relative to the zone root", cfg.File, dir)
		}
		return index.Where{Dir: dir}, nil
	}
	if !filepath.IsLocal(dir) {
		return index.Where{}, cli.Usage("%s: [index] dir %q leaves the zone root; name a directory inside it, or an absolute one in your own --config file", cfg.File, dir)
	}
	return index.Where{Dir: filepath.Join(root, dir), Root: root}, nil
}

// Progress reports files done, the total and the rate, as a progress line
// (shown only when stderr is a terminal and not under -q).
func Progress(env *cli.Env, verb string) func(done, total int) {
	start := time.Now()
	return func(done, total int) {
		rate := float64(done) / max(time.Since(start).Seconds(), 1e-3)
		env.Progressf("%s %d/%d files, %s files/s", verb, done, total, fmt.Sprintf("%.0f", rate))
	}
}
