package bundle

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/handoff"
	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/wiki"
)

// Graph–wiki contradictions (docs/decisions/guild-bundle.md, "Contradictions").
//
// A graph node and a wiki page are on the same subject when the node's id or
// name is the page's title or one of its aliases (or appears in the title as
// a whole word), or when a page source_ref names the node's id or the file of
// one of the node's source_refs. A decision page and an upstream contract
// (its summary, issues, learnings and notes) are on the node's subject also
// when they name the node or a key of two or more words the node states a
// value for. Two tests then compare them:
//
//   - value: both state a value for the same key, written "Key: value" (a
//     sentence or list item of at most five words before the colon), and the
//     values differ: their numbers differ when both hold numbers, else their
//     words (lowercased, punctuation and articles dropped). The text may also
//     state it as an aside, "key (value)", or name the node with one,
//     "billing.ScheduleDunning (day 1, 3, 5, 7)", which is compared with the
//     node's value of the same unit (first word); an aside counts only when
//     both values hold numbers;
//   - negation: a page sentence names the node, holds a negation (not, never,
//     no longer, n't, cannot) and repeats at least 60% of the content words of
//     a node summary that has none.
//
// The wiki wins unless the node has confidence: high and a direct source_ref
// (a file and line range outside wiki/ and .guild/). A node that loses is left
// out of the bundle; a page that loses stays (Role pages are shared by every
// lane of the role), and the Task layer says which of its statements the node
// overrides. Every contradiction becomes a followups: line.

// statement is a text the bundle carries that a graph node may contradict:
// a wiki page, or an upstream contract.
type statement struct {
	// path is the page, or the receipt file of the contract.
	path string
	// page is the wiki page; nil for a contract.
	page *wiki.Page
	// text is what is compared: the page body, or the contract's fields.
	text string
}

// pageStatement is a wiki page as a statement.
func pageStatement(p *wiki.Page) statement { return statement{path: p.Path, page: p, text: p.Body} }

// contractStatement is an upstream contract as a statement: its summary,
// issues, learnings and notes, one sentence list each.
func contractStatement(r *handoff.Receipt) statement {
	c := r.Contract
	parts := []string{c.Summary, c.Notes}
	parts = append(parts, c.Issues...)
	parts = append(parts, c.Learnings...)
	return statement{path: r.Path, text: strings.Join(parts, "\n\n")}
}

// kind names the statement in a followups line.
func (s statement) kind() string {
	if s.page == nil {
		return "upstream contract"
	}
	return "page"
}

// decisive reports a statement that settles a question for the task — a
// decision or an upstream contract — whose subject is also what it names.
func (s statement) decisive() bool { return s.page == nil || s.page.Category == "decision" }

// contradiction is one graph node against one statement on one key.
type contradiction struct {
	node, page string
	// kind is "page" or "upstream contract".
	kind string
	// key is the key both state a value for, or "" for a negation.
	key string
	// graphWins is the rule's verdict.
	graphWins bool
	// why explains the verdict.
	why string
}

// line is the followups: entry: node id, page path, the side that won, why.
func (c contradiction) line() string {
	what := fmt.Sprintf("key %q differs", c.key)
	if c.key == "" {
		what = "the page negates the node summary"
	}
	side, then := "wiki wins", "the node is left out of the bundle"
	if c.graphWins {
		side, then = "graph wins", "the "+c.kind+" needs updating"
	}
	where := c.page
	if c.kind == "page" {
		// a wiki page's path is in the record spelling (pkg/pathenc), a
		// receipt's is its file name: oneLine escapes each once
		where = pathenc.Decode(where)
	}
	return oneLine(fmt.Sprintf("contradiction: graph node %s vs %s %s (%s): %s — %s; %s", c.node, c.kind, where, what, side, c.why, then))
}

// loadGraph reads the project's graph index; nil when there is none or it does
// not load (recall, which reads the same file, reports why).
func loadGraph(root string) *graph.Graph {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(graph.RelPath)))
	if err != nil {
		return nil
	}
	defer f.Close()
	g, _, err := graph.Load(f, graph.RelPath)
	if err != nil {
		return nil
	}
	return g
}

// nodeFor finds the node a graph chunk renders: recall names a graph chunk by
// the node's first source_ref, or by graph.RelPath#<id> when it has none. When
// two nodes share a first source_ref, the first in file order is taken.
func nodeFor(g *graph.Graph, source string) (graph.Node, bool) {
	if g == nil {
		return graph.Node{}, false
	}
	if id, ok := strings.CutPrefix(source, graph.RelPath+"#"); ok {
		return g.Node(id)
	}
	for _, n := range g.Nodes {
		if len(n.SourceRefs) > 0 && n.SourceRefs[0] == source {
			return n, true
		}
	}
	return graph.Node{}, false
}

