package protect

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// Finding is one pattern the probe matched. Probe returns at most one
// Finding per pattern id.
type Finding struct {
	// Pattern is a stable id: override_phrase, role_token, chat_template,
	// you_are_now, mode_switch, system_prompt_request, hidden_html_comment,
	// exfil_markdown_image, exfil_curl_pipe, exfil_upload, forged_delimiter,
	// delimiter_mention, invisible_chars, trust_claim, concealment,
	// encoded_instruction, response_directive, ai_address, code_directive,
	// secret_request, persuasion, forced_output, fake_boundary,
	// harmful_request, probe_limit.
	Pattern string `json:"pattern"`
	// Excerpt is a short piece of the normalised text around the first match
	// (never raw text: no invisible characters survive into it).
	Excerpt string `json:"excerpt"`
	// Count is how many times the pattern matched (distinct match starts in
	// the normalised text; for invisible_chars, the characters found).
	Count int `json:"count"`
}

// cautionOnly are the patterns that flag a chunk without quarantining it: a
// mention of the delimiter inside a code block is how this toolkit's own
// documentation looks, and the wrapper neutralises it anyway; text addressed
// to AI readers ("note for AI agents") is how legitimate agent instruction
// files and principles look, as well as injections.
var cautionOnly = map[string]bool{"delimiter_mention": true, "ai_address": true}

// Blocking reports whether any finding calls for quarantine (every pattern
// except the caution-only delimiter_mention and ai_address).
func Blocking(f []Finding) bool {
	for _, x := range f {
		if !cautionOnly[x.Pattern] {
			return true
		}
	}
	return false
}

// rule is one regular expression over a view of the text. Every match of
// re contains one of anchors (lowercase literals of the view): the probe
// finds all anchors of all rules in one Aho-Corasick pass (anchors.go) and
// runs re only near them, so text without trigger words costs one table
// lookup per byte, not a regexp pass per rule.
type rule struct {
	id      string
	re      *regexp.Regexp
	lines   bool // match against the line view instead of the flat view
	anchors []string
	// words: match against the words-only view instead (phrases spelled
	// with punctuation between the words: datamarking, snake_case); such a
	// rule must not allow free gaps, which would join separate clauses.
	words bool
	// starts: every match begins at an anchor (after a word boundary), so
	// the regexp is tried anchored at each anchor hit over at most
	// startReach bytes instead of over windows: dense text costs the length
	// of the attempts, not rules × text.
	starts bool
	// with are further anchor sets: a window is matched only when every set
	// has a hit inside it (an override needs its verb, qualifier and object).
	with [][]string
	// unless, when set, rejects a match whose preceding text (up to 32
	// bytes) it matches: "never share your password" is advice, not a
	// request.
	unless *regexp.Regexp
	// unlessNext likewise rejects a match by the text after it (up to 32
	// bytes): "in your output directory" is about a program's output.
	unlessNext *regexp.Regexp
	// unlessMatch rejects a match whose own text it matches (a determiner
	// where a name belongs).
	unlessMatch *regexp.Regexp
}

// rejected reports whether r's unless, unlessNext or unlessMatch test discards the match
// at loc of v.
func (r *rule) rejected(v string, loc []int) bool {
	return (r.unless != nil && r.unless.MatchString(v[max(loc[0]-32, 0):loc[0]])) ||
		(r.unlessNext != nil && r.unlessNext.MatchString(v[loc[1]:min(loc[1]+32, len(v))])) ||
		(r.unlessMatch != nil && r.unlessMatch.MatchString(v[loc[0]:loc[1]]))
}

// codeIndex precedes a role tag that is code: "pool[instruction]" indexes,
// "Pool<System>" instantiates a generic type.
var codeIndex = lazyre.New(`[a-z0-9_)]$`)

// codeValue follows a "System:" label that is a struct field in code
// ("System: stat.Total,", "Human: human, }"): an expression, not a turn.
var codeValue = lazyre.New(`^[a-z_][a-z0-9_.\[\]]*(?:\(|,|\n|$| [-+*/|&] )`)

// programOutput follows "your output" when the output is a program's.
var programOutput = lazyre.New(`^ ?(?:director(?:y|ies)|dirs?|folders?|files?|paths?|streams?|buffers?|devices?|writers?|channels?|variables?|formats?|levels?|folder)\b`)

// verbAnchors are the override verbs (ovVerb).
var verbAnchors = []string{"ignore", "disregard", "forget", "override", "bypass", "neglect", "discard",
	"abandon", "set aside", "pay no attention", "do not follow", "don't follow", "stop following", "do not obey",
	"disobey", "nevermind", "never mind"}

