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
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtch/rtch/pkg/probe/match"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/walk"
)

// Scan names, in inventory order.
const (
	ScanDirMap        = "dir_map"
	ScanFilenames     = "filenames"
	ScanHeadings      = "headings"
	ScanFrontmatter   = "frontmatter_keys"
	ScanHandles       = "durable_handles"
	ScanJSONKeys      = "json_keys"
	ScanYAMLKeys      = "yaml_keys"
	ScanTOMLKeys      = "toml_keys"
	ScanSymbols       = "code_symbols"
	ScanTruthPhrases  = "source_of_truth"
	ScanDeprecation   = "deprecation"
	ScanCorpus        = "corpus_stats"
	defaultCap        = 200
	defaultCeiling    = 2 << 30 // bytes per content scan
	keysPerFile       = 200     // JSON/YAML/TOML keys read per file
	dirMapDepth       = 3
	dirMapCap         = 300
	locationsPerMatch = 50
)

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
	// Handles are durable handles found in the tree, in path order, capped.
	Handles []schema.ShapeFinding
	// HandleCount is the number of distinct handle values.
	HandleCount int
	// Paths are the walked text files in path order.
	Paths []string
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
	capN := o.FindingsCap
	if capN <= 0 {
		capN = defaultCap
	}
	ceiling := o.CeilingBytes
	if ceiling <= 0 {
		ceiling = defaultCeiling
	}
	handles := o.Handles
	if handles == nil {
		handles = DefaultHandles
	}
	handleRes, handlePrefixes, err := compileHandles(handles)
	if err != nil {
		return nil, err
	}
	acct := map[string]*scanAcct{}
	for _, s := range scanOrder {
		acct[s] = &scanAcct{}
	}

	// Terms: folded, deduplicated, in the caller's order.
	var terms []string
	termIdx := map[string]int{}
	for _, t := range o.Terms {
		f := match.Fold(strings.TrimSpace(t))
		if f == "" {
			continue
		}
		if _, ok := termIdx[f]; !ok {
			termIdx[f] = len(terms)
			terms = append(terms, f)
		}
	}
	// One matcher for goal terms, phrases and handle prefixes.
	lits := append([]string{}, terms...)
	truthBase := len(lits)
	lits = append(lits, TruthPhrases...)
	deprBase := len(lits)
	lits = append(lits, DeprecationMarkers...)
	m := match.New(lits)
	// Handle prefixes are searched without word boundaries by plain Contains.

	var skips []walk.Skip
	skipFn := func(s walk.Skip) { skips = append(skips, s) }
	t0 := time.Now()
	files, err := walk.Files(ctx, o.Walk, skipFn)
	if err != nil {
		return nil, err
	}
	walkDur := time.Since(t0)
	if len(o.Exclude) > 0 {
		kept := files[:0]
		for _, f := range files {
			if pat := Excluded(f.Path, o.Exclude); pat != "" {
				skips = append(skips, walk.Skip{Path: f.Path, Reason: "forbidden", SizeBytes: f.Size,
					Detail: "matches forbidden assumption " + pat})
				continue
			}
			kept = append(kept, f)
		}
		files = kept
	}

	// Byte ceiling: a scan reads file k only when the bytes of files 0..k fit.
	var cum int64
	within := make([]bool, len(files))
	firstOver := ""
	for i, f := range files {
		cum += f.Size
		within[i] = cum <= ceiling
		if !within[i] && firstOver == "" {
			firstOver = f.Path
		}
	}
	index := make(map[string]int, len(files))
	for i, f := range files {
		index[f.Path] = i
	}
	outs := make([]*fileOut, len(files))
	var done atomic.Int64
	timed := func(scan string, fn func()) {
		a := acct[scan]
		if a.stopped.Load() {
			return
		}
		t := time.Now()
		fn()
		d := time.Since(t).Nanoseconds()
		total := atomic.AddInt64(&a.nanos, d)
		if o.CeilingMS > 0 && total > int64(o.CeilingMS)*1e6 {
			a.stopped.Store(true)
		}
		atomic.AddInt64(&a.files, 1)
	}
	// The scans copy what they keep, so each worker reads every file into
	// one buffer.
	reuse := o.Walk
	reuse.ReuseBuffers = true
	// Symbols are read into a slice of the worker's, reused file to file
	// (only their names are kept, as strings).
	symBufs := sync.Pool{New: func() any { return new([]symbols.Symbol) }}
	err = walk.Each(ctx, reuse, files, func(f walk.File, data []byte) error {
		i := index[f.Path]
		out := &fileOut{counts: map[string]int{}, touched: map[string]bool{}, sizeBytes: len(data),
			findings: map[string][]schema.ShapeFinding{}, relevant: map[string][]schema.ShapeFinding{}}
		outs[i] = out
		if n := done.Add(1); o.Progress != nil && n%512 == 0 {
			o.Progress(int(n), len(files))
		}
		if !within[i] {
			return nil
		}
		data = trimBOM(data)
		ext := strings.ToLower(path.Ext(f.Path))
		// Literal pass: goal terms (df), phrases.
		timed(ScanCorpus, func() {
			seen := make([]bool, len(lits))
			var lines *match.Lines
			m.Scan(data, func(t, s, e int) bool {
				if t < truthBase {
					if !seen[t] {
						seen[t] = true
						out.termHits = append(out.termHits, t)
					}
					return true
				}
				scan := ScanTruthPhrases
				if t >= deprBase {
					scan = ScanDeprecation
				}
				out.counts[scan]++
				if len(out.findings[scan]) < 3 {
					if lines == nil {
						lines = match.NewLines(data)
					}
					ln, ls, le := lines.At(s)
					out.findings[scan] = append(out.findings[scan], schema.ShapeFinding{Scan: scan, Path: f.Path, Line: ln,
						Value: lits[t], Detail: capText(string(data[ls:le]), 160)})
				}
				return true
			})
		})
		out.touched[ScanTruthPhrases] = true
		out.touched[ScanDeprecation] = true
		timed(ScanHandles, func() {
			for k, re := range handleRes {
				if p := handlePrefixes[k]; p != "" && !contains(data, p) {
					continue
				}
				if handlePrefixes[k] == "" && !isDoc(ext) {
					continue // no literal to prefilter on: read only docs
				}
				var lines *match.Lines
				found := 0
				add := func(s, e int) {
					if lines == nil {
						lines = match.NewLines(data)
					}
					ln, _, _ := lines.At(s)
					out.handles = append(out.handles, schema.ShapeFinding{Scan: ScanHandles, Path: f.Path, Line: ln,
						Value: string(data[s:e]), Detail: handles[k]})
					out.counts[ScanHandles]++
					found++
				}
				if p := handlePrefixes[k]; p != "" {
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
					continue
				}
				for _, loc := range re.FindAllIndex(data, 50) {
					add(loc[0], loc[1])
				}
			}
		})
		out.touched[ScanHandles] = true
		var foldBuf []byte
		// confirmD records a value found by a scan; detail is computed only
		// when the finding is kept (most symbols of a big tree are not).
		confirmD := func(scan, kind string, line int, value string, detail func() string) {
			out.counts[scan]++
			foldBuf = appendFold(foldBuf[:0], normalizeName(value))
			ti, rel := termIdx[string(foldBuf)]
			switch {
			case rel:
				d := detail()
				out.confirms = append(out.confirms, termConfirm{ti, Confirmation{Kind: kind, Path: f.Path, Line: line, Value: value, Detail: d}})
				out.relevant[scan] = append(out.relevant[scan], schema.ShapeFinding{Scan: scan, Path: f.Path, Line: line, Value: capText(value, 160), Detail: d})
			case len(out.findings[scan]) < 2:
				out.findings[scan] = append(out.findings[scan], schema.ShapeFinding{Scan: scan, Path: f.Path, Line: line, Value: capText(value, 160), Detail: detail()})
			}
		}
		confirm := func(scan, kind string, line int, value, detail string) {
			confirmD(scan, kind, line, value, func() string { return detail })
		}
		if lang := symbols.Lang(f.Path); lang != "" {
			out.touched[ScanSymbols] = true
			timed(ScanSymbols, func() {
				buf := symBufs.Get().(*[]symbols.Symbol)
				defer symBufs.Put(buf)
				*buf = symbols.AppendExtract((*buf)[:0], f.Path, data)
				for _, s := range *buf {
					confirmD(ScanSymbols, "code_symbol", s.Line, s.Name, func() string {
						d := s.Kind + " " + s.Lang
						if s.Container != "" {
							d += " in " + s.Container
						}
						return d
					})
				}
			})
		}
		switch ext {
		case ".md", ".markdown", ".mdx":
			out.touched[ScanHeadings] = true
			out.touched[ScanFrontmatter] = true
			timed(ScanHeadings, func() {
				for _, h := range headings(data) {
					confirm(ScanHeadings, "heading", h.line, h.text, fmt.Sprintf("h%d", h.level))
				}
			})
			timed(ScanFrontmatter, func() {
				for _, k := range frontmatterKeys(data) {
					confirm(ScanFrontmatter, "frontmatter_key", k.line, k.key, "")
				}
			})
		case ".json":
			out.touched[ScanJSONKeys] = true
			timed(ScanJSONKeys, func() {
				for _, k := range jsonKeys(data, keysPerFile) {
					confirm(ScanJSONKeys, "json_key", k.line, k.key, "")
				}
			})
		case ".yaml", ".yml":
			out.touched[ScanYAMLKeys] = true
			timed(ScanYAMLKeys, func() {
				for _, k := range yamlKeys(data, keysPerFile) {
					confirm(ScanYAMLKeys, "yaml_key", k.line, k.key, "")
				}
			})
		case ".toml":
			out.touched[ScanTOMLKeys] = true
			timed(ScanTOMLKeys, func() {
				for _, k := range tomlKeys(data, keysPerFile) {
					confirm(ScanTOMLKeys, "toml_key", k.line, k.key, "")
				}
			})
		}
		return nil
	}, skipFn)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(skips, func(a, b int) bool { return skips[a].Path < skips[b].Path })
	if o.Skip != nil {
		for _, s := range skips {
			o.Skip(s)
		}
	}

	res := &Result{Terms: map[string]*TermStats{}}
	for _, t := range terms {
		res.Terms[t] = &TermStats{ConfirmCount: map[string]int{}}
	}
	sh := &res.Shape
	sh.FilesSkipped = len(skips)

	// Names: files and directories equal to a term, and the directory map.
	t1 := time.Now()
	dirs := map[string]bool{}
	nameHits := 0
	for i, f := range files {
		if outs[i] == nil {
			continue
		}
		base := path.Base(f.Path)
		stem := strings.TrimSuffix(base, path.Ext(base))
		seenTerm := map[int]bool{}
		// Test-subject names join the last path components with '_'
		// ("pycode_ast.py" for sphinx/pycode/ast.py).
		joined := []string{f.Path, base, stem}
		if d := path.Dir(f.Path); d != "." {
			joined = append(joined, path.Base(d)+"_"+base)
			if dd := path.Dir(d); dd != "." {
				joined = append(joined, path.Base(dd)+"_"+path.Base(d)+"_"+base)
			}
		}
		for k, cand := range joined {
			if ti, ok := termIdx[match.Fold(cand)]; ok && !seenTerm[ti] {
				seenTerm[ti] = true
				kind := "file_name"
				if cand == f.Path || k > 2 {
					kind = "path"
				}
				addConfirm(res.Terms[terms[ti]], Confirmation{Kind: kind, Path: f.Path, Value: cand})
				nameHits++
				if len(sh.Findings) < capN {
					sh.Findings = append(sh.Findings, schema.ShapeFinding{Scan: ScanFilenames, Path: f.Path, Value: cand, Detail: kind})
				}
			}
		}
		// Path terms may name a suffix of a walked path ("requests/models.py"
		// for lib/requests/models.py), or a walked path may be the tail of a
		// path term (a stack frame's "/usr/lib/python3/site-packages/requests/models.py").
		fp := match.Fold(f.Path)
		for ti, t := range terms {
			if !strings.Contains(t, "/") || t == fp {
				continue
			}
			if strings.HasSuffix(fp, "/"+strings.TrimPrefix(t, "/")) ||
				(strings.Contains(f.Path, "/") && strings.HasSuffix(t, "/"+fp)) {
				addConfirm(res.Terms[terms[ti]], Confirmation{Kind: "path", Path: f.Path, Value: t})
				nameHits++
			}
		}
		d := path.Dir(f.Path)
		for d != "." && d != "/" && !dirs[d] {
			dirs[d] = true
			d = path.Dir(d)
		}
	}
	var dirList []string
	for d := range dirs {
		dirList = append(dirList, d)
	}
	sort.Strings(dirList)
	dirHits := 0
	for _, d := range dirList {
		if ti, ok := termIdx[match.Fold(path.Base(d))]; ok {
			addConfirm(res.Terms[terms[ti]], Confirmation{Kind: "dir_name", Path: d, Value: path.Base(d)})
			dirHits++
			if len(sh.Findings) < capN {
				sh.Findings = append(sh.Findings, schema.ShapeFinding{Scan: ScanFilenames, Path: d, Value: path.Base(d), Detail: "dir_name"})
			}
		}
		if strings.Count(d, "/") < dirMapDepth && len(sh.DirMap) < dirMapCap {
			sh.DirMap = append(sh.DirMap, d+"/")
		}
	}
	nameNanos := time.Since(t1).Nanoseconds()

	// Merge per-file outcomes in path order.
	var docs int
	var totalBytes int64
	relevant := map[string][]schema.ShapeFinding{}
	other := map[string][]schema.ShapeFinding{}
	touched := map[string]int{}
	counts := map[string]int{}
	handleVals := map[string]bool{}
	for i, f := range files {
		out := outs[i]
		if out == nil {
			continue
		}
		docs++
		res.Paths = append(res.Paths, f.Path)
		totalBytes += int64(out.sizeBytes)
		for _, t := range out.termHits {
			res.Terms[terms[t]].DF++
		}
		for _, tc := range out.confirms {
			addConfirm(res.Terms[terms[tc.term]], tc.c)
		}
		for s, n := range out.counts {
			counts[s] += n
		}
		for s := range out.touched {
			touched[s]++
		}
		for s, fs := range out.relevant {
			relevant[s] = append(relevant[s], fs...)
		}
		for s, fs := range out.findings {
			if len(other[s]) < capN {
				other[s] = append(other[s], fs...)
			}
		}
		for _, h := range out.handles {
			handleVals[h.Value] = true
			if len(res.Handles) < capN {
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

	// Inventory and findings: goal-relevant findings first, then others, capped.
	for _, s := range scanOrder {
		a := acct[s]
		e := schema.ShapeScan{Scan: s, Pattern: scanPattern[s], WallMS: a.nanos / 1e6}
		switch s {
		case ScanDirMap:
			e.FilesTouched, e.Hits, e.Capped = len(files), len(sh.DirMap), len(dirList) > len(sh.DirMap)
			e.WallMS = nameNanos / 1e6
		case ScanFilenames:
			e.FilesTouched, e.Hits = len(files), nameHits+dirHits
			e.WallMS = (walkDur.Nanoseconds() + nameNanos) / 1e6
			e.Capped = nameHits+dirHits > capN
		case ScanHandles:
			e.Pattern = strings.Join(handles, " | ")
			e.FilesTouched, e.Hits = touched[s], counts[s]
			e.Capped = len(res.Handles) < counts[s]
		case ScanCorpus:
			e.FilesTouched = touched[ScanTruthPhrases]
			for _, ts := range res.Terms {
				e.Hits += ts.DF
			}
		default:
			e.FilesTouched, e.Hits = touched[s], counts[s]
		}
		if s != ScanDirMap && s != ScanFilenames {
			if firstOver != "" {
				e.CeilingHit = true
				e.Note = fmt.Sprintf("byte ceiling %d reached: files from %s on were not scanned", ceiling, firstOver)
			}
			if a.stopped.Load() {
				e.CeilingHit = true
				e.Note = fmt.Sprintf("time ceiling %d ms reached: the scan stopped part way", o.CeilingMS)
			}
		}
		if s != ScanDirMap && s != ScanFilenames && s != ScanCorpus {
			fs := relevant[s]
			if s == ScanHandles {
				fs = res.Handles
			}
			all := len(fs) + len(other[s])
			for _, f := range append(fs, other[s]...) {
				if countScan(sh.Findings, s) >= capN {
					break
				}
				f.Value, f.Detail = secret.String(f.Value), secret.String(f.Detail)
				sh.Findings = append(sh.Findings, f)
			}
			if all > capN || counts[s] > countScan(sh.Findings, s) {
				e.Capped = true
			}
		}
		sh.ShapeInventory = append(sh.ShapeInventory, e)
	}
	if sh.DirMap == nil {
		sh.DirMap = []string{}
	}
	if sh.Findings == nil {
		sh.Findings = []schema.ShapeFinding{}
	}
	return res, nil
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
	if len(ts.Confirmations) < locationsPerMatch {
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
