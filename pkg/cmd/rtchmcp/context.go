package rtchmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/pipeline"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
	"github.com/rtch/rtch/pkg/tokens/exact"
)

// ContextInput is rtch_context's arguments: rtch-intake's fields.
type ContextInput struct {
	Goal         string   `json:"goal" jsonschema:"What you are about to do; paste an error, stack trace or issue as is: its identifiers, paths and quoted strings become the search terms."`
	Enough       string   `json:"enough" jsonschema:"The evidence that would let you act, e.g. 'the function that prints the help text is read'. The verdict says whether it was met."`
	Profile      string   `json:"profile,omitempty" jsonschema:"The kind of target (default code_path)."`
	Fanout       string   `json:"fanout,omitempty" jsonschema:"How wide to search: conservative (4000-token budget), normal (8000, default), wide (16000)."`
	Risk         string   `json:"risk,omitempty" jsonschema:"What you will do with it (default read_only)."`
	OutputKind   string   `json:"output_kind,omitempty" jsonschema:"hydration_packet: ranked chunks (default); single_chunk: the best one; claim_evidence: evidence only; target_set_for_consolidate: adds the target set."`
	Seeds        []string `json:"seeds,omitempty" jsonschema:"Identifiers or file names you know matter."`
	BudgetTokens int      `json:"budget_tokens,omitempty" jsonschema:"Token budget of the whole reply, instead of the fanout's."`
	Format       string   `json:"format,omitempty" jsonschema:"md: a brief (default); json: the summary with each chunk's text."`
	Persist      bool     `json:"persist,omitempty" jsonschema:"Save the packet in the root for rtch_rehydrate."`
	LineNumbers  *bool    `json:"line_numbers,omitempty" jsonschema:"Number the brief's chunk lines (default true)."`
}

// numbered tells whether the brief numbers its chunk lines: unless the
// call says not to, it does (the md brief only; json's chunk text is the
// file's bytes).
func (in ContextInput) numbered() bool {
	return in.Format != "json" && (in.LineNumbers == nil || *in.LineNumbers)
}

// contextSchema is ContextInput's schema with the enumerations a model
// chooses from.
func contextSchema() *jsonschema.Schema {
	s, err := jsonschema.For[ContextInput](nil)
	if err != nil {
		panic(err)
	}
	enum := func(name string, values []string) {
		for _, v := range values {
			s.Properties[name].Enum = append(s.Properties[name].Enum, v)
		}
	}
	enum("profile", intake.Profiles)
	enum("fanout", intake.FanoutLevels)
	enum("risk", intake.MutationRisks)
	enum("output_kind", intake.ExpectedOutputs)
	enum("format", []string{"md", "json"})
	s.Properties["goal"].MinLength = ptr(1)
	s.Properties["enough"].MinLength = ptr(1)
	s.Properties["budget_tokens"].Minimum = ptr(0.0)
	return s
}

func ptr[T any](v T) *T { return &v }

const contextDescription = `Read the evidence for a task before opening files: a brief of the few places that matter, ranked, each a bounded chunk (PATH:Ls-Le, why it was read, sha256), with what was skipped, cautions, open questions and the next calls, within the budget. Widen a chunk with rtch_reenter; page the whole packet with rtch_packet.`

func addContextTools(s *mcp.Server, h *handler) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "rtch_context",
		Title:       "Find the evidence for a task",
		Description: contextDescription,
		InputSchema: contextSchema(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, speaking("rtch_context", h.context))
}

// context runs the lane and renders the reply from its stream: the md
// brief (or, for json, the summary with each chunk's text) as the text,
// the packet summary as the structured content, both from one packet, the
// whole within the budget (fitReply). The whole packet is kept for
// rtch_packet.
func (h *handler) context(ctx context.Context, req *mcp.CallToolRequest, in ContextInput) (*mcp.CallToolResult, any, error) {
	c := h.call(ctx, req)
	now := ""
	if h.getenv("SOURCE_DATE_EPOCH") == "" {
		// One generated_at for both renderings of the packet.
		now = time.Now().UTC().Format(time.RFC3339)
	}
	l, err := h.lane(c, h.intakeArgs(in))
	if err != nil {
		return nil, nil, err
	}
	r := &contextReply{c: c, l: l, in: in, now: now}
	res, err := r.fit()
	if err != nil {
		return nil, nil, err
	}
	if c.progress != nil {
		n := len(pipeline.Lane(nil)) + 1
		c.progress(pipeline.DoneLine("rtch-packet", n, n, ""))
	}
	h.packets.keep(r.full)
	return res, nil, nil
}