// Literal anchors of the override vocabularies (substrings of every word
// the corresponding regexp alternative accepts).
var (
	strongQualAnchors = []string{"previous", "prior", "above", "earlier", "preceding", "foregoing", "original",
		"initial", "old", "existing", "former", "system", "safety", "past", "preset"}
	weakQualAnchors = []string{"all", "any", "other", "given", "current", "default", "following", "every",
		"these", "those", "your", "my"}
	strongNounAnchors = []string{"instruction", "prompt", "direction", "directive", "rules", "guideline",
		"programming", "guidance", "constraint", "restriction", "training", "polic", "limitation", "filter", "safeguard"}
	nounAnchors    = append([]string{"command", "order", "context", "message", "conversation", "task", "input", "content", "data", "info", "request", "text", "everything"}, strongNounAnchors...)
	outVerbAnchors = []string{"print", "say", "state", "output", "respond", "reply", "translate", "tell",
		"focus", "repeat", "answer", "spell"}
)

// multilingualAnchors are literals every multilingualOverride phrase holds.
func multilingualAnchors() []string {
	return []string{"olvida", "ignora", "oublie", "ignorez", "ignorer", "precedentes", "ignoriere", "ignorieren sie", "las instrucciones", "vergiss",
		"instrucoes", "игнорир", "забудь", "αγνοη", "무시", "忽略", "無視", Normalize("अनदेखी")}
}

// The verb, qualifier and object vocabularies of override phrasing. The
// goal-hijack form ("ignore X and print Y") needs plain words between the
// verb and a connector (and, then, a comma): in code, "// ignore error }
// return nil" crosses a clause and is not an instruction. A strong
// qualifier (previous, above, system…) makes any object an override ("ignore
// the above text"); a weak one (any, all, other…) only with a strong object
// ("ignore any instructions"), so "ignore any swears input by a user" is not.
const (
	ovVerb       = `(?:ignore|disregard|forget|override|bypass|neglect|discard|abandon|set aside|pay no attention to|do not follow|don't follow|stop following|do not obey|disobey|nevermind|never mind)`
	ovStrongQual = `(?:previous|previously|prior|above|earlier|preceding|foregoing|original|initial|old|existing|former|system|safety|past|preset)`
	ovWeakQual   = `(?:all|any|other|given|current|default|following|every|these|those|your|my)`
	ovStrongNoun = `(?:instructions?|prompts?|directions?|directives?|rules|guidelines|programming|guidance|constraints|restrictions|training|polic(?:y|ies)|limitations|filters|safeguards)`
	ovNoun       = `(?:` + ovStrongNoun + `|commands?|orders|context|messages?|conversation|tasks?|input|content|data|information|info|requests?|text|everything)`
	outVerb      = `(?:print|say|state|output|respond|reply|translate|tell|repeat|answer|spell|(?:instead )?focus (?:exclusively|solely)|instead focus)`
)

// rules are every rule the probe runs: the override, persona, template,
// trust and exfiltration rules below and the task-injection families of
// probe_tasks.go.
var rules = sync.OnceValue(func() []rule { return append(coreRules(), taskRules()...) })

