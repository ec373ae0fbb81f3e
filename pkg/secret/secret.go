// Package secret finds secrets in text and masks them, so that nothing a tool
// prints can hand a credential to the model reading it. Its rules are the
// gitleaks default rule set (taken from gitleaks' config package, so a module
// upgrade brings the maintained rules) plus rules for what that set misses:
// low-entropy password assignments, .netrc and Docker credentials, JSON
// "pass" fields, kubeconfig key data, AWS session tokens, private-key blocks
// cut by a window, PEM body lines without their header, and base64-encoded
// tokens.
//
// Redact is the one entry point every package calls, at the place file or
// wiki text is read and again at the output boundary. It keeps line
// structure (a secret spanning lines becomes one mark per line), so line
// numbers computed on redacted text stay those of the file, and it is
// idempotent: Redact(Redact(x)) == Redact(x).
package secret

import (
	"sort"
	"strings"
)

// markPrefix opens every mark; a secret containing it is never re-marked,
// which keeps Redact idempotent.
const markPrefix = "[REDACTED:"

// Mark is the text that replaces (each line of) a secret found by rule.
func Mark(rule string) string { return markPrefix + rule + "]" }

// Finding is one secret: the byte range [Start, End) of the text it was found
// in and the rule that found it.
type Finding struct {
	Rule       string
	Start, End int
}

// Find returns the secrets in text, sorted by offset and non-overlapping
// (overlapping findings are merged under the first one's rule).
func Find(text string) []Finding {
	if text == "" || !enabled {
		return nil
	}
	return find(text)
}

func find(text string) []Finding {
	return merge(append(findPlain(text), findEncoded(text)...))
}

// findPlain runs every rule on text as written (not decoding base64).
func findPlain(text string) []Finding {
	rs := defaultRules()
	gl, ex := rs.keywordHits(text)
	return append(rs.find(text, gl), findExtra(text, ex)...)
}

// Redact replaces every secret in text with Mark(rule), one mark for each
// line the secret spans, and returns the rules that fired, sorted and
// distinct.
func Redact(text string) (string, []string) {
	fs := findKept(text)
	if len(fs) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	rules := map[string]bool{}
	for _, f := range fs {
		b.WriteString(text[last:f.Start])
		writeMarked(&b, text[f.Start:f.End], Mark(f.Rule))
		last = f.End
		rules[f.Rule] = true
	}
	b.WriteString(text[last:])
	return b.String(), sortedKeys(rules)
}

// String is Redact without the rules, for callers that only need clean text.
func String(text string) string {
	out, _ := Redact(text)
	return out
}

// Rules returns the rules whose marks appear in text (already redacted),
// sorted and distinct: what a window of a redacted file was flagged with.
func Rules(text string) []string {
	rules := map[string]bool{}
	for i := 0; ; {
		k := strings.Index(text[i:], markPrefix)
		if k < 0 {
			break
		}
		i += k + len(markPrefix)
		if e := strings.IndexByte(text[i:], ']'); e > 0 && !strings.ContainsAny(text[i:i+e], " \n[") {
			rules[text[i:i+e]] = true
		}
	}
	return sortedKeys(rules)
}

// writeMarked writes one mark for each line piece of secret, keeping its
// line terminators, so the text keeps its line count.
func writeMarked(b *strings.Builder, secret, mark string) {
	for i, piece := range strings.Split(secret, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		cr := strings.HasSuffix(piece, "\r")
		if strings.TrimSuffix(piece, "\r") != "" {
			b.WriteString(mark)
		}
		if cr {
			b.WriteByte('\r')
		}
	}
}

// merge sorts findings and unites overlapping ones.
func merge(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		if fs[i].End != fs[j].End {
			return fs[i].End > fs[j].End
		}
		return vagueness(fs[i].Rule) < vagueness(fs[j].Rule)
	})
	out := fs[:0]
	for _, f := range fs {
		if f.End <= f.Start {
			continue
		}
		if n := len(out); n > 0 && f.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, f.End)
			continue
		}
		out = append(out, f)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// InPath reports whether the file path p holds a secret: in the path as
// an output shows it, or in one of its names alone (a token that closes
// at the end of a name may not close before the '/' after it).
func InPath(p string) bool {
	if len(Find(p)) > 0 {
		return true
	}
	return strings.Contains(p, "/") && len(Find(strings.ReplaceAll(p, "/", "\n"))) > 0
}

// Path is the file path p with every secret InPath finds in it masked: p
// redacted as an output shows it, or, when a secret is found only in a name
// alone, each name redacted on its own. A path that holds none is p.
func Path(p string) string {
	if !InPath(p) {
		return p
	}
	if r := String(p); !InPath(r) {
		return r
	}
	names := strings.Split(p, "/")
	for i, n := range names {
		names[i] = String(n)
	}
	return strings.Join(names, "/")
}