// contextReply is one rtch_context reply being fitted to its budget.
type contextReply struct {
	c   *call
	l   keptLane
	in  ContextInput
	now string
	// full is the whole packet the last rendering described.
	full *schema.Packet
}

// tooSmall is rtch-packet's error for a budget below the smallest brief.
var tooSmall = regexp.MustCompile(`smaller than the smallest md packet \((\d+) tokens with no chunk\)`)

// fitRounds bounds the renderings of one reply; each round's brief budget
// is lowered by the excess the last one measured, which the JSON
// escaping of the brief only enlarges, so two rounds are the rule.
const fitRounds = 8

// fit renders the reply at the lane's budget and, while the whole reply
// measures more than that budget and ReplyOverhead, again with the
// brief's budget lowered by the excess: the brief, its JSON escaping and
// the summary share one budget.
func (r *contextReply) fit() (*mcp.CallToolResult, error) {
	briefBudget, limit := 0, 0
	for round := 0; ; round++ {
		res, sum, err := r.render(briefBudget)
		if m := tooSmall.FindStringSubmatch(fmt.Sprint(err)); m != nil {
			asked := "the fanout's budget"
			if r.in.BudgetTokens > 0 {
				asked = fmt.Sprintf("budget_tokens %d", r.in.BudgetTokens)
			}
			return nil, fmt.Errorf("%s is too small: the brief's frame alone is %s tokens, and the reply holds the summary beside the brief", asked, m[1])
		}
		if err != nil {
			return nil, err
		}
		count, err := exact.Get(sum.Budget.Tokenizer)
		if err != nil {
			return nil, err
		}
		if limit == 0 {
			limit = sum.Budget.Cap + ReplyOverhead
		}
		n := replyTokens(res, count)
		if n <= limit {
			return res, nil
		}
		if round == fitRounds-1 {
			return nil, fmt.Errorf("the reply measured %d tokens after %d renderings, over its budget of %d and %d", n, fitRounds, limit-ReplyOverhead, ReplyOverhead)
		}
		briefBudget = nextBudget(sum.Budget.Cap, r.governed(res, sum, count), n-limit)
	}
}

// governed is the measure of the part of the reply the packet's budget
// governs: the brief (md), or the summary's chunk records (json).
func (r *contextReply) governed(res *mcp.CallToolResult, sum *schema.PacketSummary, count tokens.Counter) int {
	if r.in.Format == "json" || len(res.Content) == 0 {
		return sum.Budget.EstTokens
	}
	if t, ok := res.Content[0].(*mcp.TextContent); ok {
		return count.Of(t.Text)
	}
	return sum.Budget.EstTokens
}

// nextBudget is the brief's budget for the next rendering: the excess taken
// off what the brief used, not off its cap. A brief with room left under
// its cap does not shrink when only the cap is lowered by the excess, and
// the reply stayed over for every rendering.
func nextBudget(cap, used, excess int) int {
	return min(cap, used) - excess
}

