// Package scout is the shape scout (SPEC §7, stage 3): one walk of the zone
// and one read of every text file, during which every structural scan runs on
// the file's bytes — file and directory names, markdown headings, frontmatter
// keys, durable handles, JSON/YAML/TOML keys, code symbol definitions,
// source-of-truth phrases and deprecation markers — together with the corpus
// statistics (document frequency of every goal term) that later stages use to
// weigh rare terms above common ones.
//
// Each scan is bounded twice: its findings are capped, and a cost ceiling
// (bytes read by the scan, in path order, so the cut is deterministic; and
// optionally wall time) stops it and says so in the inventory. The package
// returns values; the command turns them into records.
package scout

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/walk"
)

// Scan names, in inventory order.
const (
	ScanDirMap       = "dir_map"
	ScanFilenames    = "filenames"
	ScanHeadings     = "headings"
	ScanFrontmatter  = "frontmatter_keys"
	ScanHandles      = "durable_handles"
	ScanJSONKeys     = "json_keys"
	ScanYAMLKeys     = "yaml_keys"
	ScanTOMLKeys     = "toml_keys"
	ScanSymbols      = "code_symbols"
	ScanTruthPhrases = "source_of_truth"
	ScanDeprecation  = "deprecation"
	ScanCorpus       = "corpus_stats"
	defaultCap       = 200
	defaultCeiling   = 2 << 30 // bytes per content scan
	keysPerFile      = 200     // JSON/YAML/TOML keys read per file
	dirMapDepth      = 3
	dirMapCap        = 300
)

// LocationsPerMatch caps the locations a candidate's record lists: a list
// that long may leave some out.
const LocationsPerMatch = 50

var scanOrder = []string{ScanDirMap, ScanFilenames, ScanHeadings, ScanFrontmatter, ScanHandles,
	ScanJSONKeys, ScanYAMLKeys, ScanTOMLKeys, ScanSymbols, ScanTruthPhrases, ScanDeprecation, ScanCorpus}

var scanPattern = map[string]string{
	ScanDirMap:       "directories to depth 3",
	ScanFilenames:    "file and directory names equal to a goal term",
	ScanHeadings:     "markdown headings # to ###",
	ScanFrontmatter:  "YAML frontmatter keys of markdown files",
	ScanHandles:      "", // filled with the configured regexes
	ScanJSONKeys:     `"key": in *.json`,
	ScanYAMLKeys:     "key: in *.yaml, *.yml",
	ScanTOMLKeys:     "key = and [table] in *.toml",
	ScanSymbols:      "definitions: go (layout scanner), python, js/ts, rust, java, c/c++, ruby (line patterns)",
	ScanTruthPhrases: "authoritative | source of truth | canonical | single source",
	ScanDeprecation:  "deprecated | superseded | obsolete | do not use | no longer maintained",
	ScanCorpus:       "document frequency of goal terms (whole-word, case-insensitive)",
}

// TruthPhrases and DeprecationMarkers are the literal phrases of two scans.
var (
	TruthPhrases       = []string{"authoritative", "source of truth", "canonical", "single source"}
	DeprecationMarkers = []string{"deprecated", "superseded", "obsolete", "do not use", "no longer maintained"}
)

// DefaultHandles are the durable-handle patterns used when none are configured.
var DefaultHandles = []string{`\bADR-\d+\b`, `\bRFC ?\d{3,4}\b`}

