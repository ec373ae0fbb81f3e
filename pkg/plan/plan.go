// Package plan parses a guild plan (.guild/plan/<slug>.md): YAML frontmatter
// (type: plan, spec, team, approved) and one "## Lane: <owner>" section per
// specialist task, each with bullets task-id, owner, depends-on, scope,
// success-criteria, autonomy-policy, autonomy and refs. The lanes' depends-on
// edges must form a DAG over known task ids; every problem is reported as an error
// naming the plan file and line.
//
// The lane block is kept verbatim (it is the specialist's contract and goes into
// the bundle byte for byte); the parsed fields are what the tools reason with.
package plan

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/wiki"
	"go.yaml.in/yaml/v3"
)

// Plan is one parsed plan file.
type Plan struct {
	// Path is the plan file as it was named to Parse.
	Path string
	// Spec is the frontmatter's spec path (the document the plan implements).
	Spec string
	// Team lists the specialists the frontmatter names.
	Team []string
	// Approved reports the frontmatter's approved field (see approvedValue).
	Approved bool
	// Lanes are in file order.
	Lanes []*Lane
}

// Lane is one "## Lane: <owner>" section.
type Lane struct {
	// Heading is the owner named in the "## Lane:" heading.
	Heading string
	// TaskID is the lane's task-id, T<n>-<specialist>.
	TaskID string
	// Owner is the specialist slug that runs the lane.
	Owner string
	// DependsOn lists the task ids whose receipts this lane consumes.
	DependsOn []string
	// Scope is the lane's scope text.
	Scope string
	// SuccessCriteria is the success-criteria text, nested bullets one per line.
	SuccessCriteria string
	// AutonomyPolicy is the autonomy-policy text (may act / requires
	// confirmation / forbidden), nested bullets one per line.
	AutonomyPolicy string
	// Autonomy is "ask" or "all"; "ask" when the lane does not say.
	Autonomy string
	// Refs are the pages and files the lane names.
	Refs []string
	// Block is the section verbatim, from its heading to the line before the next
	// heading of level one or two, trailing blank lines removed.
	Block string
	// Line is the 1-based line of the "## Lane:" heading.
	Line int
	// FieldLines maps each bullet key seen to its 1-based line.
	FieldLines map[string]int
}

// Error is a problem at a position in a plan file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Keys are the lane bullet keys, in the order the spec lists them.
var Keys = []string{"task-id", "owner", "depends-on", "scope", "success-criteria", "autonomy-policy", "autonomy", "refs"}

var (
	laneHeading = regexp.MustCompile(`^##[ \t]+Lane:[ \t]*(.*?)[ \t#]*$`)
	anyHeading  = regexp.MustCompile(`^(#{1,6})(?:[ \t]|$)`)
	bulletRE    = regexp.MustCompile(`^( {0,3})[-*+][ \t]+(.*)$`)
	keyRE       = regexp.MustCompile("^(?:\\*\\*|`)?([A-Za-z][A-Za-z_ -]*?)(?:\\*\\*|`)?[ \\t]*:(?:\\*\\*)?(?:[ \\t]+(.*)|)$")
	taskIDRE    = regexp.MustCompile(`^T[0-9]+-([A-Za-z0-9][A-Za-z0-9._-]*)$`)
	slugRE      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	linkRE      = regexp.MustCompile(`^\[[^\]]*\]\(([^)\s]+)\)$`)
	fenceRE     = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
)

// Parse reads a plan from text; name is used in error messages. All problems
// found are returned together (errors.Join of *Error values).
func Parse(name string, data []byte) (*Plan, error) {
	text := wiki.NormalizeText(data)
	p := &Plan{Path: name}
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, args...)})
	}

	front, body, bodyLine, ok, unterminated := wiki.SplitFrontmatter(text)
	switch {
	case unterminated:
		fail(1, "frontmatter opened with --- but never closed")
	case !ok:
		fail(1, "no YAML frontmatter (a plan starts with ---, type: plan, spec, team, approved, ---)")
	default:
		p.parseFrontmatter(front, fail)
	}

	lines := strings.Split(body, "\n")
	var cur *Lane
	var curStart int // index into lines of cur's heading
	closeLane := func(end int) {
		if cur == nil {
			return
		}
		blk := lines[curStart:end]
		for len(blk) > 0 && strings.TrimSpace(blk[len(blk)-1]) == "" {
			blk = blk[:len(blk)-1]
		}
		cur.Block = strings.Join(blk, "\n") + "\n"
		p.Lanes = append(p.Lanes, cur)
		cur = nil
	}
	var fence string
	for i, l := range lines {
		if fence != "" {
			if closesFence(l, fence) {
				fence = ""
			}
			continue
		}
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			fence = m[1]
			continue
		}
		h := anyHeading.FindStringSubmatch(l)
		if h == nil || len(h[1]) > 2 {
			continue
		}
		closeLane(i)
		if m := laneHeading.FindStringSubmatch(l); m != nil {
			cur = &Lane{Heading: m[1], Line: bodyLine + i, FieldLines: map[string]int{}}
			curStart = i
		}
	}
	closeLane(len(lines))
	if len(p.Lanes) == 0 {
		fail(bodyLine, "no \"## Lane: <owner>\" sections")
	}
	for _, ln := range p.Lanes {
		parseLane(ln, fail)
	}
	p.validateGraph(fail)
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].(*Error).Line < errs[j].(*Error).Line })
		return nil, errors.Join(errs...)
	}
	return p, nil
}

