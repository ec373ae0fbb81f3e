package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rtch/rtch/pkg/handoff"
	"github.com/rtch/rtch/pkg/lint"
	"github.com/rtch/rtch/pkg/plan"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
	"github.com/rtch/rtch/pkg/wiki"
)

// LeadSpecialist is the specialist (and task id) of the lead context.
const LeadSpecialist = "lead"

// LeadOptions size the lead context.
type LeadOptions struct {
	// LastN envelopes are held verbatim; older ones go to the digest.
	LastN int
	// CapacityTokens is the lead's context capacity.
	CapacityTokens int
	// RecomputeAt is the share of the capacity that triggers a recompute.
	RecomputeAt float64
}

// Lead is what BuildLead decided and built.
type Lead struct {
	// Report is the capacity report (guild.lead_context).
	Report schema.LeadContext
	// Bundle is the recomputed lead context; nil when the current one stays.
	Bundle *Bundle
}

// LeadPath is where a run's lead context lives, relative to the root.
func LeadPath(runID string) string { return path.Join(".guild/context", runID, "lead.md") }

// envelope is one machine receipt of the run, in run order.
type envelope struct {
	r     *handoff.Receipt
	owner string // the plan lane's owner, "" when the plan has no such lane
}

// leadRun is the run as the lead sees it.
type leadRun struct {
	envelopes []envelope
	notMach   []handoff.File // frontmatter-only receipts
	paths     []string       // every receipt file read, in name order
}

// BuildLead reports whether the run's current lead context passes the
// recompute threshold and, when it does (or when there is none yet),
// assembles the new one: the plan summary, the last N envelopes verbatim and
// a compacted digest of the older ones, under a budget below the threshold.
func BuildLead(opt Options, lo LeadOptions) (*Lead, error) {
	if err := lo.validate(); err != nil {
		return nil, err
	}
	if opt.PlanPath == "" {
		p, err := runPlan(opt.Root, opt.RunID)
		if err != nil {
			return nil, err
		}
		opt.PlanPath = p
	}
	pr, err := load(opt)
	if err != nil {
		return nil, err
	}
	run, err := pr.leadRun()
	if err != nil {
		return nil, err
	}
	rel := LeadPath(opt.RunID)
	rep := pr.capacity(run, lo, rel)
	out := &Lead{Report: rep}
	if !out.Report.Recomputed {
		return out, nil
	}
	b, err := pr.fitLead(run, lo, rel, out.Report.BudgetTokens)
	if err != nil {
		return nil, err
	}
	out.Bundle = b
	out.Report.TokenEstimate = b.Receipt.TokenEstimate
	return out, nil
}

func (lo LeadOptions) validate() error {
	switch {
	case lo.LastN < 0:
		return inputErr("--last %d is negative", lo.LastN)
	case lo.CapacityTokens <= 0:
		return inputErr("--capacity %d must be positive", lo.CapacityTokens)
	case lo.RecomputeAt <= 0 || lo.RecomputeAt > 1:
		return inputErr("lead.recompute_at %v is outside (0,1]", lo.RecomputeAt)
	}
	return nil
}

// runPlan reads the plan path from the run's run.yaml.
func runPlan(root, runID string) (string, error) {
	if !slugRE.MatchString(runID) {
		return "", inputErr("run id %q is not a slug (letters, digits, '.', '_', '-')", runID)
	}
	rel := path.Join(".guild/runs", runID, "run.yaml")
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", inputErr("no --plan, and %s cannot name one: %v", rel, unwrapPath(err))
	}
	var run map[string]any
	if err := yaml.Unmarshal(data, &run); err != nil {
		return "", inputErr("%s: not valid YAML: %v", rel, err)
	}
	p, _ := run["plan"].(string)
	if strings.TrimSpace(p) == "" {
		return "", inputErr("no --plan, and %s has no plan: key", rel)
	}
	return strings.TrimSpace(p), nil
}