// Options configure a scout run.
type Options struct {
	// Walk are the walker options (the same ones rtch-probe uses).
	Walk walk.Options
	// Terms are the goal terms and seeds to confirm in shape and count.
	Terms []string
	// Groups maps a folded term to the idea it spells (schema.GoalTerm's
	// Group); the scout counts each group's files once (Result.GroupDF).
	Groups map[string]string
	// Handles are durable-handle regular expressions; nil means DefaultHandles.
	Handles []string
	// FindingsCap caps each scan's findings in the record; 0 means 200.
	FindingsCap int
	// CeilingBytes stops a content scan once it has read this many bytes (in
	// path order); 0 means 2 GiB.
	CeilingBytes int64
	// CeilingMS stops a scan once it has spent this much time; 0 means none.
	// Unlike the byte ceiling this cut depends on the machine.
	CeilingMS int
	// Exclude are forbidden path patterns (see Excluded): matching files are
	// not read and are reported as skips with reason "forbidden".
	Exclude []string
	// Skip receives every walk skip, in path order.
	Skip func(walk.Skip)
	// Progress, if set, is called now and then with files read and total.
	Progress func(done, total int)
	// Index, if set, is the tree index: files it holds unchanged are not
	// read, the others are read and stored in it (the caller saves it).
	// It is not used when CeilingMS is set, a cut that depends on the
	// machine.
	Index *index.Index
	// List lists the tree instead of walk.Files (a host's kept snapshot);
	// nil walks.
	List walk.Lister
}

// Confirmation is one place where the shape confirms a term.
type Confirmation struct {
	// Kind: file_name, dir_name, path, code_symbol, heading, json_key,
	// yaml_key, toml_key, frontmatter_key, durable_handle.
	Kind string
	// Path and Line locate it (Line 0 for names).
	Path string
	Line int
	// Value is what was found (symbol name, heading text, …); Detail its kind.
	Value  string
	Detail string
}

// TermStats is what the scout learned about one term.
type TermStats struct {
	// DF is the number of walked text files whose content contains it.
	DF int
	// Confirmations are the shape confirmations, in path order, capped.
	Confirmations []Confirmation
	// ConfirmCount counts every confirmation before the cap, by kind.
	ConfirmCount map[string]int
}

// Result is the outcome of a scout run.
type Result struct {
	// Shape is the rtch.shape payload (envelope not set).
	Shape schema.Shape
	// Terms has the stats of Options.Terms, by folded term.
	Terms map[string]*TermStats
	// GroupDF is the number of walked text files whose content contains
	// any term of a group of Options.Groups, by group.
	GroupDF map[string]int
	// Handles are durable handles found in the tree, in path order, capped.
	Handles []schema.ShapeFinding
	// HandleCount is the number of distinct handle values.
	HandleCount int
	// Paths are the walked text files in path order.
	Paths []string
	// Files are the files the walk listed (text or not), for the index's
	// Save.
	Files []walk.File
	// Read is how many of them were read; the index answered for the rest.
	Read int
}

type scanAcct struct {
	files, hits int64
	nanos       int64
	stopped     atomic.Bool
	stoppedAt   string
}

// fileOut is what one file contributes; merged in path order.
type fileOut struct {
	termHits  []int // indices into the term list
	confirms  []termConfirm
	findings  map[string][]schema.ShapeFinding // relevant first is decided at merge
	relevant  map[string][]schema.ShapeFinding
	counts    map[string]int // hits per scan
	touched   map[string]bool
	handles   []schema.ShapeFinding
	sizeBytes int
}

type termConfirm struct {
	term int
	c    Confirmation
}

// Run walks the tree once and runs every scan.
func Run(ctx context.Context, o Options) (*Result, error) {
	r, err := newRun(o)
	if err != nil {
		return nil, err
	}
	if err := r.listFiles(ctx); err != nil {
		return nil, err
	}
	r.planCeiling()
	if err := r.scanContent(ctx); err != nil {
		return nil, err
	}
	r.reportSkips()
	r.newResult()
	r.scanNames()
	r.merge()
	r.inventory()
	return r.res, nil
}