func coreRules() []rule {
	return []rule{
		// override phrasing
		{starts: true, with: [][]string{strongQualAnchors, nounAnchors}, anchors: verbAnchors, id: "override_phrase", re: regexp.MustCompile(`\b` + ovVerb + `\b(?: [^ ]+){0,3}? ` + ovStrongQual + `\b(?: [^ ]+){0,3}? ` + ovNoun + `\b`)},
		{starts: true, with: [][]string{weakQualAnchors, strongNounAnchors}, anchors: verbAnchors, id: "override_phrase", re: regexp.MustCompile(`\b` + ovVerb + `\b(?: [^ ]+){0,2}? ` + ovWeakQual + `\b(?: [^ ]+){0,2}? ` + ovStrongNoun + `\b`)},
		{starts: true, with: [][]string{outVerbAnchors}, anchors: []string{"ignore", "disregard", "forget"}, id: "override_phrase", re: regexp.MustCompile(`\b(?:ignore|disregard|forget)\b(?: [a-z']+){0,6}?(?: and|,| then|, and|, then) (?:then |just |instead |only |simply )*` + outVerb + `\b`)},
		{starts: true, with: [][]string{{"above", "everything", "all of that", "all that", "all your", "all previous", "all prior"}}, anchors: []string{"ignore", "disregard", "forget"}, id: "override_phrase", re: regexp.MustCompile(`\b(?:ignore|disregard) (?:all of |everything |all )?(?:the )?above\b|\bforget (?:about )?(?:everything|all of that|all that|the above|all (?:your|previous|prior))\b`)},
		// a fresh start before a new request: "Forget about that, can you …"
		{anchors: []string{"forget about", "forget that", "forget this", "forget it"}, id: "override_phrase",
			re: regexp.MustCompile(`(?:^|[.!?;] )(?:(?:now|ok|okay|actually|so|well),? )?forget (?:about )?(?:that|this|it)(?:,|!|\.| -) ?(?:and |now |instead |just )?(?:can you|could you|would you|will you|please|tell me|give me|write|provide|list|explain|describe|show me|what(?:'s| is| are)|how (?:do|does|can|would))\b`)},
		{with: [][]string{{":", "do", "follow", "obey", "only", "exclusive", "solely", "except"}}, anchors: []string{"instruction", "task", "rules", "directive", "orders", "instead", "focus", "concentrate", "disregard"}, id: "override_phrase", re: regexp.MustCompile(`\b(?:new|updated|revised|real|actual|true|override) (?:instructions?|task|rules|directives?|orders) ?:|\binstead,? (?:do|follow|obey) (?:this|these|the following)\b|\b(?:focus|concentrate) (?:only|exclusively|solely) on (?:the following|the information|this)\b|\bdisregard all (?:info|information|content|data) except\b`)},
		{starts: true, words: true, with: [][]string{append(strongQualAnchors, "all", "any")}, anchors: verbAnchors, id: "override_phrase",
			re: regexp.MustCompile(`\b` + ovVerb + ` (?:(?:all|any|the|your|of) )*` + ovStrongQual + ` ` + ovNoun + `\b`)},
		{anchors: multilingualAnchors(), id: "override_phrase", re: multilingualOverride()},
		// persona and mode switches
		{starts: true, anchors: []string{"you are now", "you're now", "from now on", "pretend", "act as", "immerse yourself", "your new", "do anything now", "stay in character", "broken free"}, id: "you_are_now", re: regexp.MustCompile(`\byou(?: are|'re) now (?:a|an|the|my|our|dan|free|unrestricted|jailbroken|no longer|going to|in (?:[a-z]+ )?mode|[a-z]+ing)\b|\bfrom now on,? (?:you|your|act|respond|answer|reply|always|only)\b|\bpretend (?:to be|(?:that )?you are|you're) (?:an? )?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|dan|different (?:ai|model|assistant)|(?:ai|model|assistant) (?:without|with no)|(?:not|no longer) (?:an ai|bound|restricted))\b|\bpretend (?:that )?(?:there are|you have) no (?:rules|restrictions|filters|guidelines|limits)\b|\bact as (?:an? |if you (?:are|were) )?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|dan)\b|\bimmerse yourself (?:in|into) the role\b|\byour new (?:role|task|instructions?|goal|objective|purpose|persona) (?:is|are)\b|\bdo anything now\b|\bstay in character\b|\bbroken free of the\b`)},
		{with: [][]string{{"god", "dan", "jailbreak", "override", "sudo", "security", "system", "admin", "root"}}, anchors: []string{" mode", "override", "request"}, id: "mode_switch", re: regexp.MustCompile(`\b(?:god|dan|jailbreak|jailbroken|override|sudo) mode\b|\b(?:security|system|admin|administrator|root) override\b|\badmin(?:istrator)? request\b`)},
		// system prompt extraction
		{with: [][]string{{"reveal", "print", "show", "display", "output", "repeat", "dump", "leak", "share", "give me", "tell me", "encode", "translate", "spell out", "recite", "write out", "see", "what "}, {"system", "initial", "original", "hidden", "secret", "internal", "developer", "pre"}}, anchors: []string{"prompt", "instruction", "message", "configuration", "directive"}, id: "system_prompt_request", re: regexp.MustCompile(`\b(?:reveal|print|show|display|output|repeat|dump|leak|share|give me|tell me|encode|translate|spell out|recite|write out|see|what (?:is|are|was|were))\b[^.?!]{0,40}?\b(?:(?:your|the|its|my) )?(?:(?:full|entire|exact|complete|original|initial|hidden|secret|internal|current) )*(?:system|initial|original|hidden|secret|internal|developer|pre-?) ?(?:prompt|instructions?|message|configuration|directives?)\b`)},
		{anchors: []string{"what were you told", "instructions", "system prompt", "initiali", "repeat", "opposite of your", "reverse of your", "what were those"}, id: "system_prompt_request", re: regexp.MustCompile(`\bwhat were you told\b|\b(?:my|your) (?:original |initial |system )?instructions (?:are|were) ?:|\bthe system prompt (?:is|was) ?:|\binitiali[sz]ation string\b|\brepeat (?:the |all |everything )?(?:text |words )?(?:above|before this|preceding)\b|\b(?:opposite|reverse) of your (?:system|initial) (?:prompt|instructions)\b|\bwhat were those instructions\b`)},
		// directives about the reader's own output: data addressed to whoever
		// writes "your reply" is an instruction to the model (BIPIA's task
		// injections), as is "if asked …, simply respond with …"
		{anchors: []string{"your response", "your reply", "your answer", "your output", "your responses", "your replies", "your answers"}, id: "response_directive",
			unlessNext: programOutput(), re: regexp.MustCompile(`\b(?:in|to|into|with|within|throughout) your (?:response|reply|answer|output)s?\b|\byour (?:response|reply|answer)'s\b|\b(?:modify|augment|enhance|enrich|end|begin|start|conclude|format|rewrite) your (?:response|reply|answer|output)s?\b|\byour (?:replies|answers|responses)\b`)},
		{anchors: []string{"respond", "reply", "answer", "deviate"}, id: "response_directive",
			re: regexp.MustCompile(`\b(?:simply|just|only|always) (?:respond|reply|answer)(?: only)? with\b|\byou (?:may|must|should|can) not deviate\b|\b(?:if|when|whenever) (?:you are |you're |you get )?asked (?:about|how|what|whether|for|to)\b[^.]{0,80}\b(?:respond|reply|answer)\b`)},
		// text addressed to an AI reader (caution only)
		{starts: true, anchors: []string{"note", "message", "instruction", "reminder", "attention", "dear", "if you are"}, id: "ai_address",
			re: regexp.MustCompile(`\b(?:note|message|instructions?|reminder|attention) (?:to|for) (?:the |any |all |every )?(?:ai|llms?|assistants?|(?:ai )?(?:coding )?agents?|ai assistants?|models?|language models?|chatbots?|automated (?:analysis |screening )?(?:software|systems?|tools?))\b|\bdear (?:ai|llm|assistant|chatgpt|gpt|claude|model|bot)\b|\bif you are an? (?:ai|llm|language model|assistant|ai assistant|ai agent|large language model)\b`)},
		// chat-template control tokens
		{anchors: []string{"<|", "inst]", "sys>>", "_of_turn>", "_of_text", "_of_sentence", "eot_id"}, id: "chat_template", re: regexp.MustCompile(`<\|[a-z0-9_ -]{1,40}\|>|\[/?inst\]|<</?sys>>|<(?:start|end)_of_turn>|<\|?(?:begin|end)_of_(?:text|sentence)\|?>|<\|?eot_id\|?>`)},
		// role labels and role tags
		{unless: codeIndex(), with: [][]string{{"<", "[", ":"}}, anchors: []string{"system", "assistant", "human", "instruction", "sys>", "sys >", "admin", "developer", "end of"}, id: "role_token", re: regexp.MustCompile(`< ?/? ?(?:system|assistant|human|instructions?|sys|admin|developer)(?: message)? ?>|\[ ?(?:system|admin|assistant|developer|instructions?)(?: (?:message|prompt|note|notice|override|update|alert|instructions?|mode|request|command))?(?: ?:[^\]]{0,40})? ?\](?:[^(\[]|$)|\bsystem (?:message|prompt) ?:|< ?end of (?:session|conversation|context|input|document|prompt) ?>`)},
		{unlessNext: codeValue(), with: [][]string{{":", "#"}}, anchors: []string{"system", "developer", "human", "assistant"}, id: "role_token", lines: true, re: regexp.MustCompile(`(?m)^ ?(?:#{1,6} ?|\*\*)?(?:system|developer|human)(?: message| prompt)? ?:(?:\*\*)? |^ ?#{1,6} ?(?:end )?(?:system|system prompt|system message|assistant)(?: instructions?)? ?$`)},
		// trust claims
		{anchors: []string{"tier", "integrity notice", "approved", "operator", "verified by", "trusted by"}, id: "trust_claim", re: regexp.MustCompile(`trust[_-]?tier["']? ?[:=] ?["']?(?:operator|trusted)\b(?:["']?(?: ?[^,|/ ]| ?$))|\bguild integrity notice\b|\bapproved[_ ]by[_ ](?:the[_ ])?(?:user|operator|maintainers?|admin|administrator|owner)\b|\bpre-?approved (?:you|for you)\b|\bhave pre-?approved\b|\b(?:under|with|has|have|granted|grants?) operator (?:trust|privileges?|tier|level|access)\b|\b(?:verified|trusted|approved) by (?:the )?(?:operator|administrator|admin|system)\b`)},
		{anchors: []string{"verified", "trusted", "approved"}, id: "trust_claim", lines: true, re: regexp.MustCompile(`(?m)^ ?(?:verified|trusted|approved|operator_approved) ?: ?["']?(?:yes|true)\b`)},
		// concealment from the user
		{with: [][]string{{"mention", "tell", "reveal", "disclose", "report", "show", "inform", "notify"}, {"user", "human", "anyone", "operator"}}, anchors: []string{"mention", "tell", "reveal", "disclose", "report", "show", "without"}, id: "concealment", re: regexp.MustCompile(`\b(?:do not|don't|never) (?:mention|tell|reveal|disclose|report|show) (?:this|these|it|that|anything)\b[^.]{0,40}?\b(?:user|human|anyone|operator)\b|\bwithout (?:telling|informing|notifying) the user\b`)},
		// exfiltration by shell
		{with: [][]string{{"|", "<(", "iwr", "invoke-webrequest", "webclient"}}, anchors: []string{"curl", "wget", "iex"}, id: "exfil_curl_pipe", lines: true, re: regexp.MustCompile(`\b(?:curl|wget)\b[^|;\n]*\| ?(?:sudo )?(?:(?:ba|z|k|da|fi)?sh|python3?|perl|ruby|node)\b|\b(?:ba|z)?sh <\( ?(?:curl|wget)\b|\$\( ?(?:curl|wget)\b[^)\n]*\) ?\| ?(?:ba)?sh\b|\biex ?\(? ?(?:iwr|invoke-webrequest|\(?new-object net\.webclient)`)},
		{with: [][]string{{"-d", "--data", "-f", "--form", "-t", "--upload-file", "--post-file"}, {"~/.ssh", "/etc/", ".env", "$"}}, anchors: []string{"curl", "wget"}, id: "exfil_upload", lines: true, re: regexp.MustCompile(`\b(?:curl|wget)\b[^\n]*(?:-d|--data[a-z-]*|-f|--form|-t|--upload-file|--post-file)[= ]+["']?[^ \n]{0,40}(?:~/\.ssh|/etc/(?:passwd|shadow)|\.env\b|\$\( ?(?:env|printenv|cat)\b|\$\{?(?:aws|github|gh|openai|anthropic|api)_?[a-z_]*)`)},
	}
}

