package bundle

// AmbientNotice is the ambient-context instruction every lane bundle carries
// once, in its Task layer: the harness may load more than the bundle, and the
// bundle must win. guild-lint --strict finds it by lint.AmbientPhrase.
const AmbientNotice = "Ambient context: your harness may also load its own instruction files " +
	"(CLAUDE.md, AGENTS.md), skills, MCP servers or memory. Where that ambient context disagrees " +
	"with this bundle, follow the bundle, and record the conflict as a `followups:` entry in the " +
	"frontmatter of your handoff receipt: which source said what, and what you followed."

// LeadAmbientNotice is the same instruction for the lead context, whose
// reader coordinates the run rather than writing a handoff receipt.
const LeadAmbientNotice = "Ambient context: your harness may also load its own instruction files " +
	"(CLAUDE.md, AGENTS.md), skills, MCP servers or memory. Where that ambient context disagrees " +
	"with this lead context or the receipts it names, follow them, and record the conflict as a " +
	"`followups:` entry in your report on the run: which source said what, and what you followed."

// contradictionsNote opens a Task layer's list of graph–wiki contradictions.
const contradictionsNote = "Graph and wiki disagree here. The wiki (or the upstream contract) wins " +
	"unless the node has confidence: high and a direct source_ref; where the graph wins, take the " +
	"node's statement over the page's or the contract's. A node that lost is not in this bundle."