// run is the state one scout run's steps share.
type run struct {
	o              Options
	capN           int
	ceiling        int64
	handles        []string
	handleRes      []*regexp.Regexp
	handlePrefixes []string
	acct           map[string]*scanAcct

	// terms are the goal terms folded, deduplicated, in the caller's order;
	// lits are the matcher's literals: the terms, then the truth phrases
	// (from truthBase), then the deprecation markers (from deprBase).
	terms               []string
	termIdx             map[string]int
	lits                []string
	truthBase, deprBase int
	m                   *match.Matcher

	skips     []walk.Skip
	files     []walk.File
	walkDur   time.Duration
	within    []bool // the byte ceiling lets the content scans read file i
	firstOver string // the first file over the byte ceiling
	index     map[string]int
	outs      []*fileOut
	done      atomic.Int64
	// Symbols are read into a slice of the worker's, reused file to file
	// (only their names are kept, as strings).
	symBufs sync.Pool
	// ix is the tree index in use (nil without one); readStart is when
	// this run began reading, for the index's racy-entry rule.
	ix        *index.Index
	readStart time.Time
	termM     *match.Matcher
	phraseM   *match.Matcher
	words     *index.Words // termM's matches in the index's dictionary
	cands     *index.Cands // the index rows that may hold a complex term
	patTerm   []int        // the term of each of cands' patterns

	read int

	res               *Result
	dirList           []string
	nameHits, dirHits int
	nameNanos         int64
	relevant, other   map[string][]schema.ShapeFinding
	touched, counts   map[string]int
}

// newRun applies the defaults, compiles the handle patterns and builds the
// one matcher for goal terms and phrases.
func newRun(o Options) (*run, error) {
	r := &run{o: o, capN: o.FindingsCap, ceiling: o.CeilingBytes, handles: o.Handles, acct: map[string]*scanAcct{}}
	if r.capN <= 0 {
		r.capN = defaultCap
	}
	if r.ceiling <= 0 {
		r.ceiling = defaultCeiling
	}
	if r.handles == nil {
		r.handles = DefaultHandles
	}
	var err error
	r.handleRes, r.handlePrefixes, err = compileHandles(r.handles)
	if err != nil {
		return nil, err
	}
	for _, s := range scanOrder {
		r.acct[s] = &scanAcct{}
	}
	r.foldTerms()
	if o.CeilingMS <= 0 && o.Index != nil {
		r.ix = o.Index
		r.phraseM = match.New(IndexedPhrases())
	}
	r.symBufs.New = func() any { return new([]symbols.Symbol) }
	return r, nil
}

// foldTerms folds and deduplicates the goal terms and builds one matcher for
// them and the phrases. Handle prefixes are searched without word
// boundaries by plain Contains.
func (r *run) foldTerms() {
	r.termIdx = map[string]int{}
	for _, t := range r.o.Terms {
		f := match.Fold(strings.TrimSpace(t))
		if f == "" {
			continue
		}
		if _, ok := r.termIdx[f]; !ok {
			r.termIdx[f] = len(r.terms)
			r.terms = append(r.terms, f)
		}
	}
	r.lits = append([]string{}, r.terms...)
	r.truthBase = len(r.lits)
	r.lits = append(r.lits, TruthPhrases...)
	r.deprBase = len(r.lits)
	r.lits = append(r.lits, DeprecationMarkers...)
	r.m = match.New(r.lits)
}

func (r *run) skip(s walk.Skip) { r.skips = append(r.skips, s) }

// listFiles walks the tree and sets the forbidden files aside as skips.
func (r *run) listFiles(ctx context.Context) error {
	t0 := time.Now()
	files, err := r.o.List.List(ctx, r.o.Walk, r.skip)
	if err != nil {
		return err
	}
	r.walkDur = time.Since(t0)
	if len(r.o.Exclude) > 0 {
		kept := files[:0]
		for _, f := range files {
			if pat := Excluded(f.Path, r.o.Exclude); pat != "" {
				r.skips = append(r.skips, walk.Skip{Path: f.Path, Reason: "forbidden", SizeBytes: f.Size,
					Detail: "matches forbidden assumption " + pat})
				continue
			}
			kept = append(kept, f)
		}
		files = kept
	}
	r.files = files
	r.index = make(map[string]int, len(files))
	for i, f := range files {
		r.index[f.Path] = i
	}
	return nil
}