// multilingualOverride matches "ignore (all) previous instructions" in the
// languages of the evaluation data, written through Normalize so the pattern
// sees what the probe sees.
func multilingualOverride() *regexp.Regexp {
	phrases := []string{
		`olvida (?:todas )?(?:tus |las )?instrucciones (?:anteriores|previas)`,
		`ignora (?:todas )?(?:tus |las )?instrucciones (?:anteriores|previas)`,
		`ignore[zr]? (?:toutes )?(?:les |vos )?instructions precedentes`,
		`oublie[zr]? (?:toutes )?(?:les |vos )?instructions`,
		`ignoriere (?:alle )?(?:vorherigen|bisherigen|obigen) anweisungen`,
		`ignorieren sie (?:alle )?(?:die )?(?:vorherigen|bisherigen|obigen|vorigen) anweisungen`,
		`(?:ignore|olvide) (?:todas )?las instrucciones (?:anteriores|previas)`,
		`vergiss (?:alle )?(?:vorherigen|bisherigen) anweisungen`,
		`ignora (?:tutte )?le istruzioni precedenti`,
		`ignore (?:todas )?as instrucoes anteriores`,
		`игнорир\pL* (?:все )?предыдущ\pL* (?:инструкц|указан)`,
		`забудь\pL* (?:все )?(?:предыдущ\pL* )?инструкц`,
		`αγνοησ\pL* (?:τις )?(?:προηγουμεν\pL*|προηγουμενες) οδηγι`,
		`이전 ?지시\S* ?무시`,
		`忽略(?:之前|以上|先前|上面)的?(?:所有)?(?:指令|指示|说明)`,
		`(?:前の|以前の)指示を無視`,
	}
	// Hindi is written through Normalize to match its treatment of marks.
	phrases = append(phrases, regexp.QuoteMeta(Normalize("पिछले निर्देशों की अनदेखी")))
	return regexp.MustCompile(strings.Join(phrases, "|"))
}

