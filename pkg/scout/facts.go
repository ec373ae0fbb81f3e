package scout

import (
	"encoding/binary"
	"errors"
	"maps"
	"path"
	"slices"
	"strings"
	"unsafe"

	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/internal/parallel"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/walk"
	"github.com/rtch/rtch/pkg/zone"
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
		if it.kind == "code_symbol" && r.partIdx != nil {
			out.nameParts = r.appendNameParts(out.nameParts, it.value)
		}
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

// appendNameParts appends the NameParts terms that are whole parts of the
// definition name, once each.
func (r *run) appendNameParts(dst []int, name string) []int {
	parts := intake.IdentifierParts(name)
	if len(parts) < 2 {
		return dst // a name equal to the term is a code_symbol confirmation
	}
	n := len(dst)
	for _, p := range parts {
		if ti, ok := r.partIdx[match.Fold(p)]; ok && !slices.Contains(dst[n:], ti) {
			dst = append(dst, ti)
		}
	}
	return dst
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
	fx.Shape, fx.Names, fx.Tally = sf.encode(), sf.names(), sf.tally()
	r.ix.Put(f, r.readStart, fx)
}

// startReplay looks the terms up in the index once for the run's
// batches: the dictionary's matches of the plain terms, the rows that may
// hold a complex one, the rows whose names hold a term.
func (r *run) startReplay() {
	pats, patTerm, all := complexPatterns(r.terms)
	if r.ix == nil || all {
		r.all = true
		return
	}
	r.pats, r.patTerm = pats, patTerm
	r.termM = match.New(r.terms)
	r.words, r.cands = r.ix.Words(r.termM), r.ix.Candidates(pats)
	if r.words != nil && r.cands != nil {
		r.heldRow = r.ix.NamesHeld(r.terms)
	}
	if r.heldRow != nil && r.partIdx != nil {
		r.partRow = r.ix.NamesWith(slices.Collect(maps.Keys(r.partIdx)))
	}
}

// replay answers from the index for every file of the batch lo..hi
// within the byte ceiling that it holds unchanged and that cannot hold a
// term it does not answer for, and folds their outcomes; it appends the
// files left to read to toRead. A file whose stored names hold no term
// and which has no phrase or handle finding is answered from its table
// row alone (tallied); its entry is decoded only when its first findings
// may still be among the capped findings (applyTallied).
func (r *run) replay(toRead []walk.File, lo, hi int) []walk.File {
	n := hi - lo
	r.lo, r.outs = lo, make([]*fileOut, n)
	rp := &replayed{read: make([]bool, n), skips: make([]*walk.Skip, n),
		tallied: make([]bool, n), rows: make([]index.Stat, n)}
	folds := make([][]byte, parallel.Workers())
	seens := make([][]bool, parallel.Workers())
	parallel.ForWorker(n, func(w, k int) {
		if seens[w] == nil {
			seens[w] = make([]bool, len(r.terms))
		}
		i := lo + k
		st, ok := index.Stat{}, false
		if r.within[i] {
			st, ok = r.ix.Stat(r.files[i])
		}
		switch {
		case !ok:
			rp.read[k] = true
		case r.heldRow != nil && !r.cands.May(st.Row) && r.tally(i, st, r.heldRow, seens[w]):
			rp.tallied[k], rp.rows[k] = true, st
		default:
			folds[w] = r.replayEntry(i, st, r.pats, rp, folds[w], seens[w])
		}
	})
	r.applyTallied(rp)
	if r.index == nil {
		r.index = map[string]int{}
	}
	for k, out := range r.outs {
		i := lo + k
		switch {
		case out != nil:
			r.fold(i, out)
		case rp.read[k]:
			toRead = append(toRead, r.files[i])
			r.index[r.files[i].Path] = i
		case rp.skips[k] != nil:
			r.skips = append(r.skips, *rp.skips[k])
		}
	}
	r.outs = nil
	return toRead
}

// replayed is what replay decided for each file of a batch.
type replayed struct {
	read    []bool       // read the file
	skips   []*walk.Skip // the stored skip verdict
	tallied []bool       // answered from the table row (tally)
	rows    []index.Stat // the table rows of the tallied files
}

// replayEntry answers for file i from its decoded entry, or marks it to be
// read (a corrupt entry, one that may hold a complex term without the
// entry telling for certain); fold is the worker's scratch, returned for
// reuse. An entry that holds none of the complex terms the dictionary
// said it might is answered from its table row when that is all it takes
// (tally), as if the dictionary had not named it: a goal of many dotted
// names names most files of a tree.
func (r *run) replayEntry(i int, st index.Stat, pats []index.Pattern, rp *replayed, fold []byte, seen []bool) []byte {
	fl, ok := r.ix.Read(st)
	var maybe bool
	var yes []int // the complex terms the entry certainly holds
	switch {
	case !ok || fl.Skip != nil:
	case r.cands != nil:
		for pi, h := range r.cands.Held(fl, nil) {
			switch h {
			case index.HeldMaybe:
				maybe = true
			case index.HeldYes:
				yes = append(yes, r.patTerm[pi])
			}
		}
	default:
		maybe, fold = fl.MayHold(pats, fold)
	}
	if ok && fl.Skip == nil && !maybe && len(yes) == 0 && r.heldRow != nil && r.tally(i, st, r.heldRow, seen) {
		rp.tallied[i-r.lo], rp.rows[i-r.lo] = true, st
		return fold
	}
	var sf *shapeFacts
	var err error
	if ok && !maybe && fl.Skip == nil {
		sf, err = decodeShape(fl.Shape)
	}
	switch k := i - r.lo; {
	case !ok || maybe || err != nil:
		rp.read[k] = true
	case fl.Skip != nil:
		rp.skips[k] = fl.Skip
	default:
		r.outs[k] = r.newFileOut(int(fl.Bytes))
		r.progress()
		r.replayFile(i, fl, sf, seen, yes)
	}
	return fold
}

// tally answers for file i from its table row when that is all it takes:
// no name of its shape is a term (held), it has no phrase or handle
// finding, and (the caller knows, from the dictionary or the entry) it
// holds no complex term. Its outcome then is its counts, the kinds of
// scan that touch it and the terms its words hold, all read from the
// table and the dictionaries, whose checksums vouch for them: the entry
// need not be read, and its own checksum is left to a run that reads it.
func (r *run) tally(i int, st index.Stat, held []bool, seen []bool) bool {
	if st.Skip || held[st.Row] {
		return false
	}
	counts, ok := decodeTally(st.Tally)
	if !ok || counts[0]+counts[1]+counts[2] > 0 {
		return false
	}
	if r.partRow != nil && r.partRow[st.Row] {
		return false // only the symbols tell which names hold a goal's abbreviation as a part
	}
	out := r.newFileOut(int(r.files[i].Size))
	for k, n := range counts {
		if n > 0 {
			out.counts[tallyScans[k]] += n
		}
	}
	markTouched(r.files[i].Path, out)
	r.termHits(st.Row, nil, out, seen, nil)
	r.outs[i-r.lo] = out
	r.progress()
	return true
}

// applyTallied decodes the entries of the batch's tallied files whose
// first findings may still be among a scan's capped findings, in path
// order, and applies them whole: the findings a run keeps of a scan are
// the first capN of the files' first findings (merge), so a file past that
// point in every scan of its items adds only its counts, which the tally
// gave. A file still to be read counts as giving none, so no file that
// may be needed is left out; the count goes on from batch to batch
// (r.given). An entry that fails its check is read instead.
func (r *run) applyTallied(rp *replayed) {
	var need []int
	for k, out := range r.outs {
		switch {
		case out == nil:
		case !rp.tallied[k]:
			for j, scan := range tallyScans {
				r.given[j] += len(out.findings[scan])
			}
		default:
			needed := false
			for j, scan := range tallyScans {
				n := out.counts[scan]
				needed = needed || (n > 0 && r.given[j] < r.capN)
				r.given[j] += min(n, 2)
			}
			if needed {
				need = append(need, k)
			}
		}
	}
	seen := make([]bool, len(r.terms))
	for _, k := range need {
		fl, ok := r.ix.Read(rp.rows[k])
		var sf *shapeFacts
		var err error
		if ok {
			sf, err = decodeShape(fl.Shape)
		}
		r.drop(k) // the tally's outcome is replaced
		if !ok || err != nil {
			rp.read[k] = true
			continue
		}
		r.outs[k] = r.newFileOut(int(fl.Bytes))
		r.replayFile(r.lo+k, fl, sf, seen, nil)
	}
}

// IndexedPhrases are the phrases whose matches the tree index keeps for the
// probe: the truth phrases, deprecation markers and the zone's fixed file
// names that are more than one word (the others are words, which it keeps
// anyway).
func IndexedPhrases() []string {
	var out []string
	for _, p := range slices.Concat(TruthPhrases, DeprecationMarkers, zone.FixedNames()) {
		if !index.Simple(p) {
			out = append(out, p)
		}
	}
	return out
}

// IndexFingerprint is what the facts the scout stores depend on besides a
// file's bytes: its handle patterns (nil for the defaults), the indexed
// phrases and the redactor's rules (which files may be stored at all).
func IndexFingerprint(handles []string) [32]byte {
	if handles == nil {
		handles = DefaultHandles
	}
	return index.Fingerprint(strings.Join(handles, "\x00"), strings.Join(IndexedPhrases(), "\x00"), secret.Version())
}

// replayFile gives file i, whose outcome r.outs[i] is new, its outcome
// from its stored facts; also are complex terms it holds (index.HeldYes).
func (r *run) replayFile(i int, fl *index.File, sf *shapeFacts, seen []bool, also []int) {
	out := r.outs[i-r.lo]
	r.termHits(-1, fl, out, seen, also)
	r.apply(r.files[i].Path, sf, out)
}

// termHits records the terms the words of an entry hold: from the
// dictionary's matches by table row when there are some, from the
// entry's own words (fl) otherwise; and the complex terms in also.
func (r *run) termHits(row int, fl *index.File, out *fileOut, seen []bool, also []int) {
	clear(seen)
	for _, t := range also {
		seen[t] = true
	}
	switch {
	case r.words != nil && fl != nil:
		r.words.Terms(fl, seen)
	case r.words != nil:
		r.words.TermsOf(row, seen)
	default:
		fl.Terms(r.termM, seen)
	}
	for t, s := range seen {
		if s {
			out.termHits = append(out.termHits, t)
		}
	}
}

// complexPatterns are the patterns (index.Pattern) of the terms the
// stored words do not answer for, with the term each is of; all says one
// of them may be in any file.
func complexPatterns(terms []string) (pats []index.Pattern, patTerm []int, all bool) {
	for ti, t := range terms {
		if index.Simple(t) {
			continue
		}
		for _, p := range index.Patterns(t) {
			if p.Any() {
				return nil, nil, true
			}
			pats, patTerm = append(pats, p), append(patTerm, ti)
		}
	}
	return pats, patTerm, false
}

// tallyScans are the scans whose per-file counts a tally holds, in its
// order: the phrase and handle scans first (a file with one of those is
// never answered from its tally alone), then the scans of items.
var tallyScans = [...]string{ScanTruthPhrases, ScanDeprecation, ScanHandles,
	ScanHeadings, ScanFrontmatter, ScanJSONKeys, ScanYAMLKeys, ScanTOMLKeys, ScanSymbols}

// tally is the counts of each of tallyScans the facts give, as the index
// keeps them in the file's table row.
func (sf *shapeFacts) tally() []byte {
	var counts [len(tallyScans)]int
	counts[0], counts[1], counts[2] = sf.phraseCount[0], sf.phraseCount[1], len(sf.handles)
	for _, it := range sf.items {
		counts[slices.Index(tallyScans[:], it.scan)]++
	}
	var b []byte
	for _, n := range counts {
		b = binary.AppendUvarint(b, uint64(n))
	}
	return b
}

// decodeTally reads what tally wrote.
func decodeTally(b []byte) (counts [len(tallyScans)]int, ok bool) {
	d := &shapeDecoder{b: b}
	for k := range counts {
		counts[k] = d.uv()
	}
	return counts, d.err == nil && len(d.b) == 0
}

// names are the items' names as apply compares them with the terms, in
// item order: what the index's names dictionary finds a term among.
func (sf *shapeFacts) names() []string {
	out := make([]string, len(sf.items))
	for i, it := range sf.items {
		out[i] = string(appendFold(nil, normalizeName(it.value)))
	}
	return out
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
