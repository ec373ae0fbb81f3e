package recall

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/pgfts"
	"github.com/rtch/rtch/pkg/pgtrust"
	"github.com/rtch/rtch/pkg/wiki"
)

// searchPostgres refreshes the root's wiki in the shared PostgreSQL index
// and searches it. Unlike the SQLite index there is no fallback: a server
// that cannot be reached, refuses the credentials or holds a newer schema,
// a wiki name bound to another tree, or a shallow clone is an InputError
// (nothing recalled, nothing written), and any later failure is an error
// too — a team that configured a shared index must not
// silently get another mechanism's answer.
func searchPostgres(ctx context.Context, opt Options, root string, files []wiki.File, listDiags []wiki.Diagnostic, set guildconfig.Settings, res *Result, warn func(string)) ([]chunk, error) {
	if files == nil {
		files = []wiki.File{}
	}
	rel, _ := filepath.Rel(opt.Root, root)
	rel = filepath.ToSlash(rel)
	tree, err := TreeIdentity(ctx, root)
	if err != nil {
		return nil, &InputError{err}
	}
	popt := pgfts.Options{DSN: set.DSN, DSNFile: set.DSNFile, Wiki: wikiName(opt.Root, rel, set), Tree: tree, Claim: opt.ClaimWiki,
		MaxPageBytes: set.MaxPageBytes, Files: files, ListDiags: listDiags, Now: indexClock}
	if opt.Progress != nil {
		popt.Progress = func(done, total int) { opt.Progress(rel, done, total) }
	}
	ix, st, diags, err := pgfts.Open(ctx, root, popt)
	if err != nil {
		var ce *pgfts.ConnectError
		var se *pgfts.SchemaError
		var re *pgtrust.Refusal
		var te *pgfts.TreeError
		if errors.As(err, &ce) || errors.As(err, &se) || errors.As(err, &re) || errors.As(err, &te) {
			return nil, &InputError{err}
		}
		return nil, err
	}
	defer ix.Close()
	for _, d := range diags {
		report(opt, warn, d)
	}
	filter := sqliteFilter(opt, set)
	hits, err := ix.Search(ctx, opt.Query, filter, opt.Limit)
	if err != nil {
		return nil, err
	}
	res.Index[rel] = st
	return pickHits(ctx, opt, set, ix, filter, hits)
}

// wikiName is the root's name in the shared database: index.wiki when set,
// else the zone root's directory name, with a sub-guild's path below it
// ("ledgerly", "ledgerly/services/billing").
func wikiName(zoneRoot, rel string, set guildconfig.Settings) string {
	if set.Wiki != "" {
		return set.Wiki
	}
	name := filepath.Base(zoneRoot)
	if rel != "." && rel != "" {
		name = fmt.Sprintf("%s/%s", name, rel)
	}
	return name
}
