package scout

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/walk"
)

// scanContent gives every file its outcome, from the index when it can
// answer (a batch of files at a time), by reading the file otherwise, and
// folds each outcome into the run's totals as soon as it is made.
func (r *run) scanContent(ctx context.Context) error {
	r.readStart = time.Now()
	r.startReplay()
	toRead := r.files
	if !r.all {
		toRead = nil
		for lo := 0; lo < len(r.files); lo += batchFiles {
			toRead = r.replay(toRead, lo, min(lo+batchFiles, len(r.files)))
		}
	}
	r.read = len(toRead)
	if len(toRead) == 0 {
		return nil
	}
	if r.all {
		r.index = make(map[string]int, len(r.files))
		for i, f := range r.files {
			r.index[f.Path] = i
		}
	}
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
	out := r.newFileOut(len(data))
	defer r.fold(i, out)
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

// newFileOut is a new outcome, held until it is folded.
func (r *run) newFileOut(size int) *fileOut {
	n := r.held.Add(1)
	for p := r.peakHeld.Load(); n > p && !r.peakHeld.CompareAndSwap(p, n); p = r.peakHeld.Load() {
	}
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
