package cli

import (
	"context"

	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/walk"
	"github.com/rtch/rtch/pkg/zone"
)

// Resident is what a long-lived host (rtch-mcp) keeps between the runs of
// the tools it runs in process, so that a repeat run does not redo what the
// host already knows. A tool run by a shell has none: Env.Resident is nil and
// every stage walks the tree and opens the index itself.
type Resident struct {
	// Files lists the tree instead of walk.Files (a snapshot the host keeps
	// current); nil walks.
	Files walk.Lister
	// Indexes holds tree indexes open across runs; nil opens them afresh.
	Indexes *index.Keeper
	// Index is the host's say in where its runs keep the tree index.
	Index IndexChoice
	// Hydrated keeps what rtch-hydrate derives from the files it reads
	// and the chunk texts it protects; nil derives them on every run.
	Hydrated *hydrate.Cache
	// Git keeps the zone's git snapshot while the watched tree and git's
	// state stand; nil asks git on every run.
	Git *zone.GitCache
	// Pace holds back the file reads of a run the host makes in the
	// background (walk.Options.Pace) while it serves calls; nil for a
	// call's own run.
	Pace func(ctx context.Context)
}

// IndexChoice is what a host decides of the tree index of the tools it
// runs (rtch-scout and rtch-probe read it through their index flags).
type IndexChoice struct {
	// Flag, when set, acts as the tools' own --index DIR or --no-index
	// would (the host's flags): it wins over the configuration.
	Flag *index.Where
	// Default turns the index on, in the user cache directory, where
	// neither the tools' flags nor the configuration decide.
	Default bool
}

// IndexChoice is r's index choice; a shell's (r nil) is none.
func (r *Resident) IndexChoice() IndexChoice {
	if r == nil {
		return IndexChoice{}
	}
	return r.Index
}

// ReadPace is r's pace for the stages' file reads, nil (none) for a
// shell's run or a call's.
func (r *Resident) ReadPace() func(context.Context) {
	if r == nil {
		return nil
	}
	return r.Pace
}

// Lister is r's file lister, nil (walk.Files) without one.
func (r *Resident) Lister() walk.Lister {
	if r == nil {
		return nil
	}
	return r.Files
}

// HydrateCache is r's hydration cache, nil (none) for a shell's run.
func (r *Resident) HydrateCache() *hydrate.Cache {
	if r == nil {
		return nil
	}
	return r.Hydrated
}

// GitCache is r's git snapshot cache, nil (none) for a shell's run.
func (r *Resident) GitCache() *zone.GitCache {
	if r == nil {
		return nil
	}
	return r.Git
}

// OpenIndex opens root's index where w says, through the keeper when there
// is one.
func (r *Resident) OpenIndex(root string, w index.Where, fp [32]byte, warn func(string)) (*index.Index, error) {
	if r == nil || r.Indexes == nil {
		return index.OpenFor(root, w, fp, warn)
	}
	return r.Indexes.OpenFor(root, w, fp, warn)
}