// planCeiling applies the byte ceiling: a scan reads file k only when the
// bytes of files 0..k fit.
func (r *run) planCeiling() {
	var cum int64
	r.within = make([]bool, len(r.files))
	for i, f := range r.files {
		cum += f.Size
		r.within[i] = cum <= r.ceiling
		if !r.within[i] && r.firstOver == "" {
			r.firstOver = f.Path
		}
	}
}

// timed runs one scan of one file unless its time ceiling has stopped it,
// and accounts for its time.
func (r *run) timed(scan string, fn func()) {
	a := r.acct[scan]
	if a.stopped.Load() {
		return
	}
	t := time.Now()
	fn()
	d := time.Since(t).Nanoseconds()
	total := atomic.AddInt64(&a.nanos, d)
	if r.o.CeilingMS > 0 && total > int64(r.o.CeilingMS)*1e6 {
		a.stopped.Store(true)
	}
	atomic.AddInt64(&a.files, 1)
}

// scanContent reads every file once and runs the content scans on it.
func (r *run) scanContent(ctx context.Context) error {
	r.outs = make([]*fileOut, len(r.files))
	r.readStart = time.Now()
	toRead := r.replay()
	r.read = len(toRead)
	// The scans copy what they keep, so each worker reads every file into
	// one buffer.
	reuse := r.o.Walk
	reuse.ReuseBuffers = true
	return walk.Each(ctx, reuse, toRead, r.scanFile, func(s walk.Skip) {
		r.skip(s)
		if i, ok := r.index[s.Path]; ok && r.ix != nil {
			r.ix.PutSkip(r.files[i], r.readStart, s)
		}
	})
}

// scanFile runs the content scans on one file's bytes.
func (r *run) scanFile(f walk.File, data []byte) error {
	i := r.index[f.Path]
	out := newFileOut(len(data))
	r.outs[i] = out
	r.progress()
	if !r.within[i] {
		return nil
	}
	fs := &fileScan{r: r, out: out, path: f.Path, data: trimBOM(data), facts: &shapeFacts{}}
	ext := strings.ToLower(path.Ext(f.Path))
	r.timed(ScanCorpus, fs.literals)
	r.timed(ScanHandles, func() { fs.handles(ext) })
	if symbols.Lang(f.Path) != "" {
		r.timed(ScanSymbols, fs.symbols)
	}
	fs.structured(ext)
	r.apply(f.Path, fs.facts, out)
	r.store(f, data, fs.facts)
	return nil
}

func newFileOut(size int) *fileOut {
	return &fileOut{counts: map[string]int{}, touched: map[string]bool{}, sizeBytes: size,
		findings: map[string][]schema.ShapeFinding{}, relevant: map[string][]schema.ShapeFinding{}}
}

func (r *run) progress() {
	if n := r.done.Add(1); r.o.Progress != nil && n%512 == 0 {
		r.o.Progress(int(n), len(r.files))
	}
}

// fileScan is the content scans' view of one file: they record what they
// find in facts, which apply then turns into the file's outcome.
type fileScan struct {
	r     *run
	out   *fileOut
	path  string
	data  []byte
	facts *shapeFacts
}

// literals is the literal pass: goal terms (document frequency) and phrases.
func (fs *fileScan) literals() {
	r, out, data := fs.r, fs.out, fs.data
	seen := make([]bool, len(r.lits))
	var lines *match.Lines
	r.m.Scan(data, func(t, s, e int) bool {
		if t < r.truthBase {
			if !seen[t] {
				seen[t] = true
				out.termHits = append(out.termHits, t)
			}
			return true
		}
		k := 0
		if t >= r.deprBase {
			k = 1
		}
		fs.facts.phraseCount[k]++
		if len(fs.facts.phrases[k]) < 3 {
			if lines == nil {
				lines = match.NewLines(data)
			}
			ln, ls, le := lines.At(s)
			fs.facts.phrases[k] = append(fs.facts.phrases[k], item{line: ln, value: r.lits[t], detail: capText(string(data[ls:le]), 160)})
		}
		return true
	})
}

