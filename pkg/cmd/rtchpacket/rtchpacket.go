// Package rtchpacket is the rtch-packet command: stages 7 and 8 of the lane. It
// reads the whole record stream and emits the evidence packet (rtch.packet) —
// appended to the passed-through stream, or alone as pretty JSON, YAML or a
// Markdown brief — optionally persists it for rehydration, and hands the target
// set to a consolidate step (rtch.handoff).
package rtchpacket

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/packet"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens/exact"
)

type options struct {
	format      string
	pointers    string
	lineNumbers bool
	chunkText   bool
	persist     bool
	handoff     bool
	now         string
	budget      int
	tokenizer   string
}

// Formats are the values of --format.
var Formats = []string{"ndjson", "json", "yaml", "md", "summary"}

// Tool returns the rtch-packet tool.
func Tool() *cli.Tool { return ToolOn(nil) }

// Decoded is one stream as the packet formats read it, decoded once for
// several renderings: a host that renders the same lane's packet as JSON
// and as the md brief, or again on a later call, decodes its records once.
type Decoded struct {
	once sync.Once
	in   *packet.Input
	err  error
}

// ToolOn is the rtch-packet tool whose json, yaml and md renderings read
// their stream through d: the first run decodes its standard input into d
// and every later run uses what it decoded, so each run must be given the
// same stream. A nil d decodes every run's own input, as Tool does.
func ToolOn(d *Decoded) *cli.Tool { return ToolKeeping(d, nil) }

// ToolKeeping is ToolOn whose runs also hand the packet they assembled to
// keep (nil for none): an in-process host keeps the whole packet that the
// brief or summary it printed describes (rtch-mcp pages through it).
func ToolKeeping(d *Decoded, keep func(*schema.Packet)) *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:     "rtch-packet",
		HugeHeap: 64 << 20, // 10-15 MB
		Summary:  "assemble the evidence packet of the lane",
		Usage:    "rtch-packet [--format ndjson|json|yaml|md] [--persist] [--handoff-to-consolidate] [--now TIME] < stream",
		Description: `Reads the whole stream (intake to chunks) and builds the rtch.packet of
SPEC §9: ranked selected_surfaces with their chunks, every skip, honest
unresolved_questions, the caution_map (injection-flagged and redacted chunks,
caution hits, gate problems), next_legal_probes, the effective-record
projection, the budget used, and the halting_reason decided from the evidence
and the intake's enough_evidence_definition (rule: docs/rtch-packet.md).
The intake's expected_output shapes the chunks: single_chunk keeps the best
chunk, claim_evidence only evidence-class chunks, target_set_for_consolidate
adds the rtch.handoff target set; what is left out is listed as a skip.

formats:
  ndjson  (default) the input stream passed through, then rtch.packet (and
          rtch.handoff); --jq filters these records
  json    the packet alone, pretty-printed, each chunk record on a line of
          its own (then the handoff, if any)
  yaml    the packet alone as YAML (then the handoff as a second document)
  md      a brief for an agent: verdict, ranked surfaces, each chunk fenced
          with its path, range and re-entry command, cautions, questions
  summary the packet by reference, one rtch.packet_summary record: the
          verdict, the best surfaces, every chunk as PATH:Ls-Le, skips and
          cautions counted by reason with the first few of each; the same
          chunks as the md brief with the same flags (--chunk-text adds
          their text)

The budget counts what is written: in md the whole brief, header to last
line (its header states the measured size); in ndjson, json and yaml the
hydrated_chunks records and chunk_form, which states once what they share.
While the packet does not fit, the brief's lists are shortened, the chunk
records' notes (why_included, limitation) are left out, then the
lowest-ranked chunks are left out (each a packet skip with reason budget). --tokenizer
counts with an exact vocabulary instead of ceil(chars/4); the config key
tokenizer sets it too.

--pointers mcp names rtch-mcp's tools (rtch_reenter range=PATH:Ls-Le) where
the brief, summary and next_legal_probes point to a next call, for an agent
without a shell; --line-numbers numbers the brief's chunk lines.

--persist also writes the packet as YAML to
audit-logs/rtch/packets/<packet_id>.yaml under the zone root, atomically.
generated_at is --now (RFC 3339 or Unix seconds), else $SOURCE_DATE_EPOCH,
else the current time.`,
		Example: `rtch-intake --goal "fix the flag parser" --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough "ParseFlags is hydrated" | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate | rtch-packet --format md
... | rtch-hydrate | rtch-packet --persist --handoff-to-consolidate --jq 'select(.kind == "rtch.handoff")'`,
		Stdin: cli.StreamIn,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&o.format, "format", "ndjson", "output `FORMAT`: ndjson, json, yaml, md or summary")
			fs.StringVar(&o.pointers, "pointers", "cli", "name next calls as `KIND`: cli (shell commands) or mcp (rtch-mcp's tools)")
			fs.BoolVar(&o.lineNumbers, "line-numbers", false, "number the lines of the brief's chunks (md)")
			fs.BoolVar(&o.chunkText, "chunk-text", false, "put each chunk's text in the summary (--format summary)")
			fs.BoolVar(&o.persist, "persist", false, "also write the packet to audit-logs/rtch/packets/<packet_id>.yaml under the zone root")
			fs.BoolVar(&o.handoff, "handoff-to-consolidate", false, "also emit the target set (rtch.handoff) for a consolidate step")
			fs.StringVar(&o.now, "now", "", "pin generated_at to `TIME` (RFC 3339 or Unix seconds)")
			fs.IntVar(&o.budget, "budget-tokens", 0, "token budget `N` of what is written (default: the intake's budget_tokens, else the fanout level's)")
			fs.StringVar(&o.tokenizer, "tokenizer", "", "count tokens with `NAME`: chars4 (ceil(chars/4), the default), o200k or cl100k")
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o, d, keep) },
	}
}