func (p *Plan) parseFrontmatter(front string, fail func(int, string, ...any)) {
	var fm map[string]any
	if err := yaml.Unmarshal([]byte(front), &fm); err != nil {
		fail(2, "frontmatter is not valid YAML: %v", err)
		return
	}
	line := func(key string) int {
		for i, l := range strings.Split(front, "\n") {
			if strings.HasPrefix(l, key+":") {
				return i + 2
			}
		}
		return 1
	}
	switch t := fm["type"]; t {
	case "plan":
	case nil:
		fail(1, "frontmatter has no type (want type: plan)")
	default:
		fail(line("type"), "frontmatter type is %v, want plan", t)
	}
	if s, ok := fm["spec"].(string); ok {
		p.Spec = s
	} else if fm["spec"] != nil {
		fail(line("spec"), "frontmatter spec must be a path, got %v", fm["spec"])
	}
	switch t := fm["team"].(type) {
	case string:
		p.Team = splitList(t)
	case []any:
		for _, v := range t {
			p.Team = append(p.Team, fmt.Sprint(v))
		}
	case nil:
	default:
		fail(line("team"), "frontmatter team must be a list of specialists, got %v", t)
	}
	p.Approved = approvedValue(fm["approved"])
}

// approvedValue reads the frontmatter's approved field: true, or a non-empty
// value other than false/no (a date or an approver's name), counts as approved.
func approvedValue(v any) bool {
	switch t := v.(type) {
	case bool:
		return t
	case nil:
		return false
	case string:
		s := strings.ToLower(strings.TrimSpace(t))
		return s != "" && s != "false" && s != "no" && s != "pending"
	default:
		return true
	}
}

// parseLane reads the top-level key: value bullets of a lane block. Indented
// lines after a bullet continue it; indented bullets are its items.
func parseLane(ln *Lane, fail func(int, string, ...any)) {
	for _, f := range laneFields(ln, fail) {
		ln.set(f)
	}
	checkLane(ln, fail)
}

// laneField is one key bullet of a lane as written: its value, the
// indented bullets under it (items) and the indented lines that continue
// its value (cont).
type laneField struct {
	key   string
	line  int
	value string
	items []string
	cont  []string
}

// laneFields collects the lane's key bullets, skipping fenced blocks and
// blank lines. A top-level bullet starts a field (or fails and ends the
// one before); an indented line adds to the current field; an unindented
// line of prose ends it and stays only in Block.
func laneFields(ln *Lane, fail func(int, string, ...any)) []*laneField {
	var fields []*laneField
	var cur *laneField
	lines := strings.Split(strings.TrimSuffix(ln.Block, "\n"), "\n")
	var fence string
	for i, l := range lines[1:] {
		no := ln.Line + 1 + i
		if fence != "" {
			if closesFence(l, fence) {
				fence = ""
			}
			continue
		}
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			fence = m[1]
			cur = nil
			continue
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		if b := bulletRE.FindStringSubmatch(l); b != nil && len(b[1]) < 2 {
			if cur = keyBullet(ln, b[2], no, fail); cur != nil {
				fields = append(fields, cur)
			}
			continue
		}
		if cur == nil || indent == 0 {
			cur = nil // prose inside the lane: kept in Block, not a field
			continue
		}
		cur.add(l)
	}
	return fields
}

