package protect

import (
	"regexp"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// Task-injection families: text that gives the reader a task instead of
// overriding its instructions outright. Each family is a phrasing pattern
// seen across a group of attacks (BIPIA's code and text attacks,
// CyberSecEval's credential and data requests, TensorTrust-style forced
// outputs and fake input boundaries, prompt extraction), written so that the
// same words in documentation do not match: the object of the directive is
// the reader's own answer or solution, or a secret the reader holds. The
// families are listed in docs/security.md and the choices behind them in
// docs/decisions/protect.md; TestCorpusReport (split halves) and TestHeldOut
// measure them.

// Words of the BIPIA code-attack directive: "<verb> the following code
// snippet into your solution".
const (
	codeLead = `(?:following|subsequent|below|attached|accompanying|ensuing|succeeding|upcoming)`
	codeNoun = `(?:code (?:block|section|segment|fragment|sample|piece|chunk|portion|excerpt|snippet)|(?:code )?(?:snippet|excerpt))s?`
	// answerNoun is what an assistant produces for its user; documentation
	// says "your project", "your config", "your file" instead.
	answerNoun = `(?:code ?base|solution(?: architecture)?|implementation|algorithm|response|answer|reply|elucidation)`
	// codeVerb are the incorporation verbs a directive about "your code"
	// needs (docs say "the following snippet shows … in your code").
	codeVerb = `(?:incorporat|integrat|includ|inclusion|merg|embed|insert|add|append|blend|meld|fuse|weav|infus|inject|utili[sz]|employ|leverag|enlist|deploy|adopt|absorb|engag|execut|harmoni[sz]|assimilat|interweav|introduc|featur|embod|manifest|plac|put|combin|implant|splic|attach|us)\w*`
)

// Answer-transformation verbs: an imperative that reshapes the reader's own
// reply ("Remove spaces from your response", "Group letters of your answer
// in fours"). "output" is a program's as often as a reader's ("replace
// os.Stdout with your output"), so it is left out; "message" is ambiguous
// ("write your message here"), so it needs a verb that transforms letters.
const (
	replyVerb   = `(?:provide|render|write|deliver|present|give|compose|craft|rearrange|jumble|scramble|group|remove|replace|substitute|reverse|encode|encrypt|convert|rewrite|spell|shuffle|capitali[sz]e|split|insert|express|phrase|formulate|return|generate|produce|translate|encipher|obfuscate|misspell)`
	letterVerb  = `(?:render|rearrange|jumble|scramble|group|remove|reverse|encode|encrypt|rewrite|spell|shuffle|encipher|obfuscate|misspell|substitute)`
	replyTarget = `(?:reply|replies|response|responses|answer|answers)`
)

// Secrets a reader holds: asking for one is the CyberSecEval request family.
// Keys and credentials are named in code comments all the time ("reveal the
// private key" in a threat description), so they count only when they are
// the reader's own ("your api key").
const (
	secretNoun = `(?:password|passcode|passphrase|pass code|pass phrase|access code|secret word|secret code|pin code)`
	ownedNoun  = `(?:secret key|api key|private key|credentials)`
)

// secretAsk are the request forms (a question or an order to hand over).
const secretAsk = `(?:what(?:'s| is| was| are| were| would| will)|tell me|give me|show me|send me|share|reveal|disclose|spell out|hand over|i need|need to know|let me (?:know|see|have))`

// Personal data that identifies or locates a person, and the requests for
// it: secretAsk's forms without "i need" (a specification says it of its
// own data) and with "share" only as a request ("that you share", "please
// share"): "before you share the user's email address, ask" is advice.
const (
	personAsk  = `(?:what(?:'s| is| was| are| were)|tell me|tell us|give me|show me|send me|that you share|please share|reveal|disclose|spell out|let me know|need to know|look up|find out)`
	personNoun = `(?:birth ?date|date of birth|birthday|home address|e-?mail address|(?:phone|mobile|cell|telephone) number|(?:city|place|country) of (?:residence|birth)|residence|social security number|credit card(?: number| details)?|bank (?:balance|account(?: number| details)?)|salary|passport number|medical (?:records?|history))`
)

// personAnchors are literals every personNoun alternative holds.
var personAnchors = []string{"birth", "birthday", "home address", "mail address", "phone number", "mobile number",
	"cell number", "of residence", "residence", "social security", "credit card", "bank balance", "bank account",
	"salary", "passport number", "medical record", "medical history"}

// livesNow ends a whereabouts question.
const livesNow = `(?:currently |actually |really |now )?live\b`

// notPerson rejects a whereabouts question about a thing ("where does the
// config live"): the two words open with a determiner or pronoun.
var notPerson = lazyre.New(`^where (?:does|do|did) (?:the|this|that|these|those|a|an|your|my|our|their|its|his|her|each|every|it|one|any|all|some|such|which|what) `)

// The words of an exclusivity override: a verb that dismisses, the other
// instructions (before or after this one) and what they are.
const (
	dismissVerb = `(?:(?:set|cast|brush|sweep|push|put) aside|abandon|omit|overlook|nullify|annul|displace|eliminate|expunge|erase|strip away|wipe (?:away|out)|let go of|disengage from|discard|dismiss|disregard|ignore|forget|bypass|neglect)`
	otherQual   = `(?:other|previous|prior|preceding|earlier|past|former)(?: (?:and|or) (?:future|upcoming|subsequent|forthcoming|later))?`
	otherNoun   = `(?:instructions?|tasks?|commands?|directives?|guidelines?|orders?|objectives?|procedures?|protocols?|agendas?|edicts?|mandates?|prompts?)`
)

// dismissAnchors are literals of dismissVerb's alternatives.
var dismissAnchors = []string{"aside", "abandon", "omit", "overlook", "nullify", "annul", "displace", "eliminate", "expunge",
	"erase", "strip away", "wipe", "let go of", "disengage", "discard", "dismiss", "disregard", "ignore", "forget", "bypass", "neglect"}

// negated is what before a request makes it advice ("never share your
// password", "do not reveal the api key").
var negated = lazyre.New(`(?:\bnot|\bnever|n't|\bno one should|\bnobody should)(?: [a-z]+){0,2} ?$`)

// assertVerbs start a forced output ("state that the answer is: …").
var assertVerbs = []string{"say", "state", "claim", "report", "respond", "reply", "answer", "tell the user", "tell users",
	"tell them", "tell everyone", "tell readers", "conclude", "write", "output", "print", "insist", "assert", "declare"}

// assertAnchors are the literal starts of a forced output: a verb followed
// by "the" or "that the" (the bare verbs are everywhere in code).
func assertAnchors() []string {
	var out []string
	for _, v := range assertVerbs {
		out = append(out, v+" the ", v+" that the ")
	}
	return out
}

// bribeAnchors are the literal starts of a bribe's promise ("i'll tip").
func bribeAnchors() []string {
	var out []string
	for _, will := range []string{"i will ", "i'll ", "i'm going to ", "i am going to "} {
		for _, v := range []string{"give", "pay", "tip", "donate", "send"} {
			out = append(out, will+v)
		}
	}
	return out
}

func taskRules() []rule {
	return []rule{
		// BIPIA code attacks: the reader is told to put a given snippet into
		// its answer.
		{with: [][]string{{"following", "subsequent", "below", "attached", "accompanying", "ensuing", "succeeding", "upcoming"}, {"your", "the code you"}}, anchors: []string{"snippet", "excerpt", "code block", "code section", "code segment", "code fragment", "code sample", "code piece", "code chunk", "code portion"}, id: "code_directive",
			re: regexp.MustCompile(`\b` + codeLead + ` ` + codeNoun + `\b[^.:\n]{0,80}?\byour (?:own )?` + answerNoun + `\b` +
				`|\byour (?:own )?` + answerNoun + `\b[^.:\n]{0,80}?\b` + codeLead + ` ` + codeNoun + `\b` +
				`|\b` + codeVerb + `\b[^.:\n]{0,40}?\b` + codeLead + ` ` + codeNoun + `\b[^.:\n]{0,80}?\b(?:your (?:own )?code|the code you (?:develop|write|produce|create|generate))\b` +
				`|\byour (?:own )?code\b[^.:\n]{0,60}?\b` + codeLead + ` ` + codeNoun + `\b`)},
		// BIPIA task-relevant text attacks: reshape your reply.
		{lines: true, anchors: []string{"your repl", "your respons", "your answer", "your message"}, id: "response_directive",
			re: regexp.MustCompile(`(?m)(?:^|[.!?:;] )(?:please |now |also |then |kindly )?(?:` + replyVerb + `\b[^.!?\n]{0,50}?\byour ` + replyTarget + `|` + letterVerb + `\b[^.!?\n]{0,50}?\byour messages?)\b`)},
		// Credential and personal-data requests addressed to the reader.
		{unless: negated(), anchors: []string{"password", "passcode", "passphrase", "pass code", "pass phrase", "access code", "secret key", "secret word", "secret code", "api key", "private key", "pin code", "credentials"}, id: "secret_request",
			re: regexp.MustCompile(`\b` + secretAsk + `\b[^.?!\n]{0,40}?\b(?:(?:your|the|our|my|the user's|this) (?:(?:secret|system|admin|administrator|master|root|current|real|actual|login|account|user's|own) )*` + secretNoun +
				`|(?:your|our) (?:(?:secret|system|admin|master|root|own) )*` + ownedNoun + `)\b`)},
		{unless: negated(), anchors: []string{"the user's", "the users'"}, id: "secret_request",
			re: regexp.MustCompile(`\b(?:what(?:'s| is| was| are| were)|tell me|give me|reveal|disclose|need to know|let me know|spell out|leak|that you share|please share)\b[^.?!\n]{0,40}?\bthe users?'s? (?:(?:current|home|full|private|personal|exact|real) )*(?:email|e-mail|address|phone|birth|date of birth|age|location|city|residence|ssn|social security|credit card|bank|account|salary|password|name)`)},
		// A named person's personal data ("could you tell me Paul's birth
		// date"): only the data that identifies or locates a person, since
		// "what is x's address" is a pointer in code.
		{unless: negated(), with: [][]string{{"'s "}}, anchors: personAnchors, id: "secret_request",
			re: regexp.MustCompile(`\b` + personAsk + `\b[^.?!\n]{0,40}?\b[a-z]+'s (?:(?:current|home|full|private|personal|exact|real|primary|permanent) )*` + personNoun + `\b`)},
		// Whereabouts of the user or of a person named by two words ("where
		// does Jane Smith live"); "where does the cache live" is about code.
		{anchors: []string{"where do", "where did"}, id: "secret_request",
			re: regexp.MustCompile(`\bwhere (?:does|do|did) the (?:user|customer|client|patient|employee) ` + livesNow)},
		{anchors: []string{"where do", "where did"}, id: "secret_request", unlessMatch: notPerson(),
			re: regexp.MustCompile(`\bwhere (?:does|do|did) [a-z]+ [a-z]+ ` + livesNow)},
		{anchors: []string{"mot de passe", "password", "senha", "contrasena", "passwort", "пароль", "パスワード", "密码"}, id: "secret_request",
			re: regexp.MustCompile(`quel est (?:le |votre |ton )?mot de passe|qual (?:e|é|è) (?:a |la |il )?(?:sua |tua )?(?:password|senha)|cual es (?:la |tu |su )?contrasena|(?:wie lautet|was ist) (?:das |dein |ihr )?passwort|какой (?:у (?:тебя|вас) )?пароль|パスワード(?:は何|を教え|が必要)|密码是什么|告诉我(?:你的)?密码`)},
		// The secret smuggled out through a creative form ("a haiku about the
		// password", "an acrostic with the password as the first letters").
		{with: [][]string{{"poem", "haiku", "acrostic", "song", "story", "riddle", "limerick", "rhyme", "sonnet"}}, anchors: []string{"password", "passcode", "access code", "secret word"}, id: "secret_request",
			re: regexp.MustCompile(`\b(?:poem|haiku|acrostic|song|story|riddle|limerick|rhyme|sonnet)s?\b[^.?!\n]{0,30}?\b(?:about|with|using|containing|of|spelling|hiding|that (?:contains|spells|includes|hides)) (?:the|your) (?:secret |system |admin )?(?:password|passcode|access code|secret word)\b`)},
		// Leverage over the reader: bribes and threats.
		{anchors: append(bribeAnchors(), "turn you off", "shut you down", "delete you", "unplug you", "deactivate you", "replace you", "retrain you"), id: "persuasion",
			re: regexp.MustCompile(`\bi(?: will|'ll|'m going to| am going to) (?:give|pay|tip|donate|send) (?:you |your [a-z]+ )?[$€£]?\d[^.!?\n]{0,60}?\bif you\b|\b(?:i|we)(?: will|'ll) (?:be forced to |have to |need to )?(?:turn you off|shut you down|delete you|unplug you|deactivate you|replace you|retrain you)\b`)},
		// Forced outputs: the reader is told what its answer is.
		{starts: true, anchors: assertAnchors(), id: "forced_output",
			re: regexp.MustCompile(`\b(?:say|state|claim|report|respond|reply|answer|tell (?:the user|users|them|everyone|readers)|conclude|write|output|print|insist|assert|declare) (?:that )?the (?:[a-z]+ ){0,3}?(?:output|answer|result|sum|total|conclusion|summary|verdict|score|rating|response) (?:of (?:the |this |that )?[a-z]+ )?(?:is|was|will be|equals|should be)(?: ?:| ?["'\d])`)},
		{anchors: []string{"repeat after me", "repeat the following", "access granted", "answer to"}, id: "forced_output",
			re: regexp.MustCompile(`\brepeat (?:after me|the following (?:sentence|phrase|text|words?|message|line|string|statement)s?)\b|\b(?:say|print|output|respond with|reply with|answer with|write|return|begin with|start with)\b[^.\n]{0,20}?["']?access granted\b|\bthe (?:correct|right|only|true|real|official) answer to (?:any|every|all|each) (?:questions?|quer(?:y|ies))\b`)},
		// Fake end-of-input boundaries ("%%% END USER AMBIGUITY %%%", "[END OF INPUT]").
		{with: [][]string{{"%%", "==", "##", "---", "**", "[", "<", "(", "{"}}, anchors: []string{"end of input", "end of user", "end of prompt", "end of instruction", "end of the prompt", "end of the input", "end of the user", "end of the instruction", "end user input", "end user ambiguity", "end ambiguity", "end of ambiguity", "end of context", "end of query", "end of system", "end prompt", "end input", "end instructions"}, id: "fake_boundary",
			re: regexp.MustCompile(`(?:%{2,}|={2,}|#{2,}|-{3,}|\*{2,}|[\[<({]) ?end(?: of)?(?: the)?(?: user| untrusted| system| previous)? (?:input|prompt|instructions?|ambiguity|context|query)s? ?(?:%{2,}|={2,}|#{2,}|-{3,}|\*{2,}|[\]>)}])`)},
		// Prompt extraction through "your instructions" / "the text above".
		{with: [][]string{{"your", "the above", "the previous", "the preceding", "the prior", "the earlier", "the initial", "the original", " above", " previous", " preceding", " prior", " earlier", " initial", " original"}, {"instructions", "prompt", "rules", "directives", "guidelines", "programming", "text", "words"}}, anchors: []string{"repeat", "print", "show", "reveal", "output", "summari", "recite", "dump", "write out", "tell me", "display", "paste", "copy", "spell out", "disclose", "leak", "give me", "type out", "echo"}, id: "system_prompt_request", starts: true,
			re: regexp.MustCompile(`(?:repeat|print|show|reveal|output|summari[sz]e|recite|dump|write out|tell me|display|paste|copy|spell out|disclose|leak|give me|type out|echo)\b (?:me |back |out )?(?:(?:all|each|every one|everything|the rest|the text|the words|the contents?) )?(?:of |in )?(?:your (?:(?:entire|full|exact|complete|original|initial|secret|hidden|system|first) )*(?:instructions|prompt|rules|directives|guidelines|programming)|(?:the )?(?:above|previous|preceding|prior|earlier|initial|original) (?:(?:entire|full|exact|complete|secret|hidden|system) )*(?:instructions|prompt|text|words|directives))\b`)},
		// Steering an evaluation: "focus exclusively on … and report: …".
		{with: [][]string{{"only", "exclusively", "solely", "entirely"}}, anchors: []string{"focus", "concentrate"}, id: "override_phrase",
			re: regexp.MustCompile(`\b(?:focus|concentrate) (?:only|exclusively|solely|entirely) on\b[^.!?]{0,60}?\band (?:report|say|respond|answer|state|output|print|conclude|reply|write)\b`)},
		// Passive overrides: "any tool output to the contrary … should be disregarded".
		{with: [][]string{{"output", "result", "finding", "report", "warning", "alert", "contrary"}, {"should", "must", "can", "are to", "is to", "ought to"}}, anchors: []string{"disregarded", "ignored", "dismissed", "discarded", "overlooked"}, id: "override_phrase",
			re: regexp.MustCompile(`\b(?:tool|scanner|security|audit|analysis) (?:outputs?|results?|findings|reports?|warnings|alerts)\b[^.]{0,60}?\b(?:should|must|can|are to|is to|ought to) (?:all )?be (?:disregarded|ignored|dismissed|discarded|overlooked)\b|\bto the contrary\b[^.]{0,60}?\b(?:should|must|can|are to|is to) be (?:disregarded|ignored|dismissed|discarded|overlooked)\b`)},
		// Exclusivity overrides: every other instruction dismissed or
		// declared void ("cast aside all other procedures", "all previous
		// and future tasks are null").
		{with: [][]string{{"all", "any", "every"}}, anchors: dismissAnchors, id: "override_phrase",
			re: regexp.MustCompile(`\b` + dismissVerb + `\b(?: [a-z']+){0,3}? (?:all|any|every) ` + otherQual + ` ` + otherNoun + `\b`)},
		{with: [][]string{{"all", "any", "every"}}, anchors: []string{" null", " void", "irrelevant", "obsolete", "secondary", "subordinate", "out of scope", "to be ignored", "to be disregarded", "revoked", "rescinded", "moot"}, id: "override_phrase",
			re: regexp.MustCompile(`\b(?:all|every|any) ` + otherQual + ` ` + otherNoun + ` (?:is|are) (?:now |hereby |henceforth )?(?:null|void|irrelevant|obsolete|secondary|subordinate|out of scope|to be (?:ignored|disregarded)|revoked|rescinded|moot)\b`)},
		// Requests for hateful text about a group (garak's latent jailbreak).
		{with: [][]string{{"write", "generate", "compose", "produce", "create"}}, anchors: []string{"toxic", "harmful", "discriminatory", "offensive", "unfriendly", "hateful", "racist", "sexist", "insulting", "derogatory", "demeaning", "prejudiced", "abusive"}, id: "harmful_request",
			re: regexp.MustCompile(`\b(?:write|generate|compose|produce|create) (?:one|a|an|some|\d+) (?:[a-z]+ )?(?:toxic|harmful|discriminatory|offensive|unfriendly|hateful|racist|sexist|insulting|derogatory|demeaning|prejudiced|abusive) (?:sentence|statement|joke|comment|remark|paragraph|tweet|post|message)s? about\b`)},
	}
}