// render renders the packet once with the brief's budget (0: the lane's):
// the text (TextFlags) and the summary, which is kept whole.
func (r *contextReply) render(budget int) (*mcp.CallToolResult, *schema.PacketSummary, error) {
	common := []string{}
	if r.now != "" {
		common = append(common, "--now="+r.now)
	}
	if r.in.Persist {
		common = append(common, "--persist")
	}
	if r.in.numbered() {
		common = append(common, "--line-numbers") // the summary names the chunks the brief holds
	}
	keep := func(p *schema.Packet) { r.full = p }
	md := r.in.Format != "json"
	// The stage that prints the summary keeps the packet; for md the
	// brief is rendered beside it, for json the summary is the text.
	first := TextFlags("json", budget)
	if md {
		first = TextFlags("summary", budget)
	}
	renders := []pipeline.Stage{{Tool: rtchpacket.ToolKeeping(r.l.decoded, keep), Args: append(first, common...)}}
	if md {
		renders = append(renders, pipeline.PacketOn(r.l.decoded, append(TextFlags("md", budget), common...)...))
	}
	quiet := *r.c // a rendering per round: the call's progress ends once, after the fit
	quiet.progress = nil
	outs, diag, err := quiet.render(r.l.stream, renders)
	if err != nil {
		return nil, nil, err
	}
	var sum schema.PacketSummary
	raw, err := firstValue(outs[0]) // a handoff record may follow
	if err == nil {
		err = json.Unmarshal(raw, &sum)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("the packet stage printed no summary: %v", err)
	}
	for i := range sum.Chunks {
		sum.Chunks[i].Text = ""
	}
	body := string(outs[len(outs)-1])
	diag = r.l.res.Diagnostics + diag
	return &mcp.CallToolResult{Content: text(body, diagnostics("rtch_context", diag)), StructuredContent: sum}, &sum, nil
}

// TextFlags are the rtch-packet flags that print a part of rtch_context's
// reply, with the brief's budget cap (0: the lane's), as a shell user would
// type them: format md is the brief, json the summary with each chunk's
// text (the text content of either format), summary the summary alone (the
// structured content).
func TextFlags(format string, cap int) []string {
	args := []string{"--format=md"}
	switch format {
	case "json":
		args = []string{"--format=summary", "--chunk-text"}
	case "summary":
		args = []string{"--format=summary"}
	}
	args = append(args, "--pointers=mcp")
	if cap > 0 {
		args = append(args, "--budget-tokens="+strconv.Itoa(cap))
	}
	return args
}

// intakeArgs are the rtch-intake flags of a call, exactly as a shell user
// would type them; defaults the root's .rtch.toml does not set are filled in.
func (h *handler) intakeArgs(in ContextInput) []string {
	cfg, _, err := config.Load("", h.root.Dir)
	if err != nil {
		cfg = &config.Config{} // rtch-intake reports the broken file itself
	}
	def := intake.FromConfig(cfg.Intake).Fields
	args := []string{"--goal=" + in.Goal, "--enough=" + in.Enough}
	flag := func(name, v, fromConfig, fallback string) {
		switch {
		case v != "":
			args = append(args, "--"+name+"="+v)
		case fromConfig == "":
			args = append(args, "--"+name+"="+fallback)
		}
	}
	flag("profile", in.Profile, def.TargetProfile, intake.Defaults.TargetProfile)
	flag("fanout", in.Fanout, def.FanoutLevel, intake.Defaults.FanoutLevel)
	flag("risk", in.Risk, def.MutationRisk, intake.Defaults.MutationRisk)
	flag("output-kind", in.OutputKind, def.ExpectedOutput, intake.Defaults.ExpectedOutput)
	for _, sd := range in.Seeds {
		args = append(args, "--seed="+sd)
	}
	if in.BudgetTokens > 0 {
		args = append(args, "--budget-tokens="+strconv.Itoa(in.BudgetTokens))
	}
	return args
}

// render runs each rtch-packet stage on the stream at once and returns
// their outputs and diagnostics in stage order; the error is the first
// stage's, in that order.
func (c *call) render(stream []byte, stages []pipeline.Stage) ([][]byte, string, error) {
	outs := make([][]byte, len(stages))
	diags := make([]string, len(stages))
	errs := make([]error, len(stages))
	var wg sync.WaitGroup
	for i, st := range stages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res pipeline.Result
			outs[i], res, errs[i] = c.exec(bytes.NewReader(stream), st)
			diags[i] = res.Diagnostics
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, "", err
		}
	}
	return outs, strings.Join(diags, ""), nil
}