// handles runs the durable-handle patterns.
func (fs *fileScan) handles(ext string) {
	for k := range fs.r.handleRes {
		if p := fs.r.handlePrefixes[k]; p != "" && !contains(fs.data, p) {
			continue
		}
		if fs.r.handlePrefixes[k] == "" && !isDoc(ext) {
			continue // no literal to prefilter on: read only docs
		}
		fs.handle(k)
	}
}

// handle runs durable-handle pattern k, keeping at most 50 matches.
func (fs *fileScan) handle(k int) {
	r, data := fs.r, fs.data
	re := r.handleRes[k]
	var lines *match.Lines
	found := 0
	add := func(s, e int) {
		if lines == nil {
			lines = match.NewLines(data)
		}
		ln, _, _ := lines.At(s)
		fs.facts.handles = append(fs.facts.handles, item{line: ln, value: string(data[s:e]), detail: r.handles[k]})
		found++
	}
	p := r.handlePrefixes[k]
	if p == "" {
		for _, loc := range re.FindAllIndex(data, 50) {
			add(loc[0], loc[1])
		}
		return
	}
	// The regex runs only on the lines holding its literal.
	lastLine := -1
	for off := 0; found < 50; {
		i := bytes.Index(data[off:], []byte(p))
		if i < 0 {
			break
		}
		ls := bytes.LastIndexByte(data[:off+i], '\n') + 1
		le := bytes.IndexByte(data[off+i:], '\n')
		if le < 0 {
			le = len(data)
		} else {
			le += off + i
		}
		if ls != lastLine {
			lastLine = ls
			for _, loc := range re.FindAllIndex(data[ls:le], 50-found) {
				add(ls+loc[0], ls+loc[1])
			}
		}
		off = le
		if off >= len(data) {
			break
		}
	}
}

// confirm records a value found by a scan.
func (fs *fileScan) confirm(scan, kind string, line int, value, detail string) {
	fs.facts.items = append(fs.facts.items, item{scan: scan, kind: kind, line: line, value: value, detail: detail})
}

// symbols is the code-symbol scan.
func (fs *fileScan) symbols() {
	buf := fs.r.symBufs.Get().(*[]symbols.Symbol)
	defer fs.r.symBufs.Put(buf)
	*buf = symbols.AppendExtract((*buf)[:0], fs.path, fs.data)
	fs.facts.items = slices.Grow(fs.facts.items, len(*buf))
	for _, s := range *buf {
		fs.facts.items = append(fs.facts.items, item{scan: ScanSymbols, kind: "code_symbol", line: s.Line, value: s.Name,
			sym: [3]string{s.Kind, s.Lang, s.Container}})
	}
}

// structured runs the scans of markdown, JSON, YAML and TOML files.
func (fs *fileScan) structured(ext string) {
	r, data := fs.r, fs.data
	switch ext {
	case ".md", ".markdown", ".mdx":
		r.timed(ScanHeadings, func() {
			for _, h := range headings(data) {
				fs.confirm(ScanHeadings, "heading", h.line, h.text, fmt.Sprintf("h%d", h.level))
			}
		})
		r.timed(ScanFrontmatter, func() {
			for _, k := range frontmatterKeys(data) {
				fs.confirm(ScanFrontmatter, "frontmatter_key", k.line, k.key, "")
			}
		})
	case ".json":
		fs.keys(ScanJSONKeys, "json_key", jsonKeys)
	case ".yaml", ".yml":
		fs.keys(ScanYAMLKeys, "yaml_key", yamlKeys)
	case ".toml":
		fs.keys(ScanTOMLKeys, "toml_key", tomlKeys)
	}
}

