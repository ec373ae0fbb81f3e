package rtchscout

import (
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/rtch/rtch/pkg/cli"
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
	w := index.Where{Dir: f.Dir, Off: f.Off || (f.Dir == "" && !cfg.Index.Enabled && cfg.Index.Dir == "")}
	if w.Dir == "" && cfg.Index.Dir != "" {
		w.Dir = cfg.Index.Dir
		if !filepath.IsAbs(w.Dir) {
			w.Dir = filepath.Join(root, w.Dir)
		}
	}
	ix, err := env.Resident.OpenIndex(root, w, fp, func(s string) { env.Warnf("%s", s) })
	if err != nil {
		return nil, cli.Usage("%v", err)
	}
	return ix, nil
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
