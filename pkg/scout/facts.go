package scout

import (
	"encoding/binary"
	"errors"
	"path"
	"slices"
	"strings"
	"unsafe"

	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/internal/parallel"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/walk"
)

// shapeFacts are what the content scans find in one file, before any goal
// term is looked at: the same for every goal, so the tree index keeps them
// (encode) and a warm run applies them to its terms without the file.
type shapeFacts struct {
	// phrases are the first three source-of-truth [0] and deprecation [1]
	// phrase hits; phraseCount counts them all.
	phrases     [2][]item
	phraseCount [2]int
	// handles are the durable-handle matches, at most 50 per pattern.
	handles []item
	// items are the symbols, headings and keys, in scan order; raw, when
	// set, holds them encoded instead (decodeShape).
	items []item
	raw   []byte
}

// item is one value a scan found. A symbol's detail is made from sym
// (kind, language, container) only when the finding is kept.
type item struct {
	scan, kind    string
	line          int
	value, detail string
	sym           [3]string
}

func (it *item) detailText() string {
	if it.scan != ScanSymbols {
		return it.detail
	}
	d := it.sym[0] + " " + it.sym[1]
	if it.sym[2] != "" {
		d += " in " + it.sym[2]
	}
	return d
}

var phraseScans = [2]string{ScanTruthPhrases, ScanDeprecation}

// itemKinds are the kinds of items, coded by index in the index.
var itemKinds = []string{"code_symbol", "heading", "frontmatter_key", "json_key", "yaml_key", "toml_key"}

// apply turns one file's facts into its outcome for this run's terms.
func (r *run) apply(p string, sf *shapeFacts, out *fileOut) {
	markTouched(p, out)
	for k, scan := range phraseScans {
		out.counts[scan] += sf.phraseCount[k]
		for _, it := range sf.phrases[k] {
			out.findings[scan] = append(out.findings[scan], schema.ShapeFinding{Scan: scan, Path: p, Line: it.line,
				Value: strings.Clone(it.value), Detail: strings.Clone(it.detail)})
		}
	}
	for _, it := range sf.handles {
		out.handles = append(out.handles, schema.ShapeFinding{Scan: ScanHandles, Path: p, Line: it.line,
			Value: strings.Clone(it.value), Detail: strings.Clone(it.detail)})
		out.counts[ScanHandles]++
	}
	var fold []byte
	sf.eachItem(func(it *item) {
		out.counts[it.scan]++
		fold = appendFold(fold[:0], normalizeName(it.value))
		ti, rel := r.termIdx[string(fold)]
		// The facts' strings may be views of the mapped index: what is
		// kept is copied.
		switch {
		case rel:
			d, v := strings.Clone(it.detailText()), strings.Clone(it.value)
			out.confirms = append(out.confirms, termConfirm{ti, Confirmation{Kind: it.kind, Path: p, Line: it.line, Value: v, Detail: d}})
			out.relevant[it.scan] = append(out.relevant[it.scan], schema.ShapeFinding{Scan: it.scan, Path: p, Line: it.line, Value: capText(v, 160), Detail: d})
		case len(out.findings[it.scan]) < 2:
			out.findings[it.scan] = append(out.findings[it.scan], schema.ShapeFinding{Scan: it.scan, Path: p, Line: it.line,
				Value: strings.Clone(capText(it.value, 160)), Detail: strings.Clone(it.detailText())})
		}
	})
}

// markTouched records the scans that read a file of this kind.
func markTouched(p string, out *fileOut) {
	out.touched[ScanTruthPhrases] = true
	out.touched[ScanDeprecation] = true
	out.touched[ScanHandles] = true
	if symbols.Lang(p) != "" {
		out.touched[ScanSymbols] = true
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx":
		out.touched[ScanHeadings] = true
		out.touched[ScanFrontmatter] = true
	case ".json":
		out.touched[ScanJSONKeys] = true
	case ".yaml", ".yml":
		out.touched[ScanYAMLKeys] = true
	case ".toml":
		out.touched[ScanTOMLKeys] = true
	}
}