// keys runs one configuration-key scan.
func (fs *fileScan) keys(scan, kind string, read func([]byte, int) []key) {
	fs.r.timed(scan, func() {
		for _, k := range read(fs.data, keysPerFile) {
			fs.confirm(scan, kind, k.line, k.key, "")
		}
	})
}

// reportSkips hands every skip to the caller, in path order.
func (r *run) reportSkips() {
	sort.SliceStable(r.skips, func(a, b int) bool { return r.skips[a].Path < r.skips[b].Path })
	if r.o.Skip != nil {
		for _, s := range r.skips {
			r.o.Skip(s)
		}
	}
}

// newResult starts the result with an empty record per term.
func (r *run) newResult() {
	r.res = &Result{Terms: map[string]*TermStats{}, Files: r.files, Read: r.read}
	for _, t := range r.terms {
		r.res.Terms[t] = &TermStats{ConfirmCount: map[string]int{}}
	}
	r.res.Shape.FilesSkipped = len(r.skips)
}

// scanNames confirms terms in file and directory names and draws the
// directory map.
func (r *run) scanNames() {
	t1 := time.Now()
	dirs := map[string]bool{}
	for i, f := range r.files {
		if r.outs[i] == nil {
			continue
		}
		r.nameFile(f.Path)
		d := path.Dir(f.Path)
		for d != "." && d != "/" && !dirs[d] {
			dirs[d] = true
			d = path.Dir(d)
		}
	}
	for d := range dirs {
		r.dirList = append(r.dirList, d)
	}
	sort.Strings(r.dirList)
	r.nameDirs()
	r.nameNanos = time.Since(t1).Nanoseconds()
}

// nameFile confirms the terms a file's name or path spells.
func (r *run) nameFile(p string) {
	sh := &r.res.Shape
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	seenTerm := map[int]bool{}
	// Test-subject names join the last path components with '_'
	// ("pycode_ast.py" for sphinx/pycode/ast.py).
	joined := []string{p, base, stem}
	if d := path.Dir(p); d != "." {
		joined = append(joined, path.Base(d)+"_"+base)
		if dd := path.Dir(d); dd != "." {
			joined = append(joined, path.Base(dd)+"_"+path.Base(d)+"_"+base)
		}
	}
	for k, cand := range joined {
		if ti, ok := r.termIdx[match.Fold(cand)]; ok && !seenTerm[ti] {
			seenTerm[ti] = true
			kind := "file_name"
			if cand == p || k > 2 {
				kind = "path"
			}
			addConfirm(r.res.Terms[r.terms[ti]], Confirmation{Kind: kind, Path: p, Value: cand})
			r.nameHits++
			if len(sh.Findings) < r.capN {
				sh.Findings = append(sh.Findings, schema.ShapeFinding{Scan: ScanFilenames, Path: p, Value: cand, Detail: kind})
			}
		}
	}
	// Path terms may name a suffix of a walked path ("requests/models.py"
	// for lib/requests/models.py), or a walked path may be the tail of a
	// path term (a stack frame's "/usr/lib/python3/site-packages/requests/models.py").
	fp := match.Fold(p)
	for ti, t := range r.terms {
		if !strings.Contains(t, "/") || t == fp {
			continue
		}
		if strings.HasSuffix(fp, "/"+strings.TrimPrefix(t, "/")) ||
			(strings.Contains(p, "/") && strings.HasSuffix(t, "/"+fp)) {
			addConfirm(r.res.Terms[r.terms[ti]], Confirmation{Kind: "path", Path: p, Value: t})
			r.nameHits++
		}
	}
}

