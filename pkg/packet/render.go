package packet

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/mdsafe"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/tokens"
)

// view is how much of the frame around the chunks a brief shows: fitting a
// brief to its budget first shortens these lists, then leaves out chunks.
type view struct {
	// surfaces is how many ranked surfaces without a chunk are listed.
	surfaces int
	// perFlag is how many places are listed per caution flag.
	perFlag int
	// questions is how many unresolved questions are shown, each cut at
	// questionRunes.
	questions, questionRunes int
	// probes is how many next legal probes are listed.
	probes int
}

// views are the frames tried in order, fullest first; the last one is the
// smallest brief the renderer writes.
var views = []view{
	{surfaces: 25, perFlag: 6, questions: 12, questionRunes: 400, probes: 8},
	{surfaces: 10, perFlag: 3, questions: 6, questionRunes: 200, probes: 4},
	{surfaces: 0, perFlag: 0, questions: 2, questionRunes: 120, probes: 1},
}

// Markdown renders the packet as the brief an agent reads top to bottom, with
// the fullest frame: the verdict and what is common to every chunk, each chunk
// with one line of provenance and its text fenced (brief.Chunk), then the other
// ranked surfaces, cautions, open questions, next probes and skip counts. It
// states the brief's own size, measured by count on the final bytes. Every
// piece of file-derived text goes through pkg/mdsafe. Fit chooses what to
// leave out so the brief stays within its budget.
func Markdown(p *schema.Packet, h *schema.Handoff, count tokens.Counter) string {
	md, _ := renderMeasured(p, h, views[0], look{count: count})
	return md
}

// look is how a brief is written beyond its frame: the token counter its
// header's size is measured by, the calls it points to, and whether chunk
// lines are numbered.
type look struct {
	count       tokens.Counter
	pointers    Pointers
	lineNumbers bool
}

// lookOf is the look Options ask for.
func lookOf(o Options) look {
	return look{count: o.Count, pointers: o.Pointers, lineNumbers: o.LineNumbers}
}

// chunk is a chunk's block as this brief writes it.
func (lk look) chunk(c schema.Chunk, packetID string) string {
	return brief.Block(c, brief.Style{LineNumbers: lk.lineNumbers, MCP: lk.pointers == PointMCP, PacketID: packetID})
}

// renderMeasured renders the brief stating its own size: the header's number
// is re-rendered until it equals the measure of the bytes that carry it (the
// digits can move the count by a token or two; it settles in a few rounds).
func renderMeasured(p *schema.Packet, h *schema.Handoff, v view, lk look) (string, int) {
	count := lk.count
	stated := 0
	seen := map[int]bool{}
	for {
		md := render(p, h, v, lk, stated)
		n := count.Of(md)
		if n == stated {
			return md, n
		}
		if seen[n] {
			// Two sizes alternate: state the larger, which the brief's
			// measure then never exceeds.
			stated = max(stated, n)
			md = render(p, h, v, lk, stated)
			return md, count.Of(md)
		}
		seen[n] = true
		stated = n
	}
}

func render(p *schema.Packet, h *schema.Handoff, v view, lk look, size int) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	header(&b, p, lk, size)
	w("\n## Chunks (%d)\n\n", len(p.HydratedChunks))
	if len(p.HydratedChunks) == 0 {
		w("No chunk was hydrated.\n\n")
	}
	for _, c := range p.HydratedChunks {
		b.WriteString(lk.chunk(c, p.PacketID))
	}
	otherSurfaces(&b, p, v, lk.pointers)
	if h != nil {
		w("## Target set for consolidate\n\n")
		for _, t := range h.Targets {
			w("- rank %d %s: %s\n", t.Rank, mdsafe.Code(t.Path), mdsafe.Code(strings.Join(t.LineRanges, " ")))
		}
		w("\n")
	}
	cautions(&b, p, v)
	if r := p.RelationalEvidence; r != nil {
		relational(&b, r)
	}
	questions(&b, p, v, lk.pointers)
	skips(&b, p, lk.pointers)
	// The brief is measured as it leaves the tool: the output boundary
	// redacts it again, so a redaction it makes here (a file name, a goal)
	// is counted in the size the header states and the budget it keeps.
	return secret.String(b.String())
}