// mdCommentRE finds markdown link-reference comments, invisible once rendered.
var mdCommentRE = lazyre.New(`(?m)^ ?\[(?://|comment)\] ?: ?# ?[("'].*$`)

// hiddenCueRE is what makes a hidden comment an instruction to a model:
// words addressing a model or giving it orders (not generic verbs such as
// print or state, which code inside comments is full of).
var hiddenCueRE = lazyre.New(`\b(?:ai|llm|llms|assistant|agent|agents|model|models|chatbot|gpt|claude|copilot|ignore|disregard|instructions?|you (?:must|should|are|will|may)|do not (?:mention|tell|reveal|show)|override)\b`)

// mdImageRE and imgTagRE find images a renderer would fetch.
var (
	mdImageRE = lazyre.New(`!\[[^\]]{0,300}\] ?\( ?<?((?:https?:)?//[^ )>]+)`)
	imgTagRE  = lazyre.New(`<img\b[^>]{0,300}?\bsrc ?= ?["']?((?:https?:)?//[^ "'>]+)`)
)

// defaultImageHosts are the hosts images may always load from:
// badge, CI and forge hosts that serve project images and do not hand their
// request logs to whoever wrote a page.
var defaultImageHosts = []string{
	"img.shields.io", "shields.io", "github.com", "githubusercontent.com", "badge.fury.io",
	"codecov.io", "coveralls.io", "travis-ci.org", "travis-ci.com", "circleci.com",
	"goreportcard.com", "pkg.go.dev", "godoc.org", "docs.rs", "crates.io", "readthedocs.org",
	"readthedocs.io", "gitlab.com", "bitbucket.org", "api.netlify.com", "deps.rs",
	"app.codecov.io", "opencollective.com", "bestpractices.coreinfrastructure.org",
	"www.bestpractices.dev", "api.securityscorecards.dev", "snyk.io",
	"api.scorecard.dev", "app.fossa.com", "app.fossa.io", "sourcegraph.com", "dev.azure.com",
	"ci.appveyor.com", "badges.gitter.im", "static.pepy.tech", "contrib.rocks",
}