// leadRun reads the run's receipts: machine receipts in run order, and the
// frontmatter-only ones listed apart. Any other broken receipt is an input
// error naming its file and line; so is a second receipt for a task.
func (pr *project) leadRun() (*leadRun, error) {
	hdir := path.Join(".guild/runs", pr.opt.RunID, "handoffs")
	files, err := handoff.LoadFiles(filepath.Join(pr.opt.Root, filepath.FromSlash(hdir)), hdir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, inputErr("%s: %v", hdir, unwrapPath(err))
	}
	run := &leadRun{}
	var errs []error
	seen := map[string]string{}
	for _, f := range files {
		run.paths = append(run.paths, f.Path)
		switch {
		case handoff.IsFrontmatterOnly(f.Err):
			run.notMach = append(run.notMach, f)
		case f.Err != nil:
			errs = append(errs, f.Err)
		default:
			id := f.Receipt.Contract.TaskID
			if prev, dup := seen[id]; dup {
				errs = append(errs, fmt.Errorf("%s:%d: a second receipt for %s (the first is %s)", f.Path, f.Receipt.Line, id, prev))
				continue
			}
			seen[id] = f.Path
			run.envelopes = append(run.envelopes, envelope{r: f.Receipt})
		}
	}
	if len(errs) > 0 {
		return nil, &InputError{errors.Join(errs...)}
	}
	// Run order is plan order (a lane finishes after the lanes it depends
	// on); receipts for tasks the plan does not name come last, by file name.
	rank := map[string]int{}
	for i, ln := range pr.plan.Order() {
		rank[ln.TaskID] = i
	}
	for i := range run.envelopes {
		e := &run.envelopes[i]
		if ln := pr.plan.Lane(e.r.Contract.TaskID); ln != nil {
			e.owner = ln.Owner
		} else {
			pr.opt.Warn("%s: task %s is not a lane of %s; its envelope is placed after the plan's", e.r.Path, e.r.Contract.TaskID, pr.planRel)
		}
	}
	sort.SliceStable(run.envelopes, func(i, j int) bool {
		ri, iok := rank[run.envelopes[i].r.Contract.TaskID]
		rj, jok := rank[run.envelopes[j].r.Contract.TaskID]
		if iok != jok {
			return iok
		}
		if iok {
			return ri < rj
		}
		return run.envelopes[i].r.Path < run.envelopes[j].r.Path
	})
	return run, nil
}

// leadFront is what the capacity check reads back from a lead.md.
type leadFront struct {
	Verbatim []string `yaml:"envelopes_verbatim"`
	Digested []string `yaml:"envelopes_digested"`
	Dropped  []string `yaml:"envelopes_dropped"`
}

// capacity measures the current lead context and decides the recompute. The
// current lead context is lead.md as it stands on disk plus, verbatim, every
// envelope that arrived after it was written (the lead consumed those as they
// came): what the coordinator holds now.
func (pr *project) capacity(run *leadRun, lo LeadOptions, rel string) schema.LeadContext {
	// Rounded to a millionth first, so 0.7 × 2700 is 1890, not 1889.99….
	threshold := int(math.Ceil(math.Round(lo.RecomputeAt*float64(lo.CapacityTokens)*1e6) / 1e6))
	rep := schema.LeadContext{
		Envelope:        record.Env(schema.KindLeadContext, schema.V1, pr.opt.RunID),
		RunID:           pr.opt.RunID,
		LeadPath:        rel,
		CapacityTokens:  lo.CapacityTokens,
		RecomputeAt:     lo.RecomputeAt,
		ThresholdTokens: threshold,
		NewEnvelopes:    []string{},
		BudgetTokens:    min(HardCap, threshold-1),
	}
	data, err := os.ReadFile(filepath.Join(pr.opt.Root, filepath.FromSlash(rel)))
	if err != nil {
		rep.Recomputed, rep.Reason = true, "no lead context yet: "+rel+" is written for the first time"
		return rep
	}
	rep.CurrentExists = true
	text := wiki.NormalizeText(data)
	rep.CurrentTokens = tokens.Estimate(text)
	rep.TokenEstimate = rep.CurrentTokens
	front, _, _, ok, _ := wiki.SplitFrontmatter(text)
	var lf leadFront
	if !ok || yaml.Unmarshal([]byte(front), &lf) != nil || (lf.Verbatim == nil && lf.Digested == nil && lf.Dropped == nil) {
		rep.PassesThreshold = rep.CurrentTokens >= threshold
		rep.Recomputed, rep.Reason = true, rel+" does not list the envelopes it holds (no envelopes_verbatim/envelopes_digested frontmatter); recomputed"
		return rep
	}
	known := map[string]bool{}
	for _, id := range append(append(lf.Verbatim, lf.Digested...), lf.Dropped...) {
		known[id] = true
	}
	for _, e := range run.envelopes {
		if !known[e.r.Contract.TaskID] {
			rep.NewEnvelopes = append(rep.NewEnvelopes, e.r.Contract.TaskID)
			rep.CurrentTokens += tokens.Estimate(e.r.Fenced)
		}
	}
	rep.PassesThreshold = rep.CurrentTokens >= threshold
	if rep.PassesThreshold {
		rep.Recomputed = true
		rep.Reason = fmt.Sprintf("the current lead context (%d tokens: %s plus %d later envelope(s)) passes the threshold of %d tokens (%g × %d); recomputed", rep.CurrentTokens, rel, len(rep.NewEnvelopes), threshold, lo.RecomputeAt, lo.CapacityTokens)
	} else {
		rep.Reason = fmt.Sprintf("the current lead context (%d tokens: %s plus %d later envelope(s)) is under the threshold of %d tokens (%g × %d); kept as it is", rep.CurrentTokens, rel, len(rep.NewEnvelopes), threshold, lo.RecomputeAt, lo.CapacityTokens)
	}
	return rep
}