// header is the verdict, the budget as measured, the zone, and what holds
// for every chunk, said once.
func header(b *strings.Builder, p *schema.Packet, lk look, size int) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	w("# Evidence brief %s\n\n", mdsafe.Code(p.PacketID))
	w("- **goal:** %s\n", mdsafe.Code(mdsafe.Cut(p.Intake.Goal, brief.GoalShown)))
	w("- **enough evidence means:** %s\n", mdsafe.Code(mdsafe.Cut(p.Intake.EnoughEvidenceDefinition, brief.EnoughShown)))
	files := map[string]bool{}
	for _, c := range p.HydratedChunks {
		files[c.Path] = true
	}
	w("- **verdict:** %s · %d chunks from %d files · fanout %s · expected output %s\n", mdsafe.Code(p.HaltingReason), len(p.HydratedChunks), len(files), p.FanoutLevelUsed, p.Intake.ExpectedOutput)
	verdictLines(b, p, lk.pointers)
	w("- **size:** %d of %d tokens, this whole brief by %s\n", size, p.Budget.Cap, lk.count.Describe())
	zone := mdsafe.Code(p.ZoneDescriptor.ZoneRoot)
	if g := p.ZoneDescriptor.Git; g != nil {
		zone += " at " + mdsafe.Code(short(g.Head))
		if g.Branch != "" {
			zone += " on " + mdsafe.Code(g.Branch)
		}
		if g.Modified+g.Untracked > 0 {
			zone += fmt.Sprintf(" (%d modified, %d untracked)", g.Modified, g.Untracked)
		} else {
			zone += " (clean)"
		}
	}
	w("- **zone:** %s · effective-record gate %s · generated %s\n", zone, mdsafe.Code(p.EffectiveRecordProjection.Status), p.GeneratedAt)
	if len(p.HydratedChunks) > 0 {
		w("- **every chunk:** %s\n", strings.Join(common(p, lk), "; "))
	}
}

// verdictShown is how many requirements the header lists, each cut to
// verdictRunes.
const (
	verdictShown = 3
	verdictRunes = 160
)

// verdictLines says what satisfied the definition, or what is missing and
// the next call.
func verdictLines(b *strings.Builder, p *schema.Packet, ptr Pointers) {
	v := p.Verdict
	shown := func(items []string) string {
		var out []string
		for _, it := range items[:min(len(items), verdictShown)] {
			out = append(out, mdsafe.Code(mdsafe.Cut(it, verdictRunes)))
		}
		if len(items) > verdictShown {
			out = append(out, fmt.Sprintf("and %d more %s", len(items)-verdictShown, ptr.list(p.PacketID, "verdict")))
		}
		return strings.Join(out, "; ")
	}
	if v.Satisfied {
		if len(v.By) > 0 {
			fmt.Fprintf(b, "- **satisfied by:** %s\n", shown(v.By))
		}
		return
	}
	if len(v.Missing) > 0 {
		fmt.Fprintf(b, "- **missing:** %s\n", shown(v.Missing))
	}
	if v.Next != "" {
		fmt.Fprintf(b, "- **next call:** %s\n", mdsafe.Code(v.Next))
	}
}

// common lists what holds for every chunk of the brief, so no chunk repeats it.
func common(p *schema.Packet, lk look) []string {
	out := []string{
		lk.pointers.reEnterRule(),
		"sha256 is of the range's bytes",
		"the rest of its file and its callers elsewhere are not read",
	}
	if lk.lineNumbers {
		out = append(out, "each line of its text opens with its line number in the file and a space, which are not part of the file")
	}
	classes, flags := map[string]bool{}, map[string]bool{}
	escaped := false
	for _, c := range p.HydratedChunks {
		classes[c.ConfidenceClass] = true
		for _, f := range c.Flags {
			flags[strings.SplitN(f, ":", 2)[0]] = true
		}
		escaped = escaped || mdsafe.Neutral(c.Text) != c.Text
	}
	if p.ZoneDescriptor.Git == nil || p.ZoneDescriptor.Git.Head == "" {
		out = append(out, "outside git: no commit pins these reads")
	}
	for _, k := range []struct{ class, note string }{
		{"hit", "`hit` and `weak_hit` are lexical matches only: the term occurs, its meaning is not confirmed"},
		{"neighbor_only", "`neighbor_only` is a neighbour surface: context, not evidence for the claim"},
		{"caution_only", "`caution_only` is caution or source-of-truth phrasing, not evidence of behaviour"},
	} {
		if classes[k.class] || (k.class == "hit" && classes["weak_hit"]) {
			out = append(out, k.note)
		}
	}
	if flags["truncated_lines"] {
		out = append(out, fmt.Sprintf("lines longer than %d characters are cut (flag `truncated_lines`)", hydrate.DefaultMaxLineRunes))
	}
	if flags["redacted"] {
		out = append(out, "secrets are redacted in the text (flag `redacted:…`), sha256 is over the original bytes")
	}
	if escaped {
		out = append(out, "¤ marks an escape in the text: ¤- breaks the recall tag's name, ¤{HEX} an invisible character, ¤xHH a byte that is not UTF-8, ¤¤ a literal ¤")
	}
	return out
}

