// Package recall is the single recall path of the guild tools (SPEC §10):
// one call answers a query from the knowledge graph's structure, the wiki
// (a persistent index — SQLite FTS5, or PostgreSQL for a wiki a team
// shares — in-memory BM25 or a streaming fs-scan, chosen by size) and a
// token-scored graph traversal, fans out over a workspace's sub-guilds, and
// returns only protected chunks. Every chunk, whatever its
// source, goes through pkg/protect in the same order — probe, quarantine
// (with a security event appended), classify, wrap — before it is part of a
// Result; there is no way to obtain an unprotected hit from this package.
package recall

import (
	"context"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/wiki"
)

// Sources reported in Result.Source.
const (
	SourceSQLite     = "sqlite"
	SourcePostgres   = "postgres"
	SourceFileBM25   = "file-bm25"
	SourceFSScan     = "fs-scan"
	SourceKG         = "kg-query"
	SourceStructural = "structural"
	SourceCombined   = "combined"
)

// Options describe one recall.
type Options struct {
	// Root is the project (zone) root.
	Root string
	// Query is the task text or a structural question.
	Query string
	// RunID scopes security events to .guild/runs/<run-id>/logs/.
	RunID string
	// Category keeps only wiki pages of this type (decision or decisions,
	// standard or standards, …) and skips the graph.
	Category string
	// Limit caps the wiki chunks and, separately, the graph chunks (10 when
	// zero).
	Limit int
	// Settings are the resolved .guild/config.toml values of the root.
	Settings guildconfig.Settings
	// Now decides page expiry and stamps security events (time.Now if zero).
	Now time.Time
	// Tool names the binary in security events.
	Tool string
	// Warn receives every diagnostic ("path:line: message"); may be nil.
	Warn func(string)
	// skip hears each diagnostic of a skipped file (set by recallRoot).
	skip func(wiki.Diagnostic)
	// Progress, when set, reports index builds: the guild root (relative),
	// pages done and pages to do; done == total ends a build.
	Progress func(root string, done, total int)
	// ClaimWiki binds the postgres wiki names of this recall to this tree
	// even when another tree's refresh wrote them (pgfts.Options.Claim):
	// the operator's --claim-wiki, never a configuration key, which the
	// repository could set.
	ClaimWiki bool
}

// Result is a protected recall: the guild.recall payload plus what the
// caller may want to report.
type Result struct {
	// Source is the mechanism that produced the chunks (see the constants).
	Source string
	// Directive is the integrity notice, nil when no chunk is wrapped.
	Directive *string
	// TopScore is the relevance signal of the winning branch in [0,1].
	TopScore float64
	// RecallBeforeRead tells the caller it may skip the full read.
	RecallBeforeRead bool
	// Chunks are protected, in output order.
	Chunks []schema.RecallChunk
	// Index is what the index refresh (SQLite or PostgreSQL) did, per guild
	// root that used it.
	Index map[string]fts.Stats
	// Skipped are the wiki files left out, in the order met.
	Skipped []schema.RecallSkip
	// Events counts security events appended.
	Events int
}

// chunk is a candidate before protection.
type chunk struct {
	path      string // relative to the guild root it came from
	lines     string
	text      string
	score     float64
	meta      fts.PageMeta
	fromGraph bool
}

// branch is what one guild root contributed.
type branch struct {
	sub        string // sub-guild name ("" for the root itself)
	prefix     string // path of the sub-guild root relative to the zone root
	source     string
	wikiScore  float64
	graphScore float64
	structural []chunk
	wiki       []chunk
	graph      []chunk
}

// InputError is a problem with what the caller gave (a run id, the workspace
// file, a sub-guild's configuration): nothing was recalled. Commands map it
// to their usage exit code.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Recall runs one recall over opt.Root and, when it has a
// .guild/workspace.json, over each registered sub-guild too.
func Recall(ctx context.Context, opt Options) (*Result, error) {
	if opt.Limit <= 0 {
		opt.Limit = 10
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	if opt.Warn == nil {
		opt.Warn = func(string) {}
	}
	if err := checkRunID(opt.RunID); err != nil {
		return nil, &InputError{err}
	}
	res := &Result{Index: map[string]fts.Stats{}}
	subs, err := LoadWorkspace(opt.Root)
	if err != nil {
		return nil, &InputError{err}
	}
	var branches []branch
	if b, ok, err := recallRoot(ctx, opt, opt.Root, "", "", opt.Settings, res); err != nil {
		return nil, err
	} else if ok || len(subs) == 0 {
		branches = append(branches, b)
	}
	for _, s := range subs {
		dir := filepath.Join(opt.Root, filepath.FromSlash(s.Path))
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			opt.Warn(fmt.Sprintf("%s: sub-guild %q: %s is not a directory; skipped", WorkspacePath, s.Name, s.Path))
			continue
		}
		if !inside(opt.Root, dir) {
			opt.Warn(fmt.Sprintf("%s: sub-guild %q: %s resolves outside the workspace (symlink); skipped", WorkspacePath, s.Name, s.Path))
			continue
		}
		cfg, _, err := guildconfig.Load("", dir)
		if err != nil {
			return nil, &InputError{err}
		}
		b, _, err := recallRoot(ctx, opt, dir, s.Name, s.Path, cfg.Settings(), res)
		if err != nil {
			return nil, err
		}
		branches = append(branches, b)
	}
	merge(res, branches, opt)
	if err := protectAll(res, branches, opt); err != nil {
		return nil, err
	}
	return res, nil
}