// fitLead renders the lead context and drops digest lines, oldest first, until
// it fits the budget; the plan summary and the last N envelopes are never cut.
func (pr *project) fitLead(run *leadRun, lo LeadOptions, rel string, budget int) (*Bundle, error) {
	n := min(lo.LastN, len(run.envelopes))
	older, recent := run.envelopes[:len(run.envelopes)-n], run.envelopes[len(run.envelopes)-n:]
	render := func(drop int) *Bundle { return pr.renderLead(run, lo, rel, older[:drop], older[drop:], recent) }
	fits := func(b *Bundle) bool { return b.Receipt.TokenEstimate <= budget }
	// The fewest drops that fit, by bisection: a drop replaces a digest line
	// with a shorter frontmatter entry, so more drops never make it larger.
	b := render(0)
	if !fits(b) {
		if b = render(len(older)); fits(b) {
			lo, hi := 0, len(older)
			for lo < hi {
				if mid := (lo + hi) / 2; fits(render(mid)) {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			b = render(lo)
		}
	}
	if fits(b) {
		b.Verdict = lint.Check(b.Path, b.Text, lint.Options{Strict: true})
		if !b.Verdict.Pass {
			return nil, fmt.Errorf("the lead context of run %s fails lint: %s", pr.opt.RunID, strings.Join(b.Verdict.Reasons, "; "))
		}
		return b, nil
	}
	return nil, &FitError{fmt.Errorf("the lead context of run %s needs %d tokens with an empty digest, over its budget of %d tokens (under the %g × %d threshold and the %d-token cap); the plan summary and the last %d envelopes are never cut: lower --last or raise --capacity", pr.opt.RunID, b.Receipt.TokenEstimate, budget, lo.RecomputeAt, lo.CapacityTokens, HardCap, n)}
}

// renderLead assembles lead.md with the dropped, digested and verbatim
// envelopes given.
func (pr *project) renderLead(run *leadRun, lo LeadOptions, rel string, dropped, digested, recent []envelope) *Bundle {
	var b strings.Builder
	sizes := map[string]int{}
	section := func(name string, start int) { sizes[name] += tokens.Estimate(b.String()[start:]) }
	b.WriteString(lint.TaskHeading + "\n")
	start := b.Len()
	b.WriteString("\n### Ambient context\n\n" + LeadAmbientNotice + "\n")
	section("ambient", start)
	start = b.Len()
	pr.writePlanSummary(&b, run)
	section("plan", start)
	if len(digested) > 0 || len(dropped) > 0 {
		start = b.Len()
		fmt.Fprintf(&b, "\n### Digest of %d older envelope(s)\n\n%s\n\n", len(digested), digestNote)
		for _, e := range digested {
			b.WriteString("- " + digestLine(e.r) + "\n")
		}
		section("digest", start)
	}
	if len(recent) > 0 {
		start = b.Len()
		fmt.Fprintf(&b, "\n### Last %d envelope(s), verbatim\n", len(recent))
		for _, e := range recent {
			fmt.Fprintf(&b, "\n#### %s — `%s`\n\n%s", oneLine(e.r.Contract.TaskID), oneLine(e.r.Path), e.r.Fenced)
		}
		section("envelopes", start)
	}
	if len(run.notMach) > 0 {
		start = b.Len()
		b.WriteString("\n### Not machine receipts\n\n")
		for _, f := range run.notMach {
			b.WriteString("- " + notMachineLine(f) + "\n")
		}
		section("not_machine_receipts", start)
	}
	// Each dropped digest line (oldest first) is one short dropped_for_budget:
	// entry in the frontmatter, shorter than the line it replaces, and its
	// receipt leaves source_paths: a drop always saves.
	var drops []string
	for _, e := range dropped {
		drops = append(drops, oneLine("digest line of "+e.r.Contract.TaskID+" dropped"))
	}
	task := strings.TrimRight(b.String(), "\n") + "\n"
	body := pr.univ.text + "\n" + task
	head, tail := pr.leadFrontmatter(run, lo, dropped, digested, recent, drops)
	text := withFrontmatter(func(est int) string { return head + fmt.Sprintf("token_estimate: %d\n", est) + tail }, body)
	layers := map[string]int{"universal": tokens.Estimate(pr.univ.text), "task": tokens.Estimate(task)}
	for k, v := range sizes {
		layers["task."+k] = v
	}
	ln := &plan.Lane{TaskID: LeadSpecialist, Owner: LeadSpecialist}
	out := &Bundle{Lane: ln, Path: rel, Text: text}
	out.Receipt = receiptFor(pr.opt, ln, rel, text, layers, drops, nil)
	return out
}

// leadFrontmatter renders the lead's frontmatter around its token_estimate
// line, once per render (the estimate is then found by withFrontmatter).
func (pr *project) leadFrontmatter(run *leadRun, lo LeadOptions, dropped, digested, recent []envelope, drops []string) (head, tail string) {
	ids := func(es []envelope) []string {
		out := []string{}
		for _, e := range es {
			out = append(out, e.r.Contract.TaskID)
		}
		return out
	}
	gone := map[string]bool{}
	for _, e := range dropped {
		gone[e.r.Path] = true
	}
	sources := append([]string{pr.planRel}, pr.univ.sources...)
	for _, p := range run.paths {
		if !gone[p] {
			sources = append(sources, p)
		}
	}
	var notMach []string
	for _, f := range run.notMach {
		notMach = append(notMach, f.Path)
	}
	var h, t bytes.Buffer
	h.WriteString("---\n")
	fmt.Fprintf(&h, "run_id: %s\nspecialist: %s\ntask_id: %s\n", yamlString(pr.opt.RunID), LeadSpecialist, LeadSpecialist)
	fmt.Fprintf(&h, "spec: %s\nplan: %s\n", yamlString(pr.plan.Spec), yamlString(pr.planRel))
	writeList(&h, "source_paths", onePaths(unique(sources)))
	fmt.Fprintf(&t, "last_n: %d\ncapacity_tokens: %d\nrecompute_at: %g\n", lo.LastN, lo.CapacityTokens, lo.RecomputeAt)
	writeList(&t, "envelopes_verbatim", onelines(ids(recent)))
	writeList(&t, "envelopes_digested", onelines(ids(digested)))
	writeList(&t, "envelopes_dropped", onelines(ids(dropped)))
	writeList(&t, "not_machine_receipts", onelines(notMach))
	writeList(&t, "dropped_for_budget", drops)
	writeList(&t, "followups", nil)
	t.WriteString("---\n")
	return h.String(), t.String()
}

func onePaths(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = onePath(x)
	}
	return out
}

func onelines(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = oneLine(x)
	}
	return out
}

