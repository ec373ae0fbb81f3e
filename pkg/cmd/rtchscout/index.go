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
	fs.StringVar(&f.Dir, "index", "", "use the tree index in `DIR` (off by default; [index] enabled puts it in the user cache directory, [index] dir elsewhere)")
	fs.BoolVar(&f.Off, "no-index", false, "read every file and leave the tree index alone, whatever the configuration says")
}

// Open opens the tree index of root that the flags and the configuration
// ask for (nil when off). fp is the fingerprint of what the caller stores.
func (f *IndexFlags) Open(env *cli.Env, cfg *config.Config, root string, fp [32]byte) (*index.Index, error) {
	ix, err := env.Resident.OpenIndex(root, f.where(env.Resident.IndexChoice(), cfg, root), fp, func(s string) { env.Warnf("%s", s) })
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
	w := f.where(env.Resident.IndexChoice(), cfg, root)
	file, err := index.Beside(root, w, graphFacts)
	if err == nil && file != "" {
		var c *codegraph.FactsCache
		var warning string
		if c, warning, err = codegraph.OpenFactsCache(file); err == nil {
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
// ([index] dir, relative to the zone root, or enabled), the host's default
// (rtch-mcp turns it on); otherwise it is off.
func (f *IndexFlags) where(host cli.IndexChoice, cfg *config.Config, root string) index.Where {
	switch {
	case f.Off || f.Dir != "":
		return index.Where{Dir: f.Dir, Off: f.Off}
	case host.Flag != nil:
		return *host.Flag
	case cfg.Index.Dir != "":
		dir := cfg.Index.Dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		return index.Where{Dir: dir}
	case cfg.Index.Enabled || host.Default:
		return index.Where{}
	}
	return index.Where{Off: true}
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