// Main runs rtch-packet with the process's arguments.
func Main() int { return cli.Main(Tool()) }

func run(ctx context.Context, env *cli.Env, o *options, d *Decoded, keep func(*schema.Packet)) error {
	if len(env.Args) > 0 {
		return cli.UsageHint("rtch-packet reads the lane's stream on standard input", "unexpected argument %q", env.Args[0])
	}
	valid := false
	for _, f := range Formats {
		valid = valid || f == o.format
	}
	if !valid {
		return cli.Usage("--format %q: want one of %s", o.format, strings.Join(Formats, ", "))
	}
	ptr, err := packet.ParsePointers(o.pointers)
	if err != nil {
		return cli.Usage("--pointers %v", err)
	}
	if o.chunkText && o.format != "summary" {
		return cli.Usage("--chunk-text goes with --format summary")
	}
	now, err := generatedAt(o.now, env.Getenv)
	if err != nil {
		return err
	}
	in, err := input(env, o.format, d)
	if err != nil {
		return err
	}
	if in.Zone == nil && in.Intake != nil {
		return cli.Usage("%v", packet.ErrNoZone)
	}
	root := ""
	if in.Zone != nil {
		root = in.Zone.ZoneRoot
	}
	cfg, _, err := env.LoadConfig(root)
	if err != nil {
		return err
	}
	persisted := ""
	if o.persist && in.Intake != nil {
		_, persisted = packet.PersistPath(root, "rtch_packet_"+in.Intake.IntakeHash)
	}
	if o.tokenizer == "" {
		o.tokenizer = cfg.Tokenizer
	}
	count, err := exact.Get(o.tokenizer)
	if err != nil {
		return cli.Usage("--tokenizer: %v", err)
	}
	fit := o.format
	if fit == "summary" {
		fit = "md" // the summary holds the brief's chunks
	}
	a, err := packet.Assemble(in, packet.Options{Now: now, Config: cfg, Persisted: persisted, Budget: o.budget, Count: count, Pointers: ptr, LineNumbers: o.lineNumbers}, fit, o.handoff)
	if err != nil {
		if errors.Is(err, packet.ErrNoIntake) || errors.Is(err, packet.ErrNoRank) || errors.Is(err, packet.ErrNoChunks) || errors.Is(err, packet.ErrNoZone) {
			return cli.Usage("%v", err)
		}
		return cli.Failed(err)
	}
	p, h := a.Packet, a.Handoff
	if keep != nil {
		keep(p)
	}
	if o.persist {
		if _, err := packet.Persist(root, p); err != nil {
			return cli.Failed(fmt.Errorf("--persist: %v", err))
		}
	}
	switch o.format {
	case "ndjson":
		if err := env.Out.Emit(p); err != nil {
			return err
		}
		if h != nil {
			return env.Out.Emit(h)
		}
	case "json":
		j, err := packet.JSON(p)
		if err != nil {
			return cli.Failed(err)
		}
		if _, err := env.Stdout.Write(append(j, '\n')); err != nil {
			return err
		}
		if h != nil {
			return writeJSON(env.Stdout, h)
		}
	case "yaml":
		y, err := packet.YAML(p)
		if err != nil {
			return cli.Failed(err)
		}
		if _, err := env.Stdout.Write(y); err != nil {
			return err
		}
		if h != nil {
			y, err := packet.YAML(h)
			if err != nil {
				return cli.Failed(err)
			}
			if _, err := io.WriteString(env.Stdout, "---\n"); err != nil {
				return err
			}
			if _, err := env.Stdout.Write(y); err != nil {
				return err
			}
		}
	case "md":
		if _, err := io.WriteString(env.Stdout, a.Brief); err != nil {
			return err
		}
	case "summary":
		if err := env.Out.Emit(packet.Summarize(p, ptr, o.chunkText)); err != nil {
			return err
		}
		if h != nil {
			return env.Out.Emit(h)
		}
	}
	return ctx.Err()
}