// store puts a file just read into the index, unless it holds text the
// redactor would mask: the free text the facts keep (headings, keys, the
// phrase hits' lines) is shown to it; names and handles are words of the
// file, which index.Extract screens.
func (r *run) store(f walk.File, data []byte, sf *shapeFacts) {
	if r.ix == nil || r.ix.Holds(f) {
		return // read for a term the index cannot answer for, or never indexable
	}
	var text strings.Builder
	for k := range sf.phrases {
		for _, it := range sf.phrases[k] {
			text.WriteString(it.detail + "\n")
		}
	}
	for _, it := range sf.items {
		if it.scan != ScanSymbols {
			text.WriteString(it.value + "\n")
		}
	}
	if text.Len() > 0 && len(secret.Find(text.String())) > 0 {
		r.ix.PutUnindexable(f, r.readStart)
		return
	}
	fx, ok := index.Extract(f.Path, data, r.phraseM)
	if !ok {
		r.ix.PutUnindexable(f, r.readStart)
		return
	}
	fx.Shape = sf.encode()
	r.ix.Put(f, r.readStart, fx)
}

// replay answers from the index for every file within the byte ceiling
// that it holds unchanged and that cannot hold a term it does not answer
// for; it returns the files left to read.
func (r *run) replay() []walk.File {
	pats, all := complexPatterns(r.terms)
	if r.ix == nil || all {
		return r.files
	}
	r.termM = match.New(r.terms)
	r.words, r.cands = r.ix.Words(r.termM), r.ix.Candidates(pats)
	read := make([]bool, len(r.files))
	skips := make([]*walk.Skip, len(r.files))
	folds := make([][]byte, parallel.Workers())
	seens := make([][]bool, parallel.Workers())
	parallel.ForWorker(len(r.files), func(w, i int) {
		f := r.files[i]
		fl, ok := (*index.File)(nil), false
		if r.within[i] {
			fl, ok = r.ix.Lookup(f)
		}
		var has bool
		switch {
		case !ok || fl.Skip != nil:
		case r.cands != nil:
			has = r.cands.Holds(fl)
		default:
			has, folds[w] = fl.MayHold(pats, folds[w])
		}
		var sf *shapeFacts
		var err error
		if ok && !has && fl.Skip == nil {
			sf, err = decodeShape(fl.Shape)
		}
		switch {
		case !ok || has || err != nil:
			read[i] = true
		case fl.Skip != nil:
			skips[i] = fl.Skip
		default:
			if seens[w] == nil {
				seens[w] = make([]bool, len(r.terms))
			}
			r.replayFile(i, fl, sf, seens[w])
		}
	})
	var toRead []walk.File
	for i, f := range r.files {
		if read[i] {
			toRead = append(toRead, f)
		}
		if skips[i] != nil {
			r.skips = append(r.skips, *skips[i])
		}
	}
	return toRead
}

// IndexedPhrases are the phrases whose matches the tree index keeps for the
// probe: the truth phrases and deprecation markers of more than one word
// (the others are words, which it keeps anyway).
func IndexedPhrases() []string {
	var out []string
	for _, p := range append(append([]string{}, TruthPhrases...), DeprecationMarkers...) {
		if !index.Simple(p) {
			out = append(out, p)
		}
	}
	return out
}

// IndexFingerprint is what the facts the scout stores depend on besides a
// file's bytes: its handle patterns (nil for the defaults) and the
// indexed phrases.
func IndexFingerprint(handles []string) [32]byte {
	if handles == nil {
		handles = DefaultHandles
	}
	return index.Fingerprint(strings.Join(handles, "\x00"), strings.Join(IndexedPhrases(), "\x00"))
}

// replayFile gives file i its outcome from its stored facts.
func (r *run) replayFile(i int, fl *index.File, sf *shapeFacts, seen []bool) {
	out := newFileOut(int(fl.Bytes))
	r.outs[i] = out
	r.progress()
	clear(seen)
	if r.words != nil {
		r.words.Terms(fl, seen)
	} else {
		fl.Terms(r.termM, seen)
	}
	for t, s := range seen {
		if s {
			out.termHits = append(out.termHits, t)
		}
	}
	r.apply(r.files[i].Path, sf, out)
}

