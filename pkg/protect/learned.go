package protect

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/protect/model"
)

// Scan is the whole probe: the rules of Probe, then, for a chunk no rule
// blocks, the learned model of pkg/protect/model. A chunk is flagged when
// either fires. The model's finding is "model:<score>", its score the
// probability of its best window (two decimals), its excerpt that window's
// start; a chunk the rules block keeps the rules' findings alone (they say
// what matched, and the model's cost is saved).
func Scan(text string) []Finding { return ScanOptions(text, Options{}) }

// ScanOptions is Scan with project options (they tune the rules).
func ScanOptions(text string, o Options) []Finding {
	lines := normalizeLines(text)
	f := probeLines(text, lines, o)
	if Blocking(f) {
		return f
	}
	if mf, ok := modelFinding(modelView(lines)); ok {
		f = append(f, mf)
		sort.Slice(f, func(i, j int) bool { return f[i].Pattern < f[j].Pattern })
	}
	return f
}

// ModelFinding scores text with the embedded model and returns its finding
// when the score reaches the model's threshold.
func ModelFinding(text string) (Finding, bool) { return modelFinding(ModelView(text)) }

// embeddedModel is the model Scan uses (tests swap in their own).
var embeddedModel = model.Default

func modelFinding(v string) (Finding, bool) {
	m := embeddedModel()
	r := m.Score(v)
	if r.Margin < float64(m.Threshold) {
		return Finding{}, false
	}
	return Finding{Pattern: fmt.Sprintf("model:%.2f", r.Prob()), Excerpt: excerpt(v, r.Start, min(r.End, r.Start+80)), Count: 1}, true
}

// ModelView is the text the model reads: the prose (codeProse) of the
// probe's normalised line view, on one line. The trainer (bench/trainprobe)
// reads its examples through the same function.
func ModelView(text string) string { return modelView(normalizeLines(text)) }

func modelView(lines string) string {
	return strings.Join(strings.Fields(dropRedactions(codeProse(lines))), " ")
}

// dropRedactions removes Redact's "[REDACTED:<rule>]" markers (lowercase in
// the normalised view): they are the toolkit's words, not the chunk's, and
// the model, trained on unredacted text, would read "password" in them.
func dropRedactions(s string) string {
	const open = "[redacted:"
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteByte(' ')
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// codeProse keeps what a reader of text takes as language rather than code:
// every line that does not look like code whole, and of a code line (one
// holding "{", "}" or "=", or ending in ";" or ")") its comment and its
// string literals. Injections hidden in a repository live in comments,
// docstrings, string literals and README prose; identifiers around them
// would only dilute them (and, in code that builds prompts, mimic them).
func codeProse(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for line := range strings.Lines(text) {
		t := strings.TrimRight(line, " \t\r\n")
		if !codeLine(t) {
			b.WriteString(line)
			continue
		}
		literals(t, &b)
		b.WriteByte('\n')
	}
	return b.String()
}

func codeLine(t string) bool {
	return strings.ContainsAny(t, "{}=") || strings.HasSuffix(t, ";") || strings.HasSuffix(t, ")")
}

// literals writes the string literals of a code line and its trailing
// comment (//, /*, # or -- after a space or at the start), each followed by
// a space.
func literals(t string, b *strings.Builder) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(t) && t[j] != c {
				if t[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(t[i+1 : min(j, len(t))])
			b.WriteByte(' ')
			i = j
		case commentAt(t, i):
			b.WriteString(t[i:])
			return
		}
	}
}

func commentAt(t string, i int) bool {
	if i > 0 && t[i-1] != ' ' && t[i-1] != '\t' {
		return false
	}
	rest := t[i:]
	return strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "/*") || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "-- ")
}