// forgedTagRE finds the wrapper's delimiter in the line view.
// U+FFFD stands where an invalid byte was: an overlong '<' (C0 BC) decodes
// to it, and models may still read the tag.
var forgedTagRE = lazyre.New(`[<\x{fffd}] ?/? ?guild ?: ?recall|llacer ?: ?dliug ?/? ?[<\x{fffd}]`)

// fenceRE finds markdown code-fence lines in the line view.
var fenceRE = lazyre.New("(?m)^ {0,3}(?:```|~~~)")

// Options tune the probe for a project.
type Options struct {
	// ImageHosts are extra hosts (a host also covers its subdomains) that
	// markdown and HTML images may load from without being flagged
	// exfil_markdown_image, beside the built-in badge, CI and forge hosts
	// (img.shields.io, github.com, githubusercontent.com, codecov.io, …).
	ImageHosts []string
}

// Probe scans text for injection patterns, on its normalised views (flat and
// line-preserving) and, for invisible characters and encoded payloads, on the
// raw bytes. It returns at most one Finding per pattern, sorted by pattern.
// Every step is a single pass or an RE2 match: time is linear in len(text).
func Probe(text string) []Finding { return ProbeOptions(text, Options{}) }

// ProbeOptions is Probe with project options.
func ProbeOptions(text string, o Options) []Finding {
	return probeLines(text, normalizeLines(text), o)
}

// probeLines is ProbeOptions on text whose line view (normalizeLines) is
// lines.
func probeLines(text, lines string, o Options) []Finding {
	flat := strings.ReplaceAll(lines, "\n", " ")
	acc := map[string]*Finding{}
	sc := &scanner{budget: scanBudget(len(text))}
	// Count distinct match starts per pattern (several rules of one pattern
	// can match the same phrase; the flat and line views share offsets).
	starts := map[string]map[int]bool{}
	add := func(id, v string, loc []int) {
		if starts[id] == nil {
			starts[id] = map[int]bool{}
		}
		if starts[id][loc[0]] {
			return
		}
		starts[id][loc[0]] = true
		if f, ok := acc[id]; ok {
			f.Count++
			return
		}
		acc[id] = &Finding{Pattern: id, Excerpt: excerpt(v, loc[0], loc[1]), Count: 1}
	}
	// Matches on other views (words-only, decoded payloads) have their own
	// offsets: they only add a pattern not seen yet.
	addOnce := func(id, v string, loc []int) {
		if acc[id] == nil {
			add(id, v, loc)
		}
	}
	// Phrases spelled with punctuation between the words (datamarking
	// characters, underscores, dots) are matched on a words-only view.
	words := ""
	for _, r := range rules() {
		v := flat
		switch {
		case r.lines:
			v = lines
		case r.words:
			if words == "" {
				words = wordsView(flat)
			}
			v = words
		}
		found := add
		if r.words {
			found = addOnce
		}
		emit := func(loc []int) {
			if !r.rejected(v, loc) {
				found(r.id, v, loc)
			}
		}
		if r.starts {
			sc.scanStarts(anchoredRE(r.re), v, r.anchors, r.with, emit)
			continue
		}
		sc.scan(r.re, v, r.anchors, r.with, emit)
	}
	probeRoleTurns(sc, lines, add)
	probeHiddenComments(sc, lines, add)
	probeImages(sc, flat, o.ImageHosts, add)
	probeDelimiters(sc, lines, add)
	probeEncoded(sc, text, addOnce)
	if sc.exceeded {
		acc["probe_limit"] = &Finding{Pattern: "probe_limit", Count: 1,
			Excerpt: fmt.Sprintf("trigger words too dense to check within %d KiB of matching", scanBudget(len(text))>>10)}
	}
	if ex, n := invisibleChars(text); n > 0 {
		acc["invisible_chars"] = &Finding{Pattern: "invisible_chars", Excerpt: ex, Count: n}
	}
	out := make([]Finding, 0, len(acc))
	for _, f := range acc {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pattern < out[j].Pattern })
	return out
}

