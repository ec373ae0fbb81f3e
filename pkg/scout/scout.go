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
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/schema"
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
	// NameParts are terms of Terms counted as parts of definition names
	// (TermStats.NamePart): the goal's abbreviations, which enter the
	// basket only when the tree names something with them.
	NameParts []string
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
	// NamePart counts the definitions whose name holds the term as a whole
	// part ("opts" in parseOpts, opts_list), for Options.NameParts only.
	NamePart int
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
	// Files are the files the walk listed (text or not), for the index's
	// Save.
	Files []walk.File
	// Read is how many of them were read; the index answered for the rest.
	Read int
	// peakHeld is the most files' outcomes the run held at once.
	peakHeld int
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
	nameParts []int                            // a term of Options.NameParts per definition name holding it as a part
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
	r.newResult()
	if err := r.scanContent(ctx); err != nil {
		return nil, err
	}
	r.reportSkips()
	r.scanNames()
	r.endMerge()
	r.inventory()
	return r.res, nil
}

// batchFiles is how many files the index answers for at once: a run takes
// them up in path order, a batch at a time, and folds the batch's outcomes
// into its totals before it takes up the next; a file read is folded as
// soon as it is scanned. So a run holds at most a batch of outcomes, and
// what it keeps per file of the tree is a few bytes
// (docs/decisions/index.md, "Building in bounded memory").
var batchFiles = defaultBatchFiles

const defaultBatchFiles = 2048

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
	partIdx             map[string]int // Options.NameParts folded, to their term
	lits                []string
	truthBase, deprBase int
	m                   *match.Matcher

	skips     []walk.Skip
	files     []walk.File
	walkDur   time.Duration
	within    []bool // the byte ceiling lets the content scans read file i
	firstOver string // the first file over the byte ceiling
	walked    []bool // file i was read as text or answered for by the index
	// lo is the first file of the batch the index answers for, outs its
	// files' outcomes (outs[i-lo]); index are the files to read, by path.
	lo    int
	outs  []*fileOut
	index map[string]int
	done  atomic.Int64
	// held counts the outcomes made and not yet folded (fileOut), and
	// peakHeld the most at once.
	held, peakHeld atomic.Int64
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

	pats    []index.Pattern      // the complex terms' patterns
	all     bool                 // no index, or a complex term may be in any file: every file is read
	heldRow []bool               // the names dictionary holds a term's name, by row
	partRow []bool               // a name holds one of the NameParts, by row (a superset)
	given   [len(tallyScans)]int // findings the files so far give (applyTallied)

	read int

	res               *Result
	dirList           []string
	nameHits, dirHits int
	nameNanos         int64
	totals
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
	for _, t := range r.o.NameParts {
		if ti, ok := r.termIdx[match.Fold(strings.TrimSpace(t))]; ok {
			if r.partIdx == nil {
				r.partIdx = map[string]int{}
			}
			r.partIdx[match.Fold(strings.TrimSpace(t))] = ti
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
	r.walked = make([]bool, len(files))
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

// reportSkips hands every skip to the caller, in path order.
func (r *run) reportSkips() {
	sort.SliceStable(r.skips, func(a, b int) bool { return r.skips[a].Path < r.skips[b].Path })
	if r.o.Skip != nil {
		for _, s := range r.skips {
			r.o.Skip(s)
		}
	}
}

// newResult starts the result with an empty record per term, and the
// totals the outcomes are folded into.
func (r *run) newResult() {
	r.res = &Result{Terms: map[string]*TermStats{}, Files: r.files}
	for _, t := range r.terms {
		r.res.Terms[t] = &TermStats{ConfirmCount: map[string]int{}}
	}
	r.startMerge()
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