// input is the stream's records: passed through as they are read for
// ndjson, else read whole into d (once for all its runs).
func input(env *cli.Env, format string, d *Decoded) (*packet.Input, error) {
	if format == "ndjson" {
		in := &packet.Input{}
		return in, env.Each(in.Collect)
	}
	if d == nil {
		d = &Decoded{}
	}
	d.once.Do(func() {
		d.in = &packet.Input{}
		d.err = consume(env.In, d.in)
	})
	return d.in, d.err
}

// consume reads the stream without passing it through (the single-document
// formats print the packet alone).
func consume(r *record.Reader, in *packet.Input) error {
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var se *record.SyntaxError
			if errors.As(err, &se) {
				return cli.Failed(err)
			}
			return err
		}
		if err := in.Collect(l); err != nil {
			return cli.Failed(err)
		}
	}
}

func writeJSON(w io.Writer, v any) error {
	b, err := record.Marshal(v)
	if err != nil {
		return cli.Failed(err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return cli.Failed(err)
	}
	buf.WriteByte('\n')
	_, err = w.Write(buf.Bytes())
	return err
}

// generatedAt decides generated_at: --now, else SOURCE_DATE_EPOCH, else now.
func generatedAt(flagVal string, getenv func(string) string) (time.Time, error) {
	if flagVal != "" {
		t, err := parseTime(flagVal)
		if err != nil {
			return time.Time{}, cli.Usage("--now %q: want RFC 3339 (2026-01-02T15:04:05Z) or Unix seconds", flagVal)
		}
		return t, nil
	}
	if v := getenv("SOURCE_DATE_EPOCH"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return time.Time{}, cli.Usage("SOURCE_DATE_EPOCH %q: want Unix seconds", v)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Now().UTC(), nil
}

func parseTime(s string) (time.Time, error) {
	if n, err := strconv.ParseInt(strings.TrimPrefix(s, "@"), 10, 64); err == nil {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Parse(time.RFC3339, s)
}
