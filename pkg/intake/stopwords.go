package intake

import "strings"

// englishStop are English function words and very common verbs that carry no
// retrieval signal on their own.
var englishStop = setOf(`
a about above after again against all almost along already also although always am among an and another any anybody anyone anything anyway anywhere are aren around as at
b be became because become been before being below beside besides between beyond both but by
c can cannot could couldn
d did didn do does doesn doing don done down during
e each eg either else elsewhere enough etc even ever every everything
f few for from further
g get gets getting got gotten
h had hadn has hasn have haven having he her here hers herself him himself his how however
i ie if in into is isn it its itself
j just
k
l least less let lets ll
m made make makes many may maybe me might mine more most much must my myself
n need needs neither never nevertheless no nobody none nor not nothing now
o of off often oh ok okay on once one only onto or other others otherwise our ours ourselves out over own
p per perhaps
q quite
r rather re really
s said same say says see seem seemed seems seen several shall she should shouldn since so some somebody someone something sometimes somewhat somewhere still such sure
t than that the their theirs them themselves then there therefore these they thing things this those though through thus to too toward towards
u under unless until up upon us
v ve very via vs
w was wasn way we well were weren what whatever when whenever where whereas wherever whether which while who whom whose why will with within without won would wouldn
x y yes yet you your yours yourself yourselves
z
`)

// boilerplateStop are words that appear in bug reports and commit messages
// whatever the bug is about: greetings, template headings and report verbs.
var boilerplateStop = setOf(`
actual actually added adding adds appreciate appreciated
behavior behaviour bug bugs
cheers correct correctly currently
describe described description details
example examples expect expected expecting
fix fixed fixes fixing following
happen happened happens hello hey hi
idea instead
like likely
minimal
note noticed
please possible probably problem problems
question
regards related reproduce reproduced reproducing reproduction reproducible
solution steps suggest
thank thanks think thought tried try trying
updated used uses using
version versions
want wanted wonder wondering work worked working works would
`)

// titleWords are verbs that are boilerplate in the body of a report ("I
// added", "we use") but may name the topic in its first line: "Remove race
// conditions from screen update" is about UpdateList and UpdateCount, "fix
// broken issue list test" about pkg/cmd/issue/list. They
// are stopwords outside the first line of a multi-line goal; whether a
// leading one only says what the change does is the basket's decision
// (basket.ChangeVerbs).
var titleWords = setOf(`add issue issues update use`)

// changeTypes are the leading words of a commit-style title that name the
// kind of change or a symptom rather than a place ("fix: …", "feat: …",
// "panic: …", numpy's "ENH: …", Go's "proposal: …"), so they are never its
// scope; before a parenthesis they are the type of a conventional commit
// ("fix(release): …").
var changeTypes = setOf(`bld breaking bug bugfix build chore ci dep deps doc docs enh enhancement error fatal feat feature fix fixes hotfix issue maint note panic perf proposal question refactor regression release revert rfc security style test tests todo tst typo update warning wip`)

// codeStop are keywords and ubiquitous names of common languages: inside code
// they are grammar, not topic.
var codeStop = setOf(`
and args as assert async auto await bool cd checkout clone conda echo git ls make mkdir npm pip pip3 python python3 rm sudo venv virtualenv yarn char constexpr define delete double endif enum extern ifdef ifndef include inline long namespace nullptr operator override private protected public short signed sizeof static_cast template typedef typename union unsigned using virtual volatile break byte case catch chan class cls const continue ctx def default defer del elif else err except export extends false final finally float fn for from func function go goto if impl import in int interface is kwargs lambda let loop match mut new nil none nonlocal not null or package pass pub raise range return rune self static str string struct super switch this throw true try type typeof undefined use var void while with yield
`)

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// isStop reports whether a lowercased plain word is a stopword; code says the
// word was read in code, where language keywords are stopwords too.
func isStop(lw string, code bool) bool {
	if englishStop[lw] || boilerplateStop[lw] {
		return true
	}
	return code && codeStop[lw]
}

// isKeyword reports whether a name, as written, is a language keyword or a
// ubiquitous name (self, err, None, true, …).
func isKeyword(tok string) bool {
	switch tok {
	case "None", "True", "False", "Self", "NULL", "TRUE", "FALSE", "Some", "Ok", "Err":
		return true
	}
	return codeStop[tok]
}

// knownExt are file extensions that make "name.ext" a file name rather than a
// dotted identifier.
var knownExt = setOf(`
7z bz2 dll egg exe gif gz jar jpeg jpg pdf png so svg tar tgz whl xz zip
bash bat c cc cfg cjs clj cmake conf cpp cs css csv cxx dart diff ex exs fish go gradle groovy h hh hpp html htm in ini ipynb java jl js json jsonl jsx kt kts less lock lua m md mjs mk ml mod nim patch php pl pm proto ps1 py pyi pyx r rb rs rst sass scala scss sh sql sum svelte swift tex tf toml ts tsx txt vue xml yaml yml zig zsh
`)

// tlds mark a dotted name as a host name outside a URL (example.com).
var tlds = setOf(`com org net edu gov`)