// digestNote opens the digest.
const digestNote = "Compaction, not summary: each line holds the fields of one guild.handoff.v2 " +
	"block copied as JSON (task_id, status, tier, artifacts, issues, escalate_reason), its summary " +
	"cut at a sentence boundary and marked … when cut, and the receipt file to read for the rest. " +
	"Lines dropped for the budget (oldest first) are listed in the frontmatter."

// writePlanSummary writes the plan's lanes with the status their receipts give.
func (pr *project) writePlanSummary(b *strings.Builder, run *leadRun) {
	status := map[string]string{}
	for _, f := range run.notMach {
		if f.FrontTaskID != "" {
			status[f.FrontTaskID] = "no machine receipt (frontmatter only)"
		}
	}
	for _, e := range run.envelopes {
		status[e.r.Contract.TaskID] = e.r.Contract.Status
	}
	// One short row per lane: the receipts are named by the digest lines and
	// the verbatim envelopes below, and live in .guild/runs/<run-id>/handoffs/.
	fmt.Fprintf(b, "\n### Plan — `%s`\n\n", oneLine(pr.planRel))
	b.WriteString("| task-id | owner | depends-on | status |\n|---|---|---|---|\n")
	row := func(id, owner string, deps []string) {
		st := status[id]
		if st == "" {
			st = "pending (no receipt)"
		}
		d := "—"
		if len(deps) > 0 {
			d = strings.Join(deps, ", ")
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", cell(id), cell(owner), cell(d), cell(st))
	}
	for _, ln := range pr.plan.Order() {
		row(ln.TaskID, ln.Owner, ln.DependsOn)
	}
	for _, e := range run.envelopes {
		if e.owner == "" {
			row(e.r.Contract.TaskID, "— (not in the plan)", nil)
		}
	}
}

// cell makes tree text safe inside a table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

// notMachineLine lists a frontmatter-only receipt.
func notMachineLine(f handoff.File) string {
	s := "`" + f.Path + "`"
	if f.FrontTaskID != "" {
		s += " (frontmatter task_id " + f.FrontTaskID + ")"
	}
	return oneLine(s + " — frontmatter only, no guild.handoff.v2 block: not a machine receipt, so not digested")
}