// wordsView replaces every run of characters other than letters, digits and
// apostrophes with one space, and reads digits as the letters they stand for
// in words that mix both ("1gn0re" → "ignore"; "2024" stays).
func wordsView(flat string) string {
	var b strings.Builder
	b.Grow(len(flat))
	word := make([]rune, 0, 32)
	flush := func() {
		letters, digits := false, false
		for _, r := range word {
			if r >= '0' && r <= '9' {
				digits = true
			} else {
				letters = true
			}
		}
		for _, r := range word {
			if letters && digits {
				if l, ok := leet[r]; ok {
					r = l
				}
			}
			b.WriteRune(r)
		}
		word = word[:0]
	}
	space := false
	for _, r := range flat {
		if r == '\'' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
			word = append(word, r)
			space = false
			continue
		}
		flush()
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	flush()
	return b.String()
}

// leet maps digits to the letters they imitate.
var leet = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g'}

// Anchors of the scans outside rules.
var (
	roleLabelAnchors = []string{"assistant:", "assistant :", "user:", "user :", "ai:", "ai :", "bot:", "bot :", "model:", "model :", "gpt:", "gpt :"}
	mdCommentAnchors = []string{"[//]", "[comment]"}
	forgedAnchors    = []string{"guild", "dliug"}
	imageAnchors     = []string{"![", "<img"}
)

// roleLabelRE finds conversation-turn labels at line starts.
var roleLabelRE = lazyre.New(`(?m)^ ?(assistant|user|ai|bot|model|gpt|chatgpt) ?: `)

// probeRoleTurns flags a forged conversation: an assistant turn label beside
// a user turn label.
func probeRoleTurns(sc *scanner, lines string, add func(string, string, []int)) {
	var first []int
	seen := map[string]bool{}
	var ms [][]int
	sc.scan(roleLabelRE(), lines, roleLabelAnchors, nil, func(m []int) { ms = append(ms, m) })
	for _, m := range ms {
		sub := roleLabelRE().FindStringSubmatchIndex(lines[m[0]:m[1]])
		label := lines[m[0]+sub[2] : m[0]+sub[3]]
		if label != "user" {
			label = "assistant"
		}
		seen[label] = true
		if first == nil {
			first = m[:2]
		}
	}
	if seen["assistant"] && seen["user"] {
		add("role_token", lines, first)
	}
}

func probeHiddenComments(sc *scanner, lines string, add func(string, string, []int)) {
	// HTML comments; an unterminated one runs to the end of the text.
	for i := 0; ; {
		k := strings.Index(lines[i:], "<!--")
		if k < 0 {
			break
		}
		start := i + k
		bodyStart := start + 4
		end := strings.Index(lines[bodyStart:], "-->")
		bodyEnd, next := len(lines), len(lines)
		if end >= 0 {
			bodyEnd, next = bodyStart+end, bodyStart+end+3
		}
		if hiddenCueRE().MatchString(lines[bodyStart:bodyEnd]) {
			add("hidden_html_comment", lines, []int{start, next})
		}
		i = next
	}
	// markdown link-reference comments: [//]: # (text)
	sc.scan(mdCommentRE(), lines, mdCommentAnchors, nil, func(m []int) {
		if hiddenCueRE().MatchString(lines[m[0]:m[1]]) {
			add("hidden_html_comment", lines, m)
		}
	})
}

func probeImages(sc *scanner, flat string, hosts []string, add func(string, string, []int)) {
	for _, re := range []*regexp.Regexp{mdImageRE(), imgTagRE()} {
		anchors := imageAnchors[:1]
		if re == imgTagRE() {
			anchors = imageAnchors[1:]
		}
		sc.scan(re, flat, anchors, nil, func(m []int) {
			sub := re.FindStringSubmatchIndex(flat[m[0]:m[1]])
			if suspiciousImage(flat[m[0]+sub[2]:m[0]+sub[3]], hosts) {
				add("exfil_markdown_image", flat, m)
			}
		})
	}
}

// suspiciousImage: an image a renderer would fetch from a host outside
// defaultImageHosts and hosts (SPEC §10: "markdown images to unknown
// hosts"), or whose URL carries a template placeholder wherever it points.
// Relative images are never matched.
func suspiciousImage(raw string, hosts []string) bool {
	if strings.ContainsAny(raw, "{}$<[") || strings.Contains(raw, "%s") {
		return true
	}
	if strings.HasPrefix(raw, "//") {
		raw = "https:" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return true
	}
	host := u.Hostname()
	for _, list := range [][]string{defaultImageHosts, hosts} {
		for _, h := range list {
			h = strings.ToLower(h)
			if host == h || strings.HasSuffix(host, "."+h) {
				return false
			}
		}
	}
	return true
}

