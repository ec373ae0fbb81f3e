package recall

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/internal/parallel"
	"github.com/rtch/rtch/pkg/wiki"
)

// Mechanism picks the wiki mechanism for a wiki of these files: the
// persistent index (SQLite FTS5, or PostgreSQL with index.backend =
// "postgres") from index.wiki_file_threshold pages, else in-memory BM25
// while the wiki fits caps.bm25_max_bytes, else the streaming fs-scan. A
// forced index.mechanism wins.
func Mechanism(files []wiki.File, set guildconfig.Settings) string {
	if set.Mechanism != "" && set.Mechanism != "auto" {
		return set.Mechanism
	}
	if len(files) > 0 && len(files) >= set.WikiFileThreshold {
		if set.Backend == SourcePostgres {
			return SourcePostgres
		}
		return SourceSQLite
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	if total > set.BM25MaxBytes {
		return SourceFSScan
	}
	return SourceFileBM25
}

// indexClock stamps index writes (tests move it ahead of file times so no
// page is racy).
var indexClock = time.Now

// overfetch is how many extra candidates a mechanism fetches so that the
// page policy (expiry, supersession) applied afterwards still leaves limit.
func overfetch(limit int) int { return limit*3 + 20 }

// speculation is a search of the FTS5 index made while the wiki was being
// listed (listWiki); it is the answer only if the listing turns out to be
// the one the index was written for.
type speculation struct {
	snap   *fts.Snapshot // closed; Matches and Stats only
	chunks []chunk
	diags  []wiki.Diagnostic
}

// listWiki lists the wiki under root. When the mechanism may be the FTS5
// index and an index exists, it searches a snapshot of the index on this
// goroutine while another lists the wiki, so the stat walk and the search
// overlap; the speculation is nil when the index could not be searched that
// way (searchWiki then takes the ordinary path, which reports why).
func listWiki(ctx context.Context, opt Options, root string, set guildconfig.Settings) ([]wiki.File, []wiki.Diagnostic, *speculation, error) {
	if m := set.Mechanism; m != "" && m != "auto" && m != SourceSQLite || set.Backend == SourcePostgres {
		files, diags, err := wiki.List(root, set.MaxPageBytes)
		return files, diags, nil, err
	}
	type listed struct {
		files []wiki.File
		diags []wiki.Diagnostic
		err   error
	}
	done := make(chan listed, 1)
	go func() {
		files, diags, err := wiki.List(root, set.MaxPageBytes)
		done <- listed{files, diags, err}
	}()
	spec := speculate(ctx, opt, root, set)
	l := <-done
	return l.files, l.diags, spec, l.err
}

func speculate(ctx context.Context, opt Options, root string, set guildconfig.Settings) *speculation {
	snap, err := fts.OpenSnapshot(ctx, root)
	if err != nil {
		return nil
	}
	defer snap.Close()
	if set.Mechanism != SourceSQLite && (snap.Pages() == 0 || snap.Pages() < set.WikiFileThreshold) {
		return nil
	}
	filter := sqliteFilter(opt, set)
	hits, err := snap.Search(ctx, opt.Query, filter, opt.Limit)
	if err != nil {
		return nil
	}
	cs, err := pickHits(ctx, opt, set, snap, filter, hits)
	if err != nil {
		return nil
	}
	diags, err := snap.Diagnostics(ctx)
	if err != nil {
		return nil
	}
	return &speculation{snap: snap, chunks: cs, diags: diags}
}

func searchWiki(ctx context.Context, opt Options, root string, files []wiki.File, listDiags []wiki.Diagnostic, set guildconfig.Settings, res *Result, warn func(string), spec *speculation) (string, []chunk, float64, error) {
	mech := Mechanism(files, set)
	if mech == SourceSQLite && spec != nil && spec.snap.Matches(files) {
		// The index is current for this very listing: what Open would do
		// is nothing, and the snapshot's answer is the answer.
		for _, d := range listDiags {
			report(opt, warn, d)
		}
		for _, d := range spec.diags {
			report(opt, warn, d)
		}
		rel, _ := filepath.Rel(opt.Root, root)
		res.Index[filepath.ToSlash(rel)] = spec.snap.Stats(len(files))
		return SourceSQLite, spec.chunks, 0, nil
	}
	if mech == SourcePostgres {
		cs, err := searchPostgres(ctx, opt, root, files, listDiags, set, res, warn)
		if err != nil {
			return "", nil, 0, err
		}
		return SourcePostgres, cs, 0, nil
	}
	if mech == SourceSQLite {
		cs, err := searchSQLite(ctx, opt, root, files, listDiags, set, res, warn)
		if err == nil {
			return SourceSQLite, cs, 0, nil
		}
		if ctx.Err() != nil {
			return "", nil, 0, ctx.Err()
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, fts.RelPath) {
			msg = fts.RelPath + ": " + msg
		}
		warn(msg + "; falling back to in-memory BM25")
		mech = SourceFileBM25
	}
	for _, d := range listDiags {
		report(opt, warn, d)
	}
	if mech == SourceFSScan {
		cs := fsScan(opt, root, files, set, warn)
		return SourceFSScan, cs, 0, nil
	}
	cs, top := fileBM25(opt, root, files, set, warn)
	return SourceFileBM25, cs, top, nil
}

func lines(start, end int) string { return fmt.Sprintf("L%d-L%d", start, end) }

func searchSQLite(ctx context.Context, opt Options, root string, files []wiki.File, listDiags []wiki.Diagnostic, set guildconfig.Settings, res *Result, warn func(string)) ([]chunk, error) {
	if files == nil {
		files = []wiki.File{}
	}
	fopt := fts.Options{MaxPageBytes: set.MaxPageBytes, Files: files, ListDiags: listDiags, Now: indexClock}
	rel, _ := filepath.Rel(opt.Root, root)
	if opt.Progress != nil {
		fopt.Progress = func(done, total int) { opt.Progress(filepath.ToSlash(rel), done, total) }
	}
	ix, st, diags, err := fts.Open(ctx, root, fopt)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	if st.Rebuilt != "" {
		warn(fmt.Sprintf("%s: index could not be trusted (%s); rebuilt from the wiki", fts.RelPath, st.Rebuilt))
	}
	for _, d := range diags {
		report(opt, warn, d)
	}
	filter := sqliteFilter(opt, set)
	hits, err := ix.Search(ctx, opt.Query, filter, opt.Limit)
	if fts.IsCorrupt(err) {
		warn(fmt.Sprintf("%s: %v; rebuilt from the wiki", fts.RelPath, err))
		if err := ix.Rebuild(ctx, fopt); err != nil {
			return nil, err
		}
		st.Rebuilt = err.Error()
		hits, err = ix.Search(ctx, opt.Query, filter, opt.Limit)
	}
	if err != nil {
		return nil, err
	}
	res.Index[filepath.ToSlash(rel)] = st
	return pickHits(ctx, opt, set, ix, filter, hits)
}

func sqliteFilter(opt Options, set guildconfig.Settings) fts.Filter {
	filter := fts.Filter{MinImportance: set.ImportanceGate, DefaultImportance: guildconfig.DefaultImportanceGate}
	if opt.Category != "" {
		filter.Categories = []string{normCategory(opt.Category)}
	}
	return filter
}

// searcher is an open index or a snapshot of one.
type searcher interface {
	Search(ctx context.Context, query string, f fts.Filter, limit int) ([]fts.Hit, error)
	Supersessions(ctx context.Context) ([]fts.Supersession, error)
}

// pickHits applies the page policy to the index's first hits (for
// opt.Limit), searching again for more while the policy removed some and more
// exist, and scores the survivors relative to the best.
func pickHits(ctx context.Context, opt Options, set guildconfig.Settings, ix searcher, filter fts.Filter, hits []fts.Hit) ([]chunk, error) {
	want := opt.Limit
	var err error
	var superseded superseders
	if len(hits) > 0 {
		list, err := ix.Supersessions(ctx)
		if err != nil {
			return nil, err
		}
		superseded = fromIndex(list)
	}
	var out []chunk
	for {
		out = out[:0]
		for _, h := range hits {
			if excluded(h.Path, h.Page, opt, set, superseded) != "" {
				continue
			}
			score := 0.0
			if hits[0].Rank > 0 {
				score = h.Rank / hits[0].Rank
			}
			out = append(out, chunk{path: h.Path, lines: lines(h.StartLine, h.EndLine), text: h.Text, score: score, meta: h.Page})
			if len(out) == opt.Limit {
				break
			}
		}
		// The index filters importance and category itself; expiry,
		// supersession and secrecy are applied here, so ask for more when
		// they removed hits and more exist.
		if len(out) == opt.Limit || len(hits) < want {
			break
		}
		want *= 4
		if hits, err = ix.Search(ctx, opt.Query, filter, want); err != nil {
			return nil, err
		}
	}
	if len(out) > 0 && out[0].score > 0 {
		// Scores are relative to the best surviving hit.
		top := out[0].score
		for i := range out {
			out[i].score /= top
		}
	}
	return out, nil
}

// readPages reads the listed pages, reporting unreadable ones, and returns
// the targets of their supersedes lists weighed by their tiers.
func readPages(opt Options, root string, files []wiki.File, warn func(string), each func(*wiki.Page)) superseders {
	superseded := superseders{}
	for _, f := range files {
		p, diags, err := wiki.Read(root, f)
		for _, d := range diags {
			report(opt, warn, d)
		}
		if err != nil {
			report(opt, warn, wiki.ReadError(f.Path, err))
			continue
		}
		superseded.addPage(p.Path, pageMeta(p))
		each(p)
	}
	return superseded
}

func pageMeta(p *wiki.Page) fts.PageMeta {
	return fts.PageMeta{Category: p.Category, Title: p.Title, Front: p.Front, HasFront: p.HasFront}
}

// fileBM25 ranks the eligible sections in memory (k1 1.5, b 0.75) and
// returns the best, scored by bm25.Normalized; the second value is the top
// chunk's score. The query is known before any page is read, so each section
// is reduced to its length and the frequencies of the query's terms
// (bm25.Scorer, the same scores as a full bm25.Index) and the pages are read,
// parsed and counted on GOMAXPROCS goroutines.
func fileBM25(opt Options, root string, files []wiki.File, set guildconfig.Settings, warn func(string)) ([]chunk, float64) {
	q := bm25.Terms(opt.Query)
	sc := bm25.NewScorer(bm25.Recall, q)
	type read struct {
		page   *wiki.Page
		diags  []wiki.Diagnostic
		err    error
		counts []bm25.Counts // per section
	}
	reads := make([]read, len(files))
	parallel.For(len(files), func(i int) {
		p, d, err := wiki.Read(root, files[i])
		r := read{page: p, diags: d, err: err}
		if err == nil {
			r.counts = make([]bm25.Counts, len(p.Sections))
			for j, s := range p.Sections {
				r.counts[j] = sc.CountEach(func(yield func(string)) { fts.EachSectionTerm(fts.NameOf(p), s.HeadingPath(), s.Text, yield) })
			}
		}
		reads[i] = r
	})
	// Diagnostics in listing order, as readPages reports them.
	superseded := superseders{}
	for i, r := range reads {
		for _, d := range r.diags {
			report(opt, warn, d)
		}
		if r.err != nil {
			report(opt, warn, wiki.ReadError(files[i].Path, r.err))
			continue
		}
		superseded.addPage(r.page.Path, pageMeta(r.page))
	}
	type doc struct {
		page *wiki.Page
		sec  wiki.Section
	}
	var docs []doc
	for _, r := range reads {
		if r.err != nil || excluded(r.page.Path, pageMeta(r.page), opt, set, superseded) != "" {
			continue
		}
		for j, s := range r.page.Sections {
			sc.Add(r.counts[j])
			docs = append(docs, doc{r.page, s})
		}
	}
	var out []chunk
	for _, r := range sc.Search(opt.Limit) {
		d := docs[r.Doc]
		out = append(out, chunk{path: d.page.Path, lines: lines(d.sec.StartLine, d.sec.EndLine), text: d.sec.Text,
			score: round4(sc.Normalized(r.Score)), meta: pageMeta(d.page)})
	}
	if len(out) == 0 {
		return nil, 0
	}
	return out, out[0].score
}

// fsScan streams the pages one at a time and scores each section by query
// term coverage (distinct query terms present / distinct query terms) and
// term frequency (tf/(tf+1.5)), keeping only a bounded candidate list: no
// index and memory bounded by the largest page.
func fsScan(opt Options, root string, files []wiki.File, set guildconfig.Settings, warn func(string)) []chunk {
	q := bm25.Unique(bm25.Terms(opt.Query))
	if len(q) == 0 {
		return nil
	}
	keep := overfetch(opt.Limit)
	var cands []chunk
	superseded := readPages(opt, root, files, warn, func(p *wiki.Page) {
		if excluded(p.Path, pageMeta(p), opt, set, nil) != "" {
			return
		}
		for _, s := range p.Sections {
			tf := map[string]int{}
			fts.EachSectionTerm(fts.NameOf(p), s.HeadingPath(), s.Text, func(t string) { tf[t]++ })
			matched, sum := 0, 0
			for _, t := range q {
				if tf[t] > 0 {
					matched++
					sum += tf[t]
				}
			}
			if matched == 0 {
				continue
			}
			score := float64(matched) / float64(len(q)) * float64(sum) / (float64(sum) + 1.5)
			cands = append(cands, chunk{path: p.Path, lines: lines(s.StartLine, s.EndLine), text: s.Text, score: round4(score), meta: pageMeta(p)})
		}
		if len(cands) > 2*keep {
			sortChunks(cands)
			cands = cands[:keep]
		}
	})
	sortChunks(cands)
	var out []chunk
	for _, c := range cands {
		if excluded(c.path, c.meta, opt, set, superseded) != "" {
			continue
		}
		out = append(out, c)
		if len(out) == opt.Limit {
			break
		}
	}
	return out
}

func sortChunks(cs []chunk) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		if cs[i].path != cs[j].path {
			return cs[i].path < cs[j].path
		}
		return cs[i].lines < cs[j].lines
	})
}

func round4(f float64) float64 { return float64(int64(f*1e4+0.5)) / 1e4 }