// recallRoot recalls from one guild root. ok reports whether it had anything
// to search (a wiki page or a graph).
func recallRoot(ctx context.Context, opt Options, root, sub, prefix string, set guildconfig.Settings, res *Result) (branch, bool, error) {
	b := branch{sub: sub, prefix: prefix}
	warn := func(s string) {
		if prefix != "" {
			s = prefix + "/" + s
		}
		opt.Warn(s)
	}
	opt.skip = func(d wiki.Diagnostic) {
		res.Skipped = append(res.Skipped, schema.RecallSkip{Path: path.Join(prefix, d.Path), Reason: d.Message})
	}
	g := loadGraph(root, warn)
	withGraph := g != nil && opt.Category == ""
	if withGraph {
		if in, ok := graph.ParseIntent(opt.Query); ok {
			hits, resolved := g.Structural(in, graph.Options{MaxTokens: set.GraphTokens, MaxDepth: set.StructuralDepth, MaxNodes: opt.Limit})
			if resolved {
				b.source = SourceStructural
				b.wikiScore = 1
				b.structural = graphChunks(hits)
				return b, true, nil
			}
		}
	}
	wopt := opt
	wopt.Limit = opt.Limit * spread
	files, diags, spec, err := listWiki(ctx, wopt, root, set)
	if err != nil {
		return b, false, err
	}
	b.source, b.wiki, b.wikiScore, err = searchWiki(ctx, wopt, root, files, diags, set, res, warn, spec)
	if err != nil {
		return b, false, err
	}
	b.wiki = diversify(b.wiki, opt.Limit)
	if withGraph {
		hits := g.Query(opt.Query, graph.Options{MaxTokens: set.GraphTokens, MaxDepth: set.GraphDepth, MaxNodes: opt.Limit, MinImportance: set.ImportanceGate})
		b.graph = graphChunks(hits)
		if len(hits) > 0 {
			b.graphScore = hits[0].Score
		}
	}
	return b, len(files) > 0 || g != nil, nil
}

func loadGraph(root string, warn func(string)) *graph.Graph {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(graph.RelPath)))
	if err != nil {
		if !os.IsNotExist(err) {
			warn(graph.RelPath + ": " + err.Error() + "; graph skipped")
		}
		return nil
	}
	defer f.Close()
	g, probs, err := graph.Load(f, graph.RelPath)
	if err != nil {
		warn(err.Error() + "; graph skipped")
		return nil
	}
	for _, p := range probs {
		warn(graph.RelPath + ": " + p.Msg)
	}
	return g
}

func graphChunks(hits []graph.Hit) []chunk {
	out := make([]chunk, 0, len(hits))
	for _, h := range hits {
		p := graph.RelPath + "#" + h.Node.ID
		if len(h.Node.SourceRefs) > 0 {
			p = h.Node.SourceRefs[0]
		}
		out = append(out, chunk{
			path: p, text: h.Text, score: h.Score, fromGraph: true,
			meta: fts.PageMeta{Category: "graph", Front: wiki.Frontmatter{Confidence: h.Node.Confidence, SourceRefs: h.Node.SourceRefs, Importance: h.Node.Importance}},
		})
	}
	return out
}

// merge decides the result's source and topScore from what each branch
// contributed (protectAll then orders, limits and caps the chunks).
func merge(res *Result, bs []branch, opt Options) {
	sources := map[string]bool{}
	for _, b := range bs {
		switch {
		case len(b.structural) > 0:
			sources[SourceStructural] = true
		case len(b.wiki) > 0 && len(b.graph) > 0:
			sources[SourceCombined] = true
		case len(b.wiki) > 0:
			sources[b.source] = true
		case len(b.graph) > 0:
			sources[SourceKG] = true
		}
		// The winning branch is the one whose chunks come first: structural,
		// else the wiki, else the graph (source priority: wiki before graph).
		s := 0.0
		switch {
		case len(b.structural) > 0 || len(b.wiki) > 0:
			s = b.wikiScore
		case len(b.graph) > 0:
			s = b.graphScore
		}
		res.TopScore = math.Max(res.TopScore, s)
	}
	switch len(sources) {
	case 0:
		res.Source = SourceFileBM25
		for _, b := range bs {
			if b.source != "" {
				res.Source = b.source
				break
			}
		}
	case 1:
		for s := range sources {
			res.Source = s
		}
	default:
		res.Source = SourceCombined
	}
	res.TopScore = math.Round(res.TopScore*1e4) / 1e4
}