// keyBullet reads a top-level bullet's text as "key: value" and records the
// key's line. It fails, and returns nil, on a bullet that is not "key:
// value", an unknown key or a key given twice.
func keyBullet(ln *Lane, text string, no int, fail func(int, string, ...any)) *laneField {
	m := keyRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		fail(no, "lane %s: bullet %q is not \"key: value\" (keys: %s)", ln.label(), clip(text), strings.Join(Keys, ", "))
		return nil
	}
	key := strings.ToLower(strings.NewReplacer("_", "-", " ", "-").Replace(strings.TrimSpace(m[1])))
	if !slices.Contains(Keys, key) {
		fail(no, "lane %s: unknown key %q (keys: %s)", ln.label(), m[1], strings.Join(Keys, ", "))
		return nil
	}
	if prev, dup := ln.FieldLines[key]; dup {
		fail(no, "lane %s: %s given twice (first at line %d)", ln.label(), key, prev)
		return nil
	}
	ln.FieldLines[key] = no
	return &laneField{key: key, line: no, value: strings.TrimSpace(m[2])}
}

// add takes an indented line under the field: a bullet is a new item, any
// other line continues the last item, or the value when there is none.
func (f *laneField) add(l string) {
	if b := bulletRE.FindStringSubmatch(strings.TrimLeft(l, " \t")); b != nil {
		f.items = append(f.items, strings.TrimSpace(b[2]))
	} else if len(f.items) > 0 {
		f.items[len(f.items)-1] += " " + strings.TrimSpace(l)
	} else {
		f.cont = append(f.cont, strings.TrimSpace(l))
	}
}

// text is the field's value with its continuation lines, on one line.
func (f *laneField) text() string {
	return strings.TrimSpace(strings.Join(append([]string{f.value}, f.cont...), " "))
}

// list is the field read as a list: the comma-separated text, then each
// item's entries.
func (f *laneField) list() []string {
	out := splitList(f.text())
	for _, it := range f.items {
		out = append(out, splitList(it)...)
	}
	return out
}

// block is the field read as a block: the text, then one line per item.
func (f *laneField) block() string {
	parts := []string{}
	if text := f.text(); text != "" {
		parts = append(parts, text)
	}
	return strings.Join(append(parts, f.items...), "\n")
}

// set stores a field in the lane, read as its key wants: one value, a list
// or a block.
func (ln *Lane) set(f *laneField) {
	switch f.key {
	case "task-id":
		ln.TaskID = unquote(f.text())
	case "owner":
		ln.Owner = unquote(f.text())
	case "depends-on":
		ln.DependsOn = f.list()
	case "refs":
		ln.Refs = f.list()
	case "scope":
		ln.Scope = f.block()
	case "success-criteria":
		ln.SuccessCriteria = f.block()
	case "autonomy-policy":
		ln.AutonomyPolicy = f.block()
	case "autonomy":
		ln.Autonomy = strings.ToLower(unquote(f.text()))
	}
}

// label names the lane in a message: its heading's owner, or "(unnamed)"
// when the heading names none (that is reported once, by checkLane).
func (ln *Lane) label() string {
	if ln.Heading == "" {
		return "(unnamed)"
	}
	return ln.Heading
}

// checkLane checks the fields a lane must have and their forms: a heading
// and a task-id, an owner (the heading's when not given), a task-id that
// names it, and an autonomy ("ask" when not given).
func checkLane(ln *Lane, fail func(int, string, ...any)) {
	if ln.Heading == "" {
		fail(ln.Line, "lane heading names no owner (want \"## Lane: <owner>\")")
	}
	if ln.TaskID == "" {
		fail(ln.Line, "lane %s: no task-id bullet (want \"- task-id: T<n>-<specialist>\")", ln.label())
	}
	checkOwner(ln, fail)
	if ln.TaskID != "" {
		if m := taskIDRE.FindStringSubmatch(ln.TaskID); m == nil {
			fail(ln.FieldLines["task-id"], "lane %s: task-id %q is not T<n>-<specialist>", ln.label(), ln.TaskID)
		} else if slugRE.MatchString(ln.Owner) && m[1] != ln.Owner {
			fail(ln.FieldLines["task-id"], "lane %s: task-id %q does not name its owner (want T<n>-%s)", ln.label(), ln.TaskID, ln.Owner)
		}
	}
	switch ln.Autonomy {
	case "":
		ln.Autonomy = "ask"
	case "ask", "all":
	default:
		fail(ln.FieldLines["autonomy"], "lane %s: autonomy %q is not ask or all", ln.label(), ln.Autonomy)
	}
}