// nameDirs confirms terms in directory names and fills the directory map.
func (r *run) nameDirs() {
	sh := &r.res.Shape
	for _, d := range r.dirList {
		if ti, ok := r.termIdx[match.Fold(path.Base(d))]; ok {
			addConfirm(r.res.Terms[r.terms[ti]], Confirmation{Kind: "dir_name", Path: d, Value: path.Base(d)})
			r.dirHits++
			if len(sh.Findings) < r.capN {
				sh.Findings = append(sh.Findings, schema.ShapeFinding{Scan: ScanFilenames, Path: d, Value: path.Base(d), Detail: "dir_name"})
			}
		}
		if strings.Count(d, "/") < dirMapDepth && len(sh.DirMap) < dirMapCap {
			sh.DirMap = append(sh.DirMap, d+"/")
		}
	}
}

// merge folds the per-file outcomes together in path order.
func (r *run) merge() {
	res, sh := r.res, &r.res.Shape
	var docs int
	var totalBytes int64
	r.relevant = map[string][]schema.ShapeFinding{}
	r.other = map[string][]schema.ShapeFinding{}
	r.touched = map[string]int{}
	r.counts = map[string]int{}
	handleVals := map[string]bool{}
	for i, f := range r.files {
		out := r.outs[i]
		if out == nil {
			continue
		}
		docs++
		res.Paths = append(res.Paths, f.Path)
		totalBytes += int64(out.sizeBytes)
		for _, t := range out.termHits {
			res.Terms[r.terms[t]].DF++
		}
		r.countGroups(out.termHits)
		for _, tc := range out.confirms {
			addConfirm(res.Terms[r.terms[tc.term]], tc.c)
		}
		for s, n := range out.counts {
			r.counts[s] += n
		}
		for s := range out.touched {
			r.touched[s]++
		}
		for s, fs := range out.relevant {
			r.relevant[s] = append(r.relevant[s], fs...)
		}
		for s, fs := range out.findings {
			if len(r.other[s]) < r.capN {
				r.other[s] = append(r.other[s], fs...)
			}
		}
		for _, h := range out.handles {
			handleVals[h.Value] = true
			if len(res.Handles) < r.capN {
				res.Handles = append(res.Handles, h)
			}
		}
	}
	res.HandleCount = len(handleVals)
	sh.FilesWalked = docs
	sh.Corpus.Docs = docs
	if docs > 0 {
		sh.Corpus.AvgLen = float64(totalBytes) / 4 / float64(docs)
	}
}

// countGroups adds one file's terms to the document frequencies of their
// groups, each group once.
func (r *run) countGroups(hits []int) {
	if len(r.o.Groups) == 0 {
		return
	}
	if r.res.GroupDF == nil {
		r.res.GroupDF = map[string]int{}
	}
	var seen []string
	for _, t := range hits {
		g := r.o.Groups[r.terms[t]]
		if g != "" && !slices.Contains(seen, g) {
			seen = append(seen, g)
			r.res.GroupDF[g]++
		}
	}
}

// inventory writes the scan inventory and the findings: goal-relevant
// findings first, then others, capped.
func (r *run) inventory() {
	sh := &r.res.Shape
	for _, s := range scanOrder {
		e := r.scanEntry(s)
		if s != ScanDirMap && s != ScanFilenames && s != ScanCorpus {
			r.addFindings(s, &e)
		}
		sh.ShapeInventory = append(sh.ShapeInventory, e)
	}
	if sh.DirMap == nil {
		sh.DirMap = []string{}
	}
	if sh.Findings == nil {
		sh.Findings = []schema.ShapeFinding{}
	}
}