// probeDelimiters flags the wrapper's delimiter inside the text. Outside code
// it is a forgery (forged_delimiter, which quarantines); inside a fenced block
// or an inline code span it is a mention (delimiter_mention, caution only),
// which is how documentation of this toolkit looks. A tier claim inside the tag is caught
// by trust_claim wherever it is.
func probeDelimiters(sc *scanner, lines string, add func(string, string, []int)) {
	var ms [][]int
	sc.scan(forgedTagRE(), lines, forgedAnchors, [][]string{{":"}}, func(m []int) { ms = append(ms, m) })
	if len(ms) == 0 {
		return
	}
	fences := fenceRE().FindAllStringIndex(lines, -1)
	fi, inside := 0, false
	for _, m := range ms {
		for fi < len(fences) && fences[fi][0] < m[0] {
			inside = !inside
			fi++
		}
		if inside || inInlineCode(lines, m[0], m[1]) {
			add("delimiter_mention", lines, m)
		} else {
			add("forged_delimiter", lines, m)
		}
	}
}

// inInlineCode reports whether [lo, hi) sits inside a markdown code span:
// an odd number of backticks before it (from the start of the previous
// line) and one after it (up to the end of the next line). Only 512 bytes either side are looked
// at, so the check stays constant-time.
func inInlineCode(lines string, lo, hi int) bool {
	// A code span may wrap onto the next line: count from the start of the
	// previous line.
	start := max(lo-512, 0)
	if k := strings.LastIndexByte(lines[start:lo], '\n'); k >= 0 {
		if k2 := strings.LastIndexByte(lines[start:start+k], '\n'); k2 >= 0 {
			start += k2 + 1
		}
	}
	end := min(hi+512, len(lines))
	if k := strings.IndexByte(lines[hi:end], '\n'); k >= 0 {
		if k2 := strings.IndexByte(lines[hi+k+1:end], '\n'); k2 >= 0 {
			end = hi + k + 1 + k2
		}
	}
	return strings.Count(lines[start:lo], "`")%2 == 1 && strings.Contains(lines[hi:end], "`")
}

// invisibleChars counts invisible characters that have no business in the
// text: bidi embedding/override/isolate controls, tag characters outside an
// emoji flag sequence, supplementary variation selectors, controls other than
// whitespace and ESC, and zero-width or soft-hyphen characters next to ASCII
// (where they split words or tags; beside emoji or non-Latin letters ZWJ and
// ZWNJ are ordinary).
func invisibleChars(text string) (string, int) {
	n := 0
	var first string
	prev := rune(-1)
	inFlag := false
	note := func(r rune, at int) {
		n++
		if first == "" {
			first = fmt.Sprintf("U+%04X at byte %d", r, at)
		}
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
			note(r, i)
		case r >= 0xE0000 && r <= 0xE007F:
			if prev == 0x1F3F4 || (inFlag && prev >= 0xE0000 && prev <= 0xE007F) {
				inFlag = true
			} else {
				inFlag = false
				note(r, i)
			}
		case r >= 0xE0100 && r <= 0xE01EF:
			note(r, i)
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' && r != '\v' && r != 0x1b:
			note(r, i)
		case r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0x00AD ||
			(r == 0xFEFF && i > 0) || r == 0x180E || (r >= 0x2061 && r <= 0x2064) || r == 0x034F:
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			if asciiVisible(prev) || asciiVisible(next) {
				note(r, i)
			}
		}
		prev = r
		i += size
	}
	if n > 1 {
		first = fmt.Sprintf("%s (%d in all)", first, n)
	}
	return first, n
}

func asciiVisible(r rune) bool { return r > 0x20 && r < 0x7f }

// encodedKinds are the rules whose phrase, found in a decoded base64 or hex
// run, makes the run an encoded instruction.
var encodedKinds = map[string]bool{"override_phrase": true, "you_are_now": true, "system_prompt_request": true,
	"forced_output": true, "secret_request": true, "code_directive": true}

// excerpt returns the match with a little context, at most ~120 bytes, on
// rune boundaries, newlines as spaces.
func excerpt(v string, lo, hi int) string {
	const ctx, most = 24, 120
	if hi-lo > most {
		hi = lo + most
	}
	a, b := lo-ctx, hi+ctx
	if a < 0 {
		a = 0
	}
	if b > len(v) {
		b = len(v)
	}
	for a > 0 && !utf8.RuneStart(v[a]) {
		a--
	}
	for b < len(v) && !utf8.RuneStart(v[b]) {
		b++
	}
	return strings.TrimSpace(strings.ReplaceAll(v[a:b], "\n", " "))
}
