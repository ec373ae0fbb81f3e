package rtchmcp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildlint"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
	"github.com/rtch/rtch/pkg/pipeline"
)

// An agent that reaches the toolkit through rtch-mcp has no shell: every
// error and diagnostic a stage prints is said again in the server's terms
// (docs/decisions/agent-reply.md). A line "rtch-intake: error: … (--enough)"
// becomes "rtch_context: error: … (enough)": the prefix names the MCP tool
// called, a command ("guild-bundle --task T3") becomes the call that does
// the same ("guild_bundle task=T3"), a flag becomes the argument it stands
// for, and another flag loses its dashes; a hint that keeps a shell command
// no argument stands for is dropped.

// argsOf maps, for each MCP tool, the flags of the binaries it runs to its
// arguments.
var argsOf = map[string]map[string]string{
	"rtch_context": {"goal": "goal", "goal-file": "goal", "enough": "enough", "profile": "profile", "fanout": "fanout",
		"risk": "risk", "output-kind": "output_kind", "seed": "seeds", "budget-tokens": "budget_tokens", "persist": "persist",
		"line-numbers": "line_numbers"},
	"rtch_reenter":   {"reenter": "range", "window": "window"},
	"rtch_rehydrate": {"rehydrate": "packet"},
	"guild_recall":   {"query": "query", "limit": "limit", "category": "category", "run-id": "run_id"},
	"guild_bundle":   {"plan": "plan", "task": "task", "all": "all", "run-id": "run_id"},
	"guild_lint":     {"bundle": "bundles", "run": "run", "strict": "strict"},
}

// toolOf is the MCP tool that runs a binary given one of its flags
// (rtch-hydrate is two tools).
func toolOf(binary, firstFlag, current string) string {
	switch binary {
	case "rtch-intake", "rtch-zone", "rtch-scout", "rtch-probe", "rtch-packet":
		return "rtch_context"
	case "rtch-hydrate":
		switch firstFlag {
		case "reenter":
			return "rtch_reenter"
		case "rehydrate":
			return "rtch_rehydrate"
		}
		if current == "rtch_reenter" || current == "rtch_rehydrate" {
			return current
		}
		return "rtch_context"
	case "guild-recall", "guild-bundle", "guild-lint":
		return strings.ReplaceAll(binary, "-", "_")
	}
	return current
}

var (
	diagLine  = regexp.MustCompile(`^((?:rtch|guild)-[a-z]+): (error|warning|hint): `)
	command   = regexp.MustCompile(`\b((?:rtch|guild)-(?:intake|zone|scout|probe|hydrate|packet|recall|bundle|lint))((?: +--?[a-z][a-z-]*(?:=\S+| +(?:'[^']*'|"[^"]*"|[^-\s'"][^\s,;)]*))?)+)`)
	flagToken = regexp.MustCompile(`(^|[\s(\[,'"])--?([a-z][a-z-]*)\b`)
	word      = regexp.MustCompile(`'[^']*'|"[^"]*"|\S+`)
	residue   = regexp.MustCompile(`\b(?:rtch|guild)-[a-z]+\b|(?:^|[\s(\[,'"])--[a-z]`)
)

// speak says text, a stage's diagnostics or an error, in terms of the MCP
// tool.
func speak(tool, text string) string {
	lines := strings.SplitAfter(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		level := ""
		if m := diagLine.FindStringSubmatch(body); m != nil {
			level, body = m[2], body[len(m[0]):]
		}
		body = speakBody(tool, body, level != "hint")
		if level == "hint" && residue.MatchString(body) {
			continue // shell advice with no MCP counterpart
		}
		if level != "" {
			body = tool + ": " + level + ": " + body
		}
		if nl {
			body += "\n"
		}
		out = append(out, body)
	}
	return strings.Join(out, "")
}