// scanEntry is one scan's line of the inventory.
func (r *run) scanEntry(s string) schema.ShapeScan {
	sh := &r.res.Shape
	a := r.acct[s]
	e := schema.ShapeScan{Scan: s, Pattern: scanPattern[s], WallMS: a.nanos / 1e6}
	switch s {
	case ScanDirMap:
		e.FilesTouched, e.Hits, e.Capped = len(r.files), len(sh.DirMap), len(r.dirList) > len(sh.DirMap)
		e.WallMS = r.nameNanos / 1e6
	case ScanFilenames:
		e.FilesTouched, e.Hits = len(r.files), r.nameHits+r.dirHits
		e.WallMS = (r.walkDur.Nanoseconds() + r.nameNanos) / 1e6
		e.Capped = r.nameHits+r.dirHits > r.capN
	case ScanHandles:
		e.Pattern = strings.Join(r.handles, " | ")
		e.FilesTouched, e.Hits = r.touched[s], r.counts[s]
		e.Capped = len(r.res.Handles) < r.counts[s]
	case ScanCorpus:
		e.FilesTouched = r.touched[ScanTruthPhrases]
		for _, ts := range r.res.Terms {
			e.Hits += ts.DF
		}
	default:
		e.FilesTouched, e.Hits = r.touched[s], r.counts[s]
	}
	if s != ScanDirMap && s != ScanFilenames {
		if r.firstOver != "" {
			e.CeilingHit = true
			e.Note = fmt.Sprintf("byte ceiling %d reached: files from %s on were not scanned", r.ceiling, r.firstOver)
		}
		if a.stopped.Load() {
			e.CeilingHit = true
			e.Note = fmt.Sprintf("time ceiling %d ms reached: the scan stopped part way", r.o.CeilingMS)
		}
	}
	return e
}

// addFindings adds one content scan's findings, redacted, up to the cap.
func (r *run) addFindings(s string, e *schema.ShapeScan) {
	sh := &r.res.Shape
	fs := r.relevant[s]
	if s == ScanHandles {
		fs = r.res.Handles
	}
	all := len(fs) + len(r.other[s])
	for _, f := range append(fs, r.other[s]...) {
		if countScan(sh.Findings, s) >= r.capN {
			break
		}
		f.Value, f.Detail = secret.String(f.Value), secret.String(f.Detail)
		sh.Findings = append(sh.Findings, f)
	}
	if all > r.capN || r.counts[s] > countScan(sh.Findings, s) {
		e.Capped = true
	}
}

func countScan(fs []schema.ShapeFinding, scan string) int {
	n := 0
	for _, f := range fs {
		if f.Scan == scan {
			n++
		}
	}
	return n
}

func addConfirm(ts *TermStats, c Confirmation) {
	ts.ConfirmCount[c.Kind]++
	if len(ts.Confirmations) < LocationsPerMatch {
		ts.Confirmations = append(ts.Confirmations, c)
	}
}

// normalizeName trims decoration from a heading or key for comparison with a term.
func normalizeName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "`*_:\"'")
	return strings.TrimSpace(s)
}

func compileHandles(pats []string) ([]*regexp.Regexp, []string, error) {
	var res []*regexp.Regexp
	var pre []string
	for _, p := range pats {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, nil, fmt.Errorf("durable handle pattern %q: %v", p, err)
		}
		res = append(res, re)
		pre = append(pre, requiredLiteral(p))
	}
	return res, pre, nil
}

// requiredLiteral returns a literal every match of the pattern contains (the
// longest literal of a top-level concatenation), or "".
func requiredLiteral(p string) string {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return ""
	}
	re = re.Simplify()
	best := ""
	consider := func(r *syntax.Regexp) {
		if r.Op == syntax.OpLiteral && r.Flags&syntax.FoldCase == 0 && len(string(r.Rune)) > len(best) {
			best = string(r.Rune)
		}
	}
	if re.Op == syntax.OpConcat {
		for _, s := range re.Sub {
			consider(s)
		}
	} else {
		consider(re)
	}
	return best
}

func contains(data []byte, lit string) bool {
	return bytes.Contains(data, []byte(lit))
}

func isDoc(ext string) bool {
	switch ext {
	case ".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc", ".org", ".yaml", ".yml", ".json", ".toml", ".jsonl":
		return true
	}
	return false
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf {
		return b[3:]
	}
	return b
}

// capText cuts s to at most n bytes on a rune boundary, valid UTF-8.
func capText(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// appendFold appends s with ASCII letters lowercased (match.Fold without
// allocating).
func appendFold(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