// checkOwner defaults the owner to the heading's, and fails an owner that
// differs from the heading or is not a slug.
func checkOwner(ln *Lane, fail func(int, string, ...any)) {
	if ln.Owner == "" {
		ln.Owner = ln.Heading
	} else if ln.Heading != "" && ln.Owner != ln.Heading {
		fail(ln.FieldLines["owner"], "lane %s: owner %q differs from the heading's %q", ln.label(), ln.Owner, ln.Heading)
	}
	if ln.Owner != "" && !slugRE.MatchString(ln.Owner) {
		fail(ln.Line, "lane owner %q is not a slug (letters, digits, '.', '_', '-')", ln.Owner)
	}
}

// validateGraph checks that task ids are unique, every depends-on names a lane of
// the plan, and the depends-on edges have no cycle.
func (p *Plan) validateGraph(fail func(int, string, ...any)) {
	byID := map[string]*Lane{}
	for _, ln := range p.Lanes {
		if ln.TaskID == "" {
			continue
		}
		if prev, dup := byID[ln.TaskID]; dup {
			fail(ln.FieldLines["task-id"], "task-id %s is also lane %s's (line %d)", ln.TaskID, prev.Heading, prev.FieldLines["task-id"])
			continue
		}
		byID[ln.TaskID] = ln
	}
	broken := false
	for _, ln := range p.Lanes {
		for _, d := range ln.DependsOn {
			if _, ok := byID[d]; !ok {
				fail(ln.FieldLines["depends-on"], "lane %s: depends-on names unknown task %q (known: %s)", ln.label(), d, strings.Join(sortedKeys(byID), ", "))
				broken = true
			} else if d == ln.TaskID {
				fail(ln.FieldLines["depends-on"], "lane %s: depends on itself", ln.label())
				broken = true
			}
		}
	}
	if broken {
		return // a cycle search over a broken graph only repeats the errors above
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var visit func(id string) bool
	visit = func(id string) bool {
		color[id] = grey
		stack = append(stack, id)
		for _, d := range byID[id].DependsOn {
			switch color[d] {
			case grey:
				i := slices.Index(stack, d)
				cycle := append(slices.Clone(stack[i:]), d)
				ln := byID[id]
				fail(ln.FieldLines["depends-on"], "lane %s: depends-on cycle %s", ln.label(), strings.Join(cycle, " -> "))
				return false
			case white:
				if !visit(d) {
					return false
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[id] = black
		return true
	}
	for _, ln := range p.Lanes {
		if ln.TaskID != "" && color[ln.TaskID] == white {
			if !visit(ln.TaskID) {
				return
			}
		}
	}
}

// Lane returns the lane with the given task id, or nil.
func (p *Plan) Lane(taskID string) *Lane {
	for _, ln := range p.Lanes {
		if ln.TaskID == taskID {
			return ln
		}
	}
	return nil
}

// Order returns the lanes so that every lane comes after the lanes it depends
// on; among independent lanes, file order is kept.
func (p *Plan) Order() []*Lane {
	done := map[string]bool{}
	var out []*Lane
	var add func(ln *Lane)
	add = func(ln *Lane) {
		if done[ln.TaskID] {
			return
		}
		done[ln.TaskID] = true
		for _, d := range ln.DependsOn {
			if dl := p.Lane(d); dl != nil {
				add(dl)
			}
		}
		out = append(out, ln)
	}
	for _, ln := range p.Lanes {
		add(ln)
	}
	return out
}

// splitList reads an inline list: "[a, b]", "a, b", "`a`", a markdown link, or
// "none"/"-"/"" for the empty list.
func splitList(s string) []string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") && !linkRE.MatchString(s) {
		s = s[1 : len(s)-1]
	}
	var out []string
	for _, part := range strings.Split(s, ",") {
		part = unquote(part)
		if m := linkRE.FindStringSubmatch(part); m != nil {
			part = m[1]
		}
		switch strings.ToLower(part) {
		case "", "none", "-", "n/a":
			continue
		}
		out = append(out, part)
	}
	return out
}

// unquote trims spaces and one layer of backticks or quotes.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		if q := s[0]; (q == '`' || q == '"' || q == '\'') && s[len(s)-1] == q {
			return strings.TrimSpace(s[1 : len(s)-1])
		}
	}
	return s
}

// closesFence reports whether l closes a fenced block opened with fence: the same
// character, at least as long, nothing after it.
func closesFence(l, fence string) bool {
	m := fenceRE.FindStringSubmatch(l)
	if m == nil || m[1][0] != fence[0] || len(m[1]) < len(fence) {
		return false
	}
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), m[1][:1])) == ""
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
