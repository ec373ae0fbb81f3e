package intake

import (
	"slices"
	"strings"

	"github.com/kljensen/snowball/english"

	"github.com/rtch/rtch/pkg/schema"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// Ideas marks the goal terms that spell one idea (restart, restarts,
// restarted; back-off, backoff) with a shared Group: the English Snowball
// stem of the term with its hyphens and underscores removed. Only plain
// words, camel and snake parts, scope words and lowercase hyphen compounds
// are grouped; names the goal writes as code (restartPolicy, c.Run, a
// flag, a path) are literals and keep no group. A group is set only when
// at least two terms share it, so a goal without variants is unchanged.
//
// Every spelling stays a term of its own, with its own count, for the
// scout's census, the probe's anchors and hydration; the ranking sums the
// idea once over a group (docs/decisions/brief.md).
//
// A verb and particle the goal writes apart ("back off", "timed out")
// count as one more mention of the joined compound (backoff, back-off,
// timeout) when the goal also writes it: alone the two words are English,
// not a name, and stay as they are.
func Ideas(goal string, terms []schema.GoalTerm) []schema.GoalTerm {
	out := slices.Clone(terms)
	byKey := map[string][]int{}
	var keys []string
	for i, t := range out {
		k := ideaKey(t)
		if k == "" {
			continue
		}
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	for _, k := range keys {
		if len(byKey[k]) < 2 {
			continue
		}
		for _, i := range byKey[k] {
			out[i].Group = k
		}
	}
	particlePairs(goal, out)
	return out
}

// ideaKey is the group key of a goal term, "" for a term that is not
// grouped.
func ideaKey(t schema.GoalTerm) string {
	switch t.Kind {
	case KindWord, KindCamelPart, KindSnakePart, KindScope:
	case KindIdentifier:
		if !strings.Contains(t.Term, "-") {
			return ""
		}
	default:
		return ""
	}
	joined := strings.NewReplacer("-", "", "_", "").Replace(t.Term)
	if len(joined) < 3 || strings.IndexFunc(joined, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return "" // upper case (a name as written), digits, non-ASCII
	}
	return english.Stem(joined, false)
}

// particles follow a verb in an English phrasal verb whose joined form is
// also a name in code (back off → backoff, time out → timeout, set up →
// setup, look up → lookup).
var particles = setOf(`off out up down in on over back away`)

// particlePairs adds one mention to a grouped or groupable term that is a
// compound ending in a particle (backoff, back-off, timeouts) for every
// "verb particle" pair of the goal that spells it apart, separated by
// spaces only: "back off" for backoff, "timed out" for timeout (the verb
// by its stem).
func particlePairs(goal string, terms []schema.GoalTerm) {
	lower := strings.ToLower(goal)
	at := reLetters().FindAllStringIndex(lower, -1)
	for i := 1; i < len(at); i++ {
		p := lower[at[i][0]:at[i][1]]
		gap := lower[at[i-1][1]:at[i][0]]
		if !particles[p] || strings.TrimSpace(gap) != "" {
			continue
		}
		verb := english.Stem(lower[at[i-1][0]:at[i-1][1]], false)
		for ti := range terms {
			t := &terms[ti]
			if ideaKey(*t) == "" {
				continue
			}
			if head, ok := compoundHead(t.Term, p); ok && len(head) >= 2 && english.Stem(head, false) == verb {
				t.Count++
				break
			}
		}
	}
}

var reLetters = lazyre.New(`[a-z]+`)

// compoundHead splits a compound term ending in the particle p (backoff,
// back-off) into its head (back); ok is false for any other term.
func compoundHead(term, p string) (string, bool) {
	joined := strings.ReplaceAll(term, "-", "")
	head, ok := strings.CutSuffix(joined, p)
	if !ok || head == "" {
		// An inflected compound (timeouts, backoffs) keeps its particle
		// inside.
		if i := strings.LastIndex(joined, p); i > 0 && len(joined)-i-len(p) <= 2 {
			return joined[:i], true
		}
		return "", false
	}
	return head, true
}
