package secret

import (
	mrand "math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
)

// sample writes a random string re matches, or gives up (false) on what
// it cannot satisfy by construction (a ^ or \b in the middle, say). With
// tokens it draws as tokens are written (sweep_test.go): a letter or a
// digit nine times in ten where a class has them, a blank only from a
// class of blanks, and optional parts mostly absent.
func sample(b *strings.Builder, re *syntax.Regexp, r *mrand.Rand, tokens bool) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && r.IntN(2) == 0 {
				c = unicode.SimpleFold(c)
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		if tokens {
			return writeTokenByte(b, re, r)
		}
		return classByte(b, re, r)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte('x')
	case syntax.OpCapture:
		return sample(b, re.Sub[0], r, tokens)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !sample(b, s, r, tokens) {
				return false
			}
		}
	case syntax.OpAlternate:
		return sample(b, re.Sub[r.IntN(len(re.Sub))], r, tokens)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 3
			}
		}
		n := lo + r.IntN(hi-lo+1)
		if tokens && (lo == 0 || len(alnumOf(re.Sub[0])) == 0) && r.IntN(4) > 0 {
			n = lo // what a pattern allows around a token: mostly nothing
		}
		for range n {
			if !sample(b, re.Sub[0], r, tokens) {
				return false
			}
		}
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpEndText, syntax.OpBeginText, syntax.OpEndLine, syntax.OpBeginLine:
		// the surrounding text decides; sampleTexts keeps only what matches
	default:
		return false
	}
	return true
}

// classByte writes a byte of the class re, ASCII where the class allows.
func classByte(b *strings.Builder, re *syntax.Regexp, r *mrand.Rand) bool {
	// pairs of ranges; keep to ASCII where the class allows, as text does
	var ascii [][2]rune
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], min(re.Rune[i+1], 0x7e)
		if lo <= hi && hi >= 0x20 {
			ascii = append(ascii, [2]rune{max(lo, 0x20), hi})
		}
	}
	if len(ascii) == 0 {
		return false
	}
	g := ascii[r.IntN(len(ascii))]
	b.WriteRune(g[0] + r.Int32N(g[1]-g[0]+1))
	return true
}

// writeTokenByte writes a byte of the class re as a token would hold it: a
// letter or a digit nine times in ten where the class has them, a blank
// only when the class has nothing else.
func writeTokenByte(b *strings.Builder, re *syntax.Regexp, r *mrand.Rand) bool {
	alnum := alnumOf(re)
	if len(alnum) > 0 && r.IntN(10) > 0 {
		b.WriteRune(alnum[r.IntN(len(alnum))])
		return true
	}
	for range 8 {
		var c strings.Builder
		if !classByte(&c, re, r) {
			return false
		}
		if len(alnum) == 0 || strings.TrimSpace(c.String()) != "" {
			b.WriteString(c.String())
			return true
		}
	}
	return false
}

// alnumOf is the ASCII letters and digits of the class re (none when re
// is no class).
func alnumOf(re *syntax.Regexp) []rune {
	var out []rune
	if re.Op != syntax.OpCharClass {
		return nil
	}
	for i := 0; i+1 < len(re.Rune); i += 2 {
		for c := re.Rune[i]; c <= re.Rune[i+1] && c < 0x80; c++ {
			if c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
				out = append(out, c)
			}
		}
	}
	return out
}

// filler is about n bytes of words.
func filler(r *mrand.Rand, n int) string {
	words := []string{"x", "value", "a.b", "c_d", "e-f", "Ünïcode", "naïve", "—", "κλειδί", "01", "\t"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		if r.IntN(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// rulePattern is a rule's id and pattern.
type rulePattern struct{ id, src string }

// rulePatterns are the patterns of every rule, gitleaks' and the extra
// ones.
func rulePatterns() []rulePattern {
	var out []rulePattern
	for _, ru := range defaultRules().rules {
		out = append(out, rulePattern{ru.src.ID, ru.src.Regex})
	}
	for _, ru := range extraRules {
		out = append(out, rulePattern{ru.id, ru.src})
	}
	return out
}

// sampleTexts are, for every rule with a prefilter (gitleaks' and the
// extra ones), lines its pattern matches (drawn from the pattern itself),
// inside a few lines of code, n draws a rule; rules are by id.
func sampleTexts(t *testing.T, n int) (texts []string, rules map[string]bool) {
	t.Helper()
	r := mrand.New(mrand.NewPCG(17, 17))
	rules = map[string]bool{}
	for _, p := range rulePatterns() {
		if prefilter(p.src) == nil {
			continue
		}
		rules[p.id] = true
		parsed, err := syntax.Parse(p.src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(p.src)
		for range n {
			var b strings.Builder
			if !sample(&b, parsed, r, false) {
				continue
			}
			// after up to 120 bytes of words on its line, some of them
			// not ASCII, sometimes joined to it
			line := filler(r, r.IntN(121)) + []string{"", " ", "."}[r.IntN(3)] + b.String()
			if !re.MatchString(line) {
				continue
			}
			texts = append(texts, "func f() {\n\tx := 1\n\t"+line+"\n\treturn\n}\n")
		}
	}
	return texts, rules
}

// TestPrefiltersKeepEveryFinding holds the prefilters to their claim:
// Find gives the same findings with and without them on lines drawn from
// each prefiltered rule's own pattern, and those lines do hold findings
// of most of those rules.
func TestPrefiltersKeepEveryFinding(t *testing.T) {
	defer func(n int64) { prefilterAfter = n }(prefilterAfter)
	prefilterAfter = 0 // compiled at once, for every rule the texts reach
	texts, rules := sampleTexts(t, 12)
	if len(rules) < 50 {
		t.Fatalf("only %d rules have a prefilter", len(rules))
	}
	fired := map[string]bool{}
	for _, fs := range findingsAlike(t, texts, &prefilterOff, "prefilters") {
		for _, f := range fs {
			fired[f.Rule] = true
		}
	}
	n := 0
	for id := range rules {
		if fired[id] {
			n++
		}
	}
	if n < len(rules)*3/4 {
		t.Fatalf("findings of only %d of the %d prefiltered rules in %d texts: the samples no longer hold secrets", n, len(rules), len(texts))
	}
	t.Logf("%d texts, findings of %d of %d prefiltered rules", len(texts), n, len(rules))
}

// TestPrefilterCompiledAfterScanning: a prefilter is compiled once, when
// its pattern has scanned prefilterAfter bytes, and answers from then on.
func TestPrefilterCompiledAfterScanning(t *testing.T) {
	compiled := 0
	l := newLazyPrefilter(func() string { compiled++; return `[\w.-]{0,50}?lob[ =]+x` })
	window := strings.Repeat("a", 1000)
	for scanned := int64(0); scanned+1000 < prefilterAfter; scanned += 1000 {
		if !l.mayMatch(window) || compiled != 0 {
			t.Fatalf("after %d bytes: compiled %d times, or a window was ruled out", scanned+1000, compiled)
		}
	}
	if l.mayMatch(window) || l.mayMatch(window) {
		t.Error("a window without \"lob\" may match once the prefilter is compiled")
	}
	if !l.mayMatch("the lob = x") || compiled != 1 {
		t.Errorf("compiled %d times, or a window with a match was ruled out", compiled)
	}
}