// otherSurfaces lists, after the chunks, the ranked surfaces the brief holds
// no chunk of, best first, as one compact line.
func otherSurfaces(b *strings.Builder, p *schema.Packet, v view, ptr Pointers) {
	var items []string
	left := 0
	for _, s := range p.SelectedSurfaces {
		if len(s.ChunkIDs) > 0 {
			continue
		}
		if len(items) >= v.surfaces {
			left++
			continue
		}
		items = append(items, fmt.Sprintf("%d %s", s.Rank, mdsafe.Code(s.Path)))
	}
	if len(items)+left == 0 {
		return
	}
	fmt.Fprintf(b, "## Ranked surfaces not read (%d)\n\n", len(items)+left)
	b.WriteString(strings.Join(items, " · "))
	if left > 0 {
		if len(items) > 0 {
			b.WriteString(" · ")
		}
		fmt.Fprintf(b, "%d more %s", left, ptr.list(p.PacketID, "selected_surfaces"))
	}
	b.WriteString("\n\n")
}

// cautions is the caution map, one line per flag with the places it was
// raised, deduplicated.
func cautions(b *strings.Builder, p *schema.Packet, v view) {
	if len(p.CautionMap) == 0 {
		return
	}
	var flags []string
	places := map[string][]string{}
	seen := map[string]bool{}
	notes := map[string]string{}
	for _, c := range p.CautionMap {
		if c.Flag == "caution:capped" {
			continue
		}
		if _, ok := places[c.Flag]; !ok {
			flags = append(flags, c.Flag)
			places[c.Flag] = nil
		}
		place := c.Path
		if m := cautionLine.FindString(c.Note); m != "" {
			place += ":" + strings.TrimSuffix(m, ":")
		}
		if key := c.Flag + "\x00" + place; !seen[key] {
			seen[key] = true
			places[c.Flag] = append(places[c.Flag], place)
		}
		if strings.HasPrefix(c.Flag, "gate:") && notes[c.Flag] == "" {
			notes[c.Flag] = c.Note
		}
	}
	fmt.Fprintf(b, "## Caution map (%d)\n\n", len(p.CautionMap))
	for _, f := range flags {
		ps := places[f]
		shown := ps[:min(len(ps), v.perFlag)]
		line := make([]string, len(shown))
		for i, s := range shown {
			line[i] = mdsafe.Code(s)
		}
		rest := ""
		if len(ps) > len(shown) {
			rest = fmt.Sprintf(" and %d more", len(ps)-len(shown))
		}
		fmt.Fprintf(b, "- %s %s%s", mdsafe.Code(f), strings.Join(line, " "), rest)
		if n := notes[f]; n != "" && v.perFlag > 0 {
			fmt.Fprintf(b, ": %s", mdsafe.Code(mdsafe.Cut(n, 200)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// cautionLine is the "L<n>:" that opens a caution hit's note.
var cautionLine = regexp.MustCompile(`^L\d+:`)

// questions are the open questions and next probes in one inert block each:
// the packet's own sentences carry paths and terms from the tree.
func questions(b *strings.Builder, p *schema.Packet, v view, ptr Pointers) {
	var qs []string
	seen := map[string]bool{}
	for _, q := range p.UnresolvedQuestions {
		q = mdsafe.Cut(q, v.questionRunes)
		if !seen[q] && len(qs) < v.questions {
			seen[q] = true
			qs = append(qs, "- "+q)
		}
	}
	if left := len(p.UnresolvedQuestions) - len(qs); left > 0 {
		qs = append(qs, fmt.Sprintf("- (%d more %s)", left, ptr.list(p.PacketID, "unresolved_questions")))
	}
	if len(qs) > 0 {
		b.WriteString("## Unresolved questions\n\n")
		b.WriteString(mdsafe.NamesBlock("text", strings.Join(qs, "\n")+"\n"))
		b.WriteString("\n")
	}
	if len(p.NextLegalProbes) > 0 && v.probes > 0 {
		b.WriteString("## Next legal probes\n\n")
		for i, n := range p.NextLegalProbes {
			if i == v.probes {
				fmt.Fprintf(b, "- %d more %s\n", len(p.NextLegalProbes)-i, ptr.list(p.PacketID, "next_legal_probes"))
				break
			}
			fmt.Fprintf(b, "- %s\n", mdsafe.Code(n))
		}
		b.WriteString("\n")
	}
}

// skips counts the skipped surfaces per stage and reason; the list itself is
// in the JSON or YAML form.
func skips(b *strings.Builder, p *schema.Packet, ptr Pointers) {
	fmt.Fprintf(b, "## Skipped surfaces (%d)\n", len(p.SkippedSurfaces))
	if len(p.SkippedSurfaces) == 0 {
		return
	}
	counts := map[string]int{}
	for _, s := range p.SkippedSurfaces {
		counts[s.Stage+"/"+s.Reason]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	fmt.Fprintf(b, "\n%s; each is listed %s\n", strings.Join(parts, " · "), ptr.list(p.PacketID, "skipped_surfaces"))
}

// relational is the relational evidence of a disposition goal; node names,
// references and authors come from the tree and its history, so each is a
// code span.
func relational(b *strings.Builder, r *schema.Relations) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	w("## Relational evidence (%s %s)\n\n", r.Decision, mdsafe.Code(r.Artifact))
	if len(r.Resolved) == 0 {
		w("- the artifact names no node of the code graph\n\n")
		return
	}
	resolved := make([]string, len(r.Resolved))
	for i, n := range r.Resolved {
		resolved[i] = mdsafe.Code(n)
	}
	w("- **resolved to:** %s\n", strings.Join(resolved, ", "))
	for _, group := range []struct {
		name string
		list []schema.Relation
	}{{"serves", r.Serves}, {"compare with", r.Comparisons}} {
		for _, x := range group.list {
			w("- **%s** %s %s — %s · origin %s\n", group.name, mdsafe.Code(x.Node), mdsafe.Code(x.Ref), mdsafe.Code(mdsafe.Cut(x.Relation, 200)), mdsafe.Code(x.Origin))
		}
	}
	if pv := r.Provenance; pv != nil {
		w("- **provenance** (origin %s): %d commit(s) from %s to %s (last %s), authors %s\n", mdsafe.Code(pv.Origin), pv.ChangeCount, pv.FirstChange, pv.LastChange, mdsafe.Code(pv.LastCommit), mdsafe.Code(mdsafe.Cut(strings.Join(pv.Authors, ", "), 300)))
	}
	w("\n")
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}

// PersistPath is the packet file's path under the zone root.
func PersistPath(root, packetID string) (abs, rel string) {
	rel = path.Join(PersistDir, packetID+".yaml")
	return filepath.Join(root, filepath.FromSlash(rel)), rel
}

// Persist writes the packet as YAML to audit-logs/rtch/packets/<id>.yaml under
// root atomically (temp file, fsync, rename, fsync of the directory),
// resolved beneath root: a failure leaves any earlier packet file intact and
// no temp file behind, and a symlink out of the root writes nothing. It returns the path relative to
// root.
func Persist(root string, p *schema.Packet) (string, error) {
	data, err := YAML(p)
	if err != nil {
		return "", err
	}
	// The output boundary for the persisted file (its text was redacted
	// where it was read; this pass catches what slipped by).
	data = []byte(secret.String(string(data)))
	_, rel := PersistPath(root, p.PacketID)
	// Beneath the zone root: an audit-logs symlink that leads out of the
	// tree fails the write, and nothing is created outside.
	if err := atomicfile.WriteBeneath(root, rel, data, 0o644); err != nil {
		return "", err
	}
	return rel, nil
}