type tagged struct {
	chunk
	b *branch
}

func ordered(bs []branch, pick func(*branch) []chunk) []tagged {
	var out []tagged
	for i := range bs {
		for _, c := range pick(&bs[i]) {
			out = append(out, tagged{c, &bs[i]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// protectAll is the only place chunks become output, and every one of them
// passes through protector.protect. It orders them (structural, then wiki,
// then graph, each by score across sub-guilds), applies --limit per source
// and the graph token cap to the rendered text, and sets the directive and
// recallBeforeRead.
func protectAll(res *Result, bs []branch, opt Options) error {
	p := newProtector(opt)
	emit := func(list []tagged, limit, tokenCap int) error {
		used := 0
		n := 0
		for _, t := range list {
			if n >= limit {
				break
			}
			c, ev := p.protect(t.chunk, t.b.prefix)
			if tokenCap > 0 {
				// The cap counts what lands in a prompt: the rendered,
				// wrapped text.
				est := estimate(c.Rendered)
				if used+est > tokenCap {
					continue
				}
				used += est
			}
			if ev != nil {
				if err := p.record(*ev); err != nil {
					return err
				}
			}
			c.SubGuild = t.b.sub
			res.Chunks = append(res.Chunks, c)
			n++
		}
		return nil
	}
	graphCap := opt.Settings.GraphTokens
	if err := emit(ordered(bs, func(b *branch) []chunk { return b.structural }), opt.Limit, graphCap); err != nil {
		return err
	}
	if err := emit(ordered(bs, func(b *branch) []chunk { return b.wiki }), opt.Limit, 0); err != nil {
		return err
	}
	if err := emit(ordered(bs, func(b *branch) []chunk { return b.graph }), opt.Limit, graphCap); err != nil {
		return err
	}
	res.Events = p.events
	wrapped, usable := false, 0
	for _, c := range res.Chunks {
		if !c.Quarantined {
			usable++
			if c.TrustTier != "operator" {
				wrapped = true
			}
		}
	}
	if wrapped {
		d := integrityNotice
		res.Directive = &d
	}
	res.RecallBeforeRead = opt.Settings.RecallBeforeRead && usable > 0 && res.TopScore >= opt.Settings.RecallScoreThreshold
	return nil
}

// normCategory maps folder names and type names to page types.
func normCategory(c string) string {
	c = strings.ToLower(strings.TrimSpace(c))
	switch c {
	case "standards":
		return "standard"
	case "entities":
		return "entity"
	case "products":
		return "product"
	case "concepts":
		return "concept"
	case "decisions":
		return "decision"
	case "sources":
		return "source"
	}
	return c
}

// excluded applies the page-level policy shared by every mechanism:
// category, importance gate, expiry, supersession and secrecy. The reason is
// "" when the page may be recalled.
func excluded(rel string, m fts.PageMeta, opt Options, set guildconfig.Settings, superseded superseders) string {
	if opt.Category != "" && normCategory(m.Category) != normCategory(opt.Category) {
		return "category"
	}
	imp := m.Front.Importance
	if imp == 0 {
		imp = guildconfig.DefaultImportanceGate
	}
	if imp < set.ImportanceGate {
		return "importance"
	}
	if m.Front.Sensitivity == "secret" {
		return "secret"
	}
	if t, ok := parseDate(m.Front.ExpiresAt); ok && !t.After(opt.Now) {
		return "expired"
	}
	// Any page may name any other in supersedes: a harvested or synthesized
	// page must not take a trusted page, or the operator's rules, out of
	// every recall (superseders.retires).
	if superseded.retires(rel, m) {
		return "superseded"
	}
	return ""
}

func parseDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func checkRunID(id string) error {
	if id == "" {
		return nil
	}
	if id == "." || id == ".." || strings.ContainsAny(id, "/\\\x00") || len(id) > 200 {
		return fmt.Errorf("--run-id %q: a run id is one path element (no '/', '\\\\' or '..')", id)
	}
	return nil
}

// inside reports whether dir, with symlinks resolved, is below root.
func inside(root, dir string) bool {
	r, err1 := filepath.EvalSymlinks(root)
	d, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(r, d)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// report passes a diagnostic on as a warning and, when it skipped a file,
// to the record's skipped list.
func report(opt Options, warn func(string), d wiki.Diagnostic) {
	warn(d.String())
	if d.Skipped && opt.skip != nil {
		opt.skip(d)
	}
}
