package rtchmcp

import (
	"flag"
	"os"
	"path/filepath"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/snapshot"
	"github.com/rtch/rtch/pkg/watch"
	"github.com/rtch/rtch/pkg/zone"
)

// Hot is what the server keeps between calls, and how: the tree's walk,
// followed by a watcher (pkg/snapshot, pkg/watch), the tree index, held
// open (index.Keeper) and on by default, and the lanes of the questions
// asked since the tree last changed (memo.go; docs/decisions/rtch-mcp.md).
type Hot struct {
	// Getenv is the environment the stages see (nil for os.Getenv).
	Getenv func(string) string
	// Warn hears the server's own warnings (nil: dropped).
	Warn func(string)
	// IndexDir is --index: the index directory for rtch-scout and
	// rtch-probe; "" is the root's configuration when it names one, else
	// the user cache directory.
	IndexDir string
	// NoIndex is --no-index: every call that runs the lane reads every file.
	NoIndex bool
	// NoWatch is --no-watch: every call walks the tree.
	NoWatch bool
	// NoMemo is --no-memo: every rtch_context call runs the whole lane,
	// even a repeat on an unchanged tree.
	NoMemo bool
	// WatchLimit is --watch-limit: the most directories to watch; a tree
	// with more is walked on every call (0: the kernel's limit).
	WatchLimit int
	// holdBuild, when set, holds the background index build back until it
	// is closed (tests).
	holdBuild <-chan struct{}
}

// Register adds the flags.
func (o *Hot) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.IndexDir, "index", "", "keep the tree index in `DIR` (default: the root's [index] dir, else the user cache directory)")
	fs.BoolVar(&o.NoIndex, "no-index", false, "no tree index: every rtch_context call that runs the lane reads every file")
	fs.BoolVar(&o.NoWatch, "no-watch", false, "do not follow the tree: every rtch_context call walks it")
	fs.BoolVar(&o.NoMemo, "no-memo", false, "run the whole lane on every rtch_context call, also a repeat of the same question on an unchanged tree")
	fs.IntVar(&o.WatchLimit, "watch-limit", 0, "watch at most `N` directories; a bigger tree is walked on every call (0: the kernel's inotify limit)")
}

// keep sets up what the handler reuses between calls.
func (h *handler) keep(o Hot) error {
	secret.KeepFindings() // the redactor's findings by text, for the process
	h.resident = &cli.Resident{Indexes: &index.Keeper{}, Index: indexChoice(h.root.Dir, o), Hydrated: &hydrate.Cache{}}
	if !o.NoWatch {
		t, err := snapshot.New(h.root.Dir, watch.Options{Limit: o.WatchLimit})
		if err != nil {
			return err
		}
		h.tree = t
		h.resident.Files = t.Files
		h.resident.Git = &zone.GitCache{Root: h.root.Dir, Version: t.Version}
		if !o.NoMemo {
			h.memo = &memo{}
		}
	}
	h.buildIndex(o)
	return nil
}

// buildIndex starts the background index build (indexer.go) unless the
// index is off.
func (h *handler) buildIndex(o Hot) {
	if o.NoIndex {
		return
	}
	h.indexer = newIndexer(h, o.Warn)
	h.indexer.start(o.holdBuild)
}

// residentNow is the resident state a call starting now runs its stages
// with.
func (h *handler) residentNow() *cli.Resident {
	if h.indexer == nil {
		return h.resident
	}
	return h.indexer.resident()
}

// release stops the index build and the watcher and unmaps the indexes.
func (h *handler) release() {
	if h.indexer != nil {
		h.indexer.stop()
	}
	if h.tree != nil {
		h.tree.Close()
	}
	if h.resident != nil && h.resident.Indexes != nil {
		h.resident.Indexes.Close()
	}
}

// indexChoice is what the server decides of the index of rtch-scout and
// rtch-probe: --no-index and --index DIR as their own flags would; without
// them, on in the user cache directory where the zone's configuration does
// not decide (the stages read it on every call), unless that directory
// cannot be created (the server warns once and goes without).
func indexChoice(root string, o Hot) cli.IndexChoice {
	switch {
	case o.NoIndex:
		return cli.IndexChoice{Flag: &index.Where{Off: true}}
	case o.IndexDir != "":
		return cli.IndexChoice{Flag: &index.Where{Dir: o.IndexDir}}
	}
	dir, err := index.Dir(root, "")
	if err == nil {
		err = os.MkdirAll(filepath.Dir(dir), 0o700)
	}
	if err != nil {
		if o.Warn != nil {
			o.Warn("running without the tree index unless the configuration names one: " + err.Error())
		}
		return cli.IndexChoice{}
	}
	return cli.IndexChoice{Default: true}
}