// complexPatterns are the patterns (index.Pattern) of the terms the
// stored words do not answer for; all says one of them may be in any file.
func complexPatterns(terms []string) (pats []index.Pattern, all bool) {
	for _, t := range terms {
		if index.Simple(t) {
			continue
		}
		p := index.NewPattern(t)
		if p.Any() {
			return nil, true
		}
		pats = append(pats, p)
	}
	return pats, false
}

// encode is the facts as the index keeps them.
func (sf *shapeFacts) encode() []byte {
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	items := func(its []item, full bool) {
		b = binary.AppendUvarint(b, uint64(len(its)))
		for _, it := range its {
			b = binary.AppendUvarint(b, uint64(it.line))
			str(it.value)
			str(it.detail)
			if full {
				b = append(b, byte(slices.Index(scanOrder, it.scan)), byte(slices.Index(itemKinds, it.kind)))
				for _, s := range it.sym {
					str(s)
				}
			}
		}
	}
	for k := range sf.phrases {
		b = binary.AppendUvarint(b, uint64(sf.phraseCount[k]))
		items(sf.phrases[k], false)
	}
	items(sf.handles, false)
	items(sf.items, true)
	return b
}

var errShape = errors.New("truncated shape facts")

// shapeDecoder reads what encode wrote. Strings are views of the bytes,
// not copies: apply copies what it keeps.
type shapeDecoder struct {
	b   []byte
	err error
}

func (d *shapeDecoder) uv() int {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > uint64(len(d.b))+1<<31 {
		d.err = errShape
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *shapeDecoder) str() string {
	n := d.uv()
	if d.err != nil || n > len(d.b) {
		d.err = errShape
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&d.b[0], n)
	d.b = d.b[n:]
	return s
}

func (d *shapeDecoder) code(names []string) string {
	if d.err != nil || len(d.b) == 0 || int(d.b[0]) >= len(names) {
		d.err = errShape
		return ""
	}
	c := d.b[0]
	d.b = d.b[1:]
	return names[c]
}

// item reads one item into it.
func (d *shapeDecoder) item(it *item, full bool) {
	it.line, it.value, it.detail = d.uv(), d.str(), d.str()
	if full {
		it.scan, it.kind = d.code(scanOrder), d.code(itemKinds)
		for j := range it.sym {
			it.sym[j] = d.str()
		}
	}
}

// items reads a counted list; with keep false it only checks it.
func (d *shapeDecoder) items(full, keep bool) []item {
	n := d.uv()
	if n > len(d.b) {
		d.err = errShape
		return nil
	}
	var its []item
	if keep {
		its = make([]item, 0, n)
	}
	var it item
	for k := 0; k < n && d.err == nil; k++ {
		d.item(&it, full)
		if keep {
			its = append(its, it)
		}
	}
	return its
}

// decodeShape reads what encode wrote. The symbols, headings and keys are
// only checked here and read again, one at a time, by apply (a big tree
// has hundreds of thousands).
func decodeShape(b []byte) (*shapeFacts, error) {
	d := &shapeDecoder{b: b}
	sf := &shapeFacts{}
	for k := range sf.phrases {
		sf.phraseCount[k] = d.uv()
		sf.phrases[k] = d.items(false, true)
	}
	sf.handles = d.items(false, true)
	sf.raw = d.b
	d.items(true, false)
	if d.err == nil && len(d.b) != 0 {
		d.err = errShape
	}
	return sf, d.err
}

// eachItem calls fn for every item, from the slice or the stored bytes.
func (sf *shapeFacts) eachItem(fn func(it *item)) {
	if sf.raw == nil {
		for i := range sf.items {
			fn(&sf.items[i])
		}
		return
	}
	d := &shapeDecoder{b: sf.raw}
	n := d.uv()
	var it item
	for k := 0; k < n && d.err == nil; k++ {
		d.item(&it, true)
		fn(&it)
	}
}