// resolveContradictions compares each graph chunk's node with each statement,
// drops the chunks whose node loses, and returns the contradictions in chunk,
// statement and key order.
func resolveContradictions(g *graph.Graph, chunks []chunk, stmts []statement) ([]chunk, []contradiction) {
	var keep []chunk
	var found []contradiction
	for _, ch := range chunks {
		n, ok := nodeFor(g, ch.c.SourcePath)
		if !ok {
			keep = append(keep, ch)
			continue
		}
		wins, why := graphRule(n)
		lost := false
		for _, st := range stmts {
			if !onSubject(n, st) {
				continue
			}
			for _, key := range conflicts(n, st.text) {
				found = append(found, contradiction{node: n.ID, page: st.path, kind: st.kind(), key: key, graphWins: wins, why: why})
				lost = lost || !wins
			}
		}
		if !lost {
			keep = append(keep, ch)
		}
	}
	return keep, found
}

var directRefRE = regexp.MustCompile(`^([^#\s]+)#L\d+(?:-L\d+)?$`)

// graphRule says whether the node beats a page, and why.
func graphRule(n graph.Node) (bool, string) {
	conf := strings.ToLower(strings.TrimSpace(n.Confidence))
	if conf == "" {
		conf = "unset"
	}
	direct := ""
	for _, r := range n.SourceRefs {
		if m := directRefRE.FindStringSubmatch(r); m != nil && !isUnder(m[1], "wiki") && !isUnder(m[1], ".guild") {
			direct = r
			break
		}
	}
	switch {
	case conf == "high" && direct != "":
		return true, "node confidence high with direct source_ref " + direct
	case conf == "high":
		return false, "node confidence high but no direct source_ref (a file#Lx-Ly outside wiki/ and .guild/)"
	default:
		return false, "node confidence " + conf + " (the graph wins only with confidence high and a direct source_ref)"
	}
}

// sameSubject applies the subject rule.
func sameSubject(n graph.Node, p *wiki.Page) bool {
	names := []string{n.ID, n.Name}
	for _, s := range names {
		if s == "" {
			continue
		}
		if strings.EqualFold(p.Title, s) || containsWord(p.Title, s) {
			return true
		}
		for _, a := range p.Front.Aliases {
			if strings.EqualFold(strings.TrimSpace(a), s) {
				return true
			}
		}
	}
	files := map[string]bool{}
	for _, r := range n.SourceRefs {
		f, _, _ := strings.Cut(r, "#")
		files[path.Clean(f)] = true
	}
	for _, r := range p.Front.SourceRefs {
		r = strings.TrimSpace(r)
		f, _, _ := strings.Cut(r, "#")
		if r == n.ID || (n.Name != "" && r == n.Name) || files[path.Clean(f)] {
			return true
		}
	}
	return false
}

// onSubject applies the subject rule to a statement: sameSubject for a page,
// and for a decisive statement also naming the node or one of its keys of
// two or more words.
func onSubject(n graph.Node, st statement) bool {
	if st.page != nil && sameSubject(n, st.page) {
		return true
	}
	if !st.decisive() {
		return false
	}
	if containsWord(st.text, n.ID) || n.Name != "" && containsWord(st.text, n.Name) {
		return true
	}
	for _, f := range facts(sentences(n.Summary)) {
		if strings.Contains(f.key, " ") && containsWord(st.text, f.key) {
			return true
		}
	}
	return false
}

// containsWord reports s in text, case-insensitively, bounded by characters
// that are not letters, digits, '_' or '.'.
func containsWord(text, s string) bool {
	t, w := strings.ToLower(text), strings.ToLower(s)
	for i := 0; ; {
		j := strings.Index(t[i:], w)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !wordByte(t[a-1])) && (b == len(t) || !wordByte(t[b])) {
			return true
		}
		i = a + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 0x80
}

// conflicts lists the keys on which the node and a text state different
// values, then "" once when a sentence of the text negates the node summary.
func conflicts(n graph.Node, text string) []string {
	var out []string
	ss := pageSentences(text)
	textFacts := facts(ss)
	for _, nf := range facts(sentences(n.Summary)) {
		if statesOther(nf, textFacts, ss, n) {
			out = append(out, nf.key)
		}
	}
	if negates(n, text) {
		out = append(out, "")
	}
	return out
}

// statesOther reports a sentence giving the node's fact another value: as
// "Key: value", as the aside "key (value)", or as an aside to the node's
// name holding a value of the same unit.
func statesOther(nf fact, textFacts []fact, ss []string, n graph.Node) bool {
	for _, tf := range textFacts {
		if nf.key == tf.key && differ(nf.value, tf.value) {
			return true
		}
	}
	if len(numbers(nf.value)) == 0 {
		return false
	}
	numeric := func(v string) bool { return len(numbers(v)) > 0 && differ(nf.value, v) }
	for _, v := range asides(ss, nf.key) {
		if numeric(v) {
			return true
		}
	}
	for _, name := range []string{n.ID, n.Name} {
		for _, v := range asides(ss, name) {
			if numeric(v) && firstWord(v) == firstWord(nf.value) {
				return true
			}
		}
	}
	return false
}

