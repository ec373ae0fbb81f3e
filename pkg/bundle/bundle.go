// Package bundle assembles guild context bundles: one markdown brief per plan
// lane, in three layers (SPEC §10).
//
//   - Universal: principles, project overview and goals. It depends on nothing
//     but those files, so it is byte-identical in every bundle of a run.
//   - Role-dependent: the standards of the specialist's role group and the 2–4
//     entity pages most relevant to all of that specialist's lanes. It depends on
//     the specialist, never on one lane, so it is byte-identical across the
//     specialist's lanes.
//   - Task-dependent: the lane block verbatim, the upstream contracts (each
//     depends-on receipt's v2 block verbatim), the ask-gate directive, named
//     refs, active decisions, the initiative summary, recall chunks, the
//     knowledge graph section and the codebase map.
//
// Recalled text comes only from the recall path the caller passes in (guild
// recall's package); pages the bundle includes whole go through the same
// protection (probe, quarantine, classify, wrap). The bundle is measured with
// pkg/lint's own estimator, trimmed in SPEC §10's order when over the cap, and
// linted (strict) before it is returned: a failing bundle is never returned.
//
// Every lane bundle carries the ambient-context instruction once in its Task
// layer, and graph–wiki contradictions are resolved by the seed's rule and
// recorded as followups (contradict.go). BuildLead assembles the run
// coordinator's lean lead context instead: the plan summary, the last N
// handoff envelopes verbatim and a compacted digest of the older ones,
// recomputed when the current lead context passes its capacity threshold
// (lead.go, compact.go).
package bundle

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/handoff"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/lint"
	"github.com/rtch/rtch/pkg/plan"
	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
	"github.com/rtch/rtch/pkg/wiki"
)

// Budget of SPEC §10. Only the caps are enforced; Target is what the recall
// limit and the page choices aim at.
const (
	Target   = 3000
	HardCap  = lint.HardCap
	GraphCap = lint.GraphCap
)

// RecallFunc runs the in-process recall path for a query and returns its
// protected result.
type RecallFunc func(query string) (*schema.Recall, error)

// Options say what to build and from where.
type Options struct {
	// Root is the project root.
	Root string
	// PlanPath is the plan file, relative to Root (or absolute).
	PlanPath string
	// RunID names the run; bundles go to .guild/context/<run-id>/.
	RunID string
	// Autonomy, when "ask" or "all", overrides every lane's autonomy.
	Autonomy string
	// Initiative names the run's initiative; "" reads the run's run.yaml, else
	// the single active initiative when there is exactly one.
	Initiative string
	// Map is the codebase map from an rtch stream, best first.
	Map []MapEntry
	// Recall is the recall path; nil builds bundles without recall.
	Recall RecallFunc
	// IsGraph tells graph chunks from wiki chunks in a recall result.
	IsGraph func(schema.RecallChunk) bool
	// Now decides which pages have expired.
	Now time.Time
	// Warn receives warnings (a missing ref, a quarantined page); may be nil.
	Warn func(format string, args ...any)
	// MaxPageBytes skips larger wiki files (0: the wiki default).
	MaxPageBytes int64
}

// Bundle is one assembled, linted bundle.
type Bundle struct {
	// Lane is the plan lane the bundle is for.
	Lane *plan.Lane
	// Path is where it belongs, relative to Root.
	Path string
	// Text is the whole file.
	Text string
	// Receipt is its guild.bundle_receipt record.
	Receipt schema.BundleReceipt
	// Verdict is the in-process lint verdict (always a pass).
	Verdict lint.Verdict
	// Events are the security events of pages quarantined while assembling.
	Events []protect.SecurityEvent
}

// InputError is a problem with the inputs (plan, receipts, flags): nothing was
// built. FitError is a lane that cannot fit the hard cap even after every cut.
type (
	InputError struct{ Err error }
	FitError   struct{ Err error }
)

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }
func (e *FitError) Error() string   { return e.Err.Error() }
func (e *FitError) Unwrap() error   { return e.Err }

func inputErr(format string, args ...any) error {
	return &InputError{fmt.Errorf(format, args...)}
}

var slugRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// project is everything read once per invocation.
type project struct {
	opt     Options
	plan    *plan.Plan
	planRel string
	pages   []*wiki.Page
	byPath  map[string]*wiki.Page
	// withheld are the pages whose sensitivity is secret: recall never
	// returns them, and no bundle includes them either.
	withheld map[string]bool
	receipts map[string]*handoff.Receipt // by task id
	rcptErr  error                       // receipts that failed to parse
	// notMachine are the frontmatter-only receipts of the run: only the
	// lanes depending on their task are refused.
	notMachine []handoff.File
	univ       layerText
	events     []protect.SecurityEvent
	graph      *graph.Graph // the graph index, nil when absent
	// initiative is the run's one-paragraph initiative summary and its source
	// ("" when the run has none).
	initiative, initSource string
}

// layerText is a rendered layer and the source paths it includes.
type layerText struct {
	text    string
	sources []string
	wrapped bool // holds a wrapped block (so the integrity notice is in it)
}

// Load reads the plan, the wiki and the run's receipts.
func load(opt Options) (*project, error) {
	if !slugRE.MatchString(opt.RunID) {
		return nil, inputErr("run id %q is not a slug (letters, digits, '.', '_', '-')", opt.RunID)
	}
	switch opt.Autonomy {
	case "", "ask", "all":
	default:
		return nil, inputErr("autonomy %q is not ask or all", opt.Autonomy)
	}
	if opt.Warn == nil {
		opt.Warn = func(string, ...any) {}
	}
	if opt.IsGraph == nil {
		opt.IsGraph = DefaultIsGraph
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	pr := &project{opt: opt, byPath: map[string]*wiki.Page{}, receipts: map[string]*handoff.Receipt{}}
	planAbs := opt.PlanPath
	if !filepath.IsAbs(planAbs) {
		planAbs = filepath.Join(opt.Root, opt.PlanPath)
	}
	pr.planRel = relTo(opt.Root, planAbs)
	data, err := os.ReadFile(planAbs)
	if err != nil {
		return nil, inputErr("plan %s: %v", pr.planRel, unwrapPath(err))
	}
	if pr.plan, err = plan.Parse(pr.planRel, data); err != nil {
		return nil, &InputError{err}
	}
	if !pr.plan.Approved {
		opt.Warn("plan %s is not approved (frontmatter approved: true); bundling it anyway", pr.planRel)
	}
	pages, diags, err := wiki.Load(opt.Root, opt.MaxPageBytes)
	if err != nil {
		return nil, inputErr("wiki: %v", err)
	}
	for _, d := range diags {
		opt.Warn("%s", d)
	}
	for _, p := range pages {
		if p.Withheld() {
			if pr.withheld == nil {
				pr.withheld = map[string]bool{}
			}
			pr.withheld[p.Path] = true
			continue
		}
		pr.pages = append(pr.pages, p)
		pr.byPath[p.Path] = p
	}
	hdir := path.Join(".guild/runs", opt.RunID, "handoffs")
	files, err := handoff.LoadFiles(filepath.Join(opt.Root, filepath.FromSlash(hdir)), hdir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		pr.rcptErr = err
	}
	for _, f := range files {
		switch r := f.Receipt; {
		case handoff.IsFrontmatterOnly(f.Err):
			pr.notMachine = append(pr.notMachine, f)
		case f.Err != nil:
			pr.rcptErr = errors.Join(pr.rcptErr, f.Err)
		case pr.receipts[r.Contract.TaskID] != nil:
			prev := pr.receipts[r.Contract.TaskID]
			pr.rcptErr = errors.Join(pr.rcptErr, fmt.Errorf("%s:%d: a second receipt for %s (the first is %s)", r.Path, r.Line, r.Contract.TaskID, prev.Path))
		default:
			pr.receipts[r.Contract.TaskID] = r
		}
	}
	pr.graph = loadGraph(opt.Root)
	pr.univ = pr.universal()
	pr.initiative, pr.initSource = pr.readInitiative()
	return pr, nil
}

// DefaultIsGraph recognises chunks rendered from the knowledge graph: recall
// gives every wiki chunk its line range (schema.RecallChunk.Lines), and graph
// chunks (node renderings, structural or token-scored) have none.
func DefaultIsGraph(c schema.RecallChunk) bool { return c.Lines == "" }

// Build assembles the bundles of the lanes named by taskIDs (every lane when
// taskIDs is empty), in plan order. Sibling lanes of the same specialists are
// assembled too (not returned) so that the Role layer they share is decided
// once for all of them.
func Build(opt Options, taskIDs []string) ([]*Bundle, error) {
	pr, err := load(opt)
	if err != nil {
		return nil, err
	}
	opt = pr.opt
	targets, err := pr.targets(taskIDs, true)
	if err != nil {
		return nil, err
	}
	isTarget := map[string]bool{}
	for _, ln := range targets {
		isTarget[ln.TaskID] = true
	}

	// Assemble every lane of every target's specialist: the Role layer is
	// decided for all of them at once.
	byOwner := map[string][]*plan.Lane{}
	var roleOrder []string
	for _, ln := range pr.plan.Order() {
		want := false
		for _, t := range targets {
			if t.Owner == ln.Owner {
				want = true
			}
		}
		if !want {
			continue
		}
		if _, seen := byOwner[ln.Owner]; !seen {
			roleOrder = append(roleOrder, ln.Owner)
		}
		byOwner[ln.Owner] = append(byOwner[ln.Owner], ln)
	}

	var out []*Bundle
	var fitErrs []error
	built := map[string]*Bundle{}
	for _, owner := range roleOrder {
		role := pr.role(owner, byOwner[owner])
		var lanes []*lanePlan
		for _, ln := range byOwner[owner] {
			lp, err := pr.task(ln, role)
			if err != nil {
				return nil, err
			}
			lanes = append(lanes, lp)
		}
		// The entity count: the most entity pages with which every lane of the
		// role fits after the earlier cuts, but never fewer than two.
		k := len(role.entities)
		for ; k > min(2, len(role.entities)); k-- {
			rl := role.render(k)
			ok := true
			for _, lp := range lanes {
				if _, err := pr.fit(lp, rl, role, k, false); err != nil {
					ok = false
					break
				}
			}
			if ok {
				break
			}
		}
		rl := role.render(k)
		var wider layerText
		if k < len(role.entities) {
			wider = role.render(k + 1)
		}
		for _, lp := range lanes {
			if !isTarget[lp.lane.TaskID] {
				continue
			}
			// A lane that needs the entity cut itself gets every earlier cut in
			// full first (the SPEC order is a priority order); a lane that only
			// shares the smaller Role layer keeps its own fewest cuts.
			full := false
			if k < len(role.entities) {
				if _, err := pr.fit(lp, wider, role, k+1, false); err != nil {
					full = true
				}
			}
			b, err := pr.fit(lp, rl, role, k, full)
			if err != nil {
				fitErrs = append(fitErrs, err)
				continue
			}
			b.Events = pr.events
			built[lp.lane.TaskID] = b
		}
	}
	if len(fitErrs) > 0 {
		return nil, &FitError{errors.Join(fitErrs...)}
	}
	for _, ln := range targets {
		out = append(out, built[ln.TaskID])
	}
	return out, nil
}

// targets resolves the lanes to build: the named ones (every lane when none is
// named) whose upstream receipts exist. A named lane that waits on a receipt,
// or whose upstream task has only a frontmatter-only receipt, is an input
// error; under "every lane" it is skipped with a warning. A frontmatter-only
// receipt no lane to build depends on is only a warning.
func (pr *project) targets(taskIDs []string, warnings bool) ([]*plan.Lane, error) {
	warn := pr.opt.Warn
	if !warnings {
		warn = func(string, ...any) {}
	}
	for _, f := range pr.notMachine {
		warn("%v; lanes that depend on %s are not built", f.Err, orUnnamed(f.FrontTaskID))
	}
	var targets []*plan.Lane
	if len(taskIDs) == 0 {
		targets = pr.plan.Order()
	} else {
		seen := map[string]bool{}
		for _, id := range taskIDs {
			if seen[id] {
				continue
			}
			seen[id] = true
			ln := pr.plan.Lane(id)
			if ln == nil {
				var known []string
				for _, l := range pr.plan.Lanes {
					known = append(known, l.TaskID)
				}
				return nil, inputErr("plan %s has no lane %q (lanes: %s)", pr.planRel, id, strings.Join(known, ", "))
			}
			targets = append(targets, ln)
		}
	}
	var ready []*plan.Lane
	for _, ln := range targets {
		if len(ln.DependsOn) > 0 && pr.rcptErr != nil {
			return nil, &InputError{pr.rcptErr}
		}
		missing, notMachine := pr.upstream(ln, warn)
		named := len(taskIDs) > 0
		switch {
		case notMachine != nil && named:
			return nil, &InputError{fmt.Errorf("lane %s depends on %s, whose receipt %w", ln.TaskID, notMachine.FrontTaskID, notMachine.Err)}
		case notMachine != nil:
			warn("lane %s depends on %s, whose only receipt %s is frontmatter-only; not built", ln.TaskID, notMachine.FrontTaskID, notMachine.Path)
		case len(missing) > 0 && named:
			return nil, &InputError{fmt.Errorf("lane %s depends on %s, which has no receipt in .guild/runs/%s/handoffs/ (a markdown file with one ```guild.handoff.v2 block whose task_id names it)", ln.TaskID, strings.Join(missing, ", "), pr.opt.RunID)}
		case len(missing) > 0:
			warn("lane %s waits on the receipt of %s; not built (run %s once it exists)", ln.TaskID, strings.Join(missing, ", "), pr.laneCommand(ln.TaskID))
		default:
			ready = append(ready, ln)
		}
	}
	return ready, nil
}

// laneCommand is the command that builds the lane taskID of this plan and
// run once its upstream receipts exist.
func (pr *project) laneCommand(taskID string) string {
	return "guild-bundle --plan " + hydrate.ShellQuote(pr.planRel) + " --task " + hydrate.ShellQuote(taskID) + " --run-id " + hydrate.ShellQuote(pr.opt.RunID)
}

// upstream checks a lane's depends-on receipts: the tasks with no receipt,
// and the first whose only receipt is frontmatter-only (nil when none). It
// warns about upstream contracts whose status is not done.
func (pr *project) upstream(ln *plan.Lane, warn func(string, ...any)) (missing []string, notMachine *handoff.File) {
	for _, d := range ln.DependsOn {
		r, ok := pr.receipts[d]
		if ok {
			if r.Contract.Status != "done" {
				warn("%s: upstream %s has status %s; its contract is included as it stands", r.Path, d, r.Contract.Status)
			}
			continue
		}
		for i := range pr.notMachine {
			if f := &pr.notMachine[i]; f.FrontTaskID == d && notMachine == nil {
				notMachine = f
			}
		}
		missing = append(missing, d)
	}
	return missing, notMachine
}

// orUnnamed is a task id, or what to say when a receipt names none.
func orUnnamed(id string) string {
	if id == "" {
		return "its task (its frontmatter names none)"
	}
	return id
}

// Validate checks the plan, the named lanes and their upstream receipts
// without assembling anything, so a caller can refuse bad input before it
// consumes a stream.
func Validate(opt Options, taskIDs []string) error {
	opt.Warn = nil
	pr, err := load(opt)
	if err != nil {
		return err
	}
	_, err = pr.targets(taskIDs, false)
	return err
}

// universal renders the Universal layer: principles, overview, goals, in that
// order, each escaped operator text (never wrapped: they are operator policy).
func (pr *project) universal() layerText {
	var b strings.Builder
	var lt layerText
	b.WriteString(lint.UniversalHeading + "\n")
	for _, src := range []struct{ title, path string }{
		{"Principles", wiki.PrinciplesPath},
		{"Project overview", "wiki/context/project-overview.md"},
		{"Goals", "wiki/context/goals.md"},
	} {
		p := pr.byPath[src.path]
		if p == nil {
			continue
		}
		pp := protectPage(p)
		pr.note(pp)
		fmt.Fprintf(&b, "\n### %s — `%s`\n\n%s\n", src.title, src.path, pp.text)
		lt.sources = append(lt.sources, src.path)
		lt.wrapped = lt.wrapped || pp.wrapped()
	}
	lt.text = b.String()
	return lt
}

// note records a quarantined page as a security event (once per page) and a
// warning.
func (pr *project) note(p protected) {
	if !p.quarantined {
		return
	}
	for _, ev := range pr.events {
		if ev.SourcePath == p.path {
			return
		}
	}
	pr.opt.Warn("%s: quarantined (patterns: %s); its text is kept out of the bundle", p.path, strings.Join(p.event.Patterns, ", "))
	ev := *p.event
	ev.RunID = pr.opt.RunID
	pr.events = append(pr.events, ev)
}

// roleLayer is the Role layer of one specialist before the entity count is
// decided.
type roleLayer struct {
	owner     string
	standards []protected
	entities  []protected
}

func (pr *project) role(owner string, lanes []*plan.Lane) *roleLayer {
	rl := &roleLayer{owner: owner}
	group := RoleGroup(owner)
	if group == "" {
		pr.opt.Warn("specialist %s is in no role group (engineering, writing, social, commercial); its Role layer has no standards", owner)
	}
	for _, name := range roleStandards[group] {
		if p := pr.byPath["wiki/standards/"+name+".md"]; p != nil {
			pp := protectPage(p)
			pr.note(pp)
			rl.standards = append(rl.standards, pp)
		}
	}
	var query []string
	for _, ln := range lanes {
		query = append(query, laneQuery(ln), strings.Join(ln.Refs, " "))
	}
	var entities []*wiki.Page
	for _, p := range pr.pages {
		if isUnder(p.Path, "wiki/entities") && !expired(p, pr.opt.Now) {
			entities = append(entities, p)
		}
	}
	// Pages chosen by relevance (not named by the lane) that the probe
	// quarantines give their slot to the next page: a slot holding only a
	// quarantine marker informs nobody. The warning and the event remain.
	for _, s := range rank(entities, strings.Join(query, "\n"), 2) {
		if len(rl.entities) == 4 {
			break
		}
		pp := protectPage(s.page)
		pr.note(pp)
		if !pp.quarantined {
			rl.entities = append(rl.entities, pp)
		}
	}
	return rl
}

// render is the Role layer with the first k entity pages.
func (rl *roleLayer) render(k int) layerText {
	var b strings.Builder
	var lt layerText
	b.WriteString(lint.RoleHeading + "\n")
	items := append(append([]protected{}, rl.standards...), rl.entities[:k]...)
	for i, p := range items {
		if p.wrapped() && !lt.wrapped {
			b.WriteString("\n" + protect.IntegrityNotice + "\n")
			lt.wrapped = true
		}
		kind := "Standard"
		if i >= len(rl.standards) {
			kind = "Entity"
		}
		fmt.Fprintf(&b, "\n### %s — `%s` (%s)\n\n%s\n", kind, onePath(p.path), p.tier, p.text)
		lt.sources = append(lt.sources, p.path)
	}
	lt.text = b.String()
	return lt
}

func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// receiptFor builds the guild.bundle_receipt of a finished bundle.
func receiptFor(opt Options, ln *plan.Lane, rel, text string, layers map[string]int, dropped, followups []string) schema.BundleReceipt {
	if dropped == nil {
		dropped = []string{}
	}
	if followups == nil {
		followups = []string{}
	}
	return schema.BundleReceipt{
		Envelope:         record.Env(schema.KindBundleReceipt, schema.V1, opt.RunID, ln.TaskID),
		BundlePath:       rel,
		Specialist:       ln.Owner,
		TaskID:           ln.TaskID,
		RunID:            opt.RunID,
		TokenEstimate:    tokens.Estimate(text),
		LayersIncluded:   layers,
		DroppedForBudget: dropped,
		Followups:        followups,
	}
}
