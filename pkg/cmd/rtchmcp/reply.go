package rtchmcp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/tokens"
)

// Every reply is within its budget (docs/decisions/agent-reply.md): the
// whole result a client receives, text and structured content together,
// JSON-encoded, measures at most its budget plus ReplyOverhead tokens.
// rtch_context's budget is its budget_tokens, else its fanout's (4,000,
// 8,000, 16,000); every other tool's is ReplyBudget.
const (
	// ReplyBudget is the budget of a reply of any tool but rtch_context:
	// rtch_context's own at the default fanout.
	ReplyBudget = 8000
	// ReplyOverhead is what a reply may hold beyond its budget: the
	// result's envelope, and the structured content's share, which a
	// reply spends from its budget first (the brief is fitted to what is
	// left).
	ReplyOverhead = 1000
)

// replyTokens measures a result as the client receives it: JSON-encoded,
// counted by count (ceil(chars/4) unless the packet's tokenizer says
// otherwise), and sdkEnvelope. The SDK writes the same bytes
// (encoding/json, HTML characters escaped inside the content) and adds
// its own members.
func replyTokens(res *mcp.CallToolResult, count tokens.Counter) int {
	b, err := json.Marshal(res)
	if err != nil {
		return 0
	}
	return count.Of(string(b)) + sdkEnvelope
}

// sdkEnvelope is what the SDK adds to every result it writes (tokens): the
// server's name and version under _meta and the result type, 34 tokens
// with a short version string.
const sdkEnvelope = 64

// fits tells whether res is within budget.
func fits(res *mcp.CallToolResult, budget int) bool {
	return replyTokens(res, tokens.Chars4) <= budget+ReplyOverhead
}

// fitItems is the result of build with as many of total list items as fit
// ReplyBudget (build(n) holds the first n and says how many it left out),
// at least none.
func fitItems(total int, build func(n int) *mcp.CallToolResult) *mcp.CallToolResult {
	res, _ := fitCount(total, build)
	return res
}

// fitCount is fitItems that also says how many items the result holds.
func fitCount(total int, build func(n int) *mcp.CallToolResult) (*mcp.CallToolResult, int) {
	if res := build(total); fits(res, ReplyBudget) {
		return res, total
	}
	n := sort.Search(total, func(n int) bool { return !fits(build(n+1), ReplyBudget) })
	return build(n), n
}

// diagnosticsMax bounds the stages' diagnostics a reply carries (bytes):
// a walk can warn once per file.
const diagnosticsMax = 2000

// diagnostics is the stages' stderr as a reply of tool carries it, in the
// tool's terms (speak): whole lines, at most diagnosticsMax bytes, saying
// how many lines it left out.
func diagnostics(tool, s string) string {
	s = speak(tool, s)
	if len(s) <= diagnosticsMax {
		return s
	}
	lines := strings.SplitAfter(strings.TrimRight(s, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		if b.Len()+len(l) > diagnosticsMax {
			fmt.Fprintf(&b, "(%d more lines of diagnostics left out)\n", len(lines)-i)
			break
		}
		b.WriteString(l)
	}
	return b.String()
}