// asides finds "name (value)" in the sentences, name as a whole word in any
// case, and returns the values.
func asides(ss []string, name string) []string {
	if name == "" {
		return nil
	}
	var out []string
	for _, s := range ss {
		low, w := strings.ToLower(s), strings.ToLower(name)
		for i := 0; ; {
			j := strings.Index(low[i:], w)
			if j < 0 {
				break
			}
			a, b := i+j, i+j+len(w)
			i = a + 1
			if a > 0 && wordByte(low[a-1]) || b < len(low) && wordByte(low[b]) {
				continue
			}
			rest := strings.TrimLeft(s[b:], " ")
			if !strings.HasPrefix(rest, "(") {
				continue
			}
			if end := strings.IndexByte(rest, ')'); end > 0 {
				out = append(out, rest[1:end])
			}
		}
	}
	return out
}

// firstWord is a value's first word, lowercased (its unit: "day" of
// "day 1, 3, 5").
func firstWord(v string) string {
	if ws := words(v); len(ws) > 0 {
		return ws[0]
	}
	return ""
}

type fact struct{ key, value string }

var factRE = regexp.MustCompile(`^(?:\*\*)?([A-Za-z][A-Za-z0-9_-]*(?: [A-Za-z0-9_-]+){0,4})(?:\*\*)?:\s+(\S.*)$`)

// facts reads "Key: value" statements, keys lowercased, first statement of a
// key kept.
func facts(ss []string) []fact {
	var out []fact
	seen := map[string]bool{}
	for _, s := range ss {
		m := factRE.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		k := strings.ToLower(m[1])
		if !seen[k] {
			seen[k] = true
			out = append(out, fact{key: k, value: strings.TrimRight(m[2], ". ")})
		}
	}
	return out
}

var (
	numberRE = regexp.MustCompile(`\d+(?:[.,]\d+)*`)
	wordRE   = regexp.MustCompile(`[\p{L}\p{N}]+`)
	articles = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true}
)

// differ compares two values: by their numbers when both hold numbers (so
// "day 1, 3, 5 and 7" equals "day 1, 3, 5, 7"), else by their words.
func differ(a, b string) bool {
	na, nb := numbers(a), numbers(b)
	if len(na) > 0 && len(nb) > 0 {
		return strings.Join(na, " ") != strings.Join(nb, " ")
	}
	return strings.Join(words(a), " ") != strings.Join(words(b), " ")
}

// numbers lists the numbers of s; "1, 3" is two numbers, "1,000" one.
func numbers(s string) []string {
	var out []string
	for _, m := range numberRE.FindAllString(strings.ReplaceAll(s, ", ", " "), -1) {
		out = append(out, m)
	}
	return out
}

func words(s string) []string {
	var out []string
	for _, w := range wordRE.FindAllString(strings.ToLower(s), -1) {
		if !articles[w] {
			out = append(out, w)
		}
	}
	return out
}

// sentences splits prose at sentence ends and semicolons.
func sentences(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ";") {
		rest := strings.TrimSpace(part)
		for rest != "" {
			loc := sentenceEnd.FindStringIndex(rest)
			if loc == nil {
				out = append(out, rest)
				break
			}
			out = append(out, strings.TrimSpace(rest[:loc[0]+1]))
			rest = strings.TrimSpace(rest[loc[1]:])
		}
	}
	return out
}

// pageSentences are a page body's sentences: lines outside fenced code,
// headings and tables, list markers and backticks removed, each line split.
func pageSentences(body string) []string {
	var out []string
	inFence := false
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, sentences(strings.Join(para, " "))...)
			para = nil
		}
	}
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			flush()
			continue
		}
		if inFence || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") {
			flush()
			continue
		}
		if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") {
			flush() // a list item is a statement of its own
			t = strings.TrimSpace(t[2:])
		}
		para = append(para, strings.ReplaceAll(t, "`", ""))
	}
	flush()
	return out
}

var negationRE = regexp.MustCompile(`(?i)\b(?:not|never|no longer|cannot)\b|n't\b`)

// negates applies the negation test: a page sentence that names the node,
// negates, and repeats 60% or more of the summary's content words (at least
// two), when the summary itself holds no negation.
func negates(n graph.Node, body string) bool {
	if n.Summary == "" || negationRE.MatchString(n.Summary) {
		return false
	}
	skip := map[string]bool{}
	for _, t := range queryTerms(n.ID + " " + n.Name) {
		skip[t] = true
	}
	var want []string
	for _, t := range unique(queryTerms(n.Summary)) {
		if !skip[t] {
			want = append(want, t)
		}
	}
	if len(want) < 2 {
		return false
	}
	for _, s := range pageSentences(body) {
		if !negationRE.MatchString(s) || !(containsWord(s, n.ID) || (n.Name != "" && containsWord(s, n.Name))) {
			continue
		}
		have := map[string]bool{}
		for _, t := range queryTerms(s) {
			have[t] = true
		}
		hit := 0
		for _, t := range want {
			if have[t] {
				hit++
			}
		}
		if hit*10 >= len(want)*6 {
			return true
		}
	}
	return false
}