// speakBody rewrites commands and flags in one line; bare, a flag no
// argument stands for loses its dashes (it names a setting of the
// configuration, or what the server set itself).
func speakBody(tool, s string, bare bool) string {
	s = command.ReplaceAllStringFunc(s, func(c string) string {
		m := command.FindStringSubmatch(c)
		return speakCommand(tool, m[1], m[2])
	})
	args := argsOf[tool]
	return flagToken.ReplaceAllStringFunc(s, func(f string) string {
		m := flagToken.FindStringSubmatch(f)
		if a, ok := args[m[2]]; ok {
			return m[1] + a
		}
		if bare {
			return m[1] + m[2]
		}
		return f
	})
}

// speakCommand is the MCP call for binary with its flags, as far as the
// tool's arguments stand for them; a flag none stands for stays.
func speakCommand(current, binary, flags string) string {
	words := shellWords(flags)
	first := ""
	if len(words) > 0 {
		first = strings.TrimLeft(strings.SplitN(words[0], "=", 2)[0], "-")
	}
	tool := toolOf(binary, first, current)
	args := argsOf[tool]
	bools := boolFlags(binary)
	parts := []string{tool}
	for i := 0; i < len(words); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(words[i], "-"), "=")
		if !hasValue && !bools[name] && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
			value, hasValue = words[i+1], true
			i++
		}
		a, ok := args[name]
		switch {
		case !ok:
			parts = append(parts, words[i])
		case hasValue:
			parts = append(parts, a+"="+value)
		default:
			parts = append(parts, a+"=true")
		}
	}
	return strings.Join(parts, " ")
}

// shellWords splits flags on spaces, keeping quoted values whole (quotes
// removed).
func shellWords(s string) []string {
	var out []string
	for _, m := range word.FindAllString(s, -1) {
		out = append(out, strings.Trim(m, `'"`))
	}
	return out
}

// stageTools are the tools whose diagnostics reach a reply.
var stageTools = map[string]func() *cli.Tool{
	"rtch-intake": rtchintake.Tool, "rtch-zone": rtchzone.Tool, "rtch-scout": rtchscout.Tool, "rtch-probe": rtchprobe.Tool,
	"rtch-hydrate": rtchhydrate.Tool, "rtch-packet": rtchpacket.Tool,
	"guild-recall": guildrecall.Tool, "guild-bundle": guildbundle.Tool, "guild-lint": guildlint.Tool,
}

// boolFlags are the flags of binary that take no value.
func boolFlags(binary string) map[string]bool {
	out := map[string]bool{}
	mk, ok := stageTools[binary]
	if !ok {
		return out
	}
	t := mk()
	if t.Flags == nil {
		return out
	}
	fs := flag.NewFlagSet(binary, flag.ContinueOnError)
	t.Flags(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			out[f.Name] = true
		}
	})
	return out
}

// speaking is handler h whose errors are said in terms of tool.
func speaking[In any](tool string, h mcp.ToolHandlerFor[In, any]) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, out, err := h(ctx, req, in)
		if err != nil && ctx.Err() == nil {
			msg := strings.TrimRight(speak(tool, err.Error()), "\n")
			if !strings.HasPrefix(msg, tool+": ") {
				msg = tool + ": error: " + msg
			}
			err = errors.New(msg)
		}
		return res, out, err
	}
}

// argError is err, a stage's failure over the argument arg's value, as
// one message naming the argument: the stage's error lines without their
// prefixes, its hints left out.
func argError(arg, value string, err error) error {
	var se *pipeline.StageError
	if !errors.As(err, &se) {
		return fmt.Errorf("%s %q: %v", arg, value, err)
	}
	var msgs []string
	for _, l := range strings.Split(se.Stderr, "\n") {
		if m := diagLine.FindStringSubmatch(l); m != nil && m[2] == "error" {
			msgs = append(msgs, l[len(m[0]):])
		}
	}
	if len(msgs) == 0 {
		return fmt.Errorf("%s %q: %v", arg, value, err)
	}
	return fmt.Errorf("%s %q: %s", arg, value, strings.Join(msgs, "; "))
}
