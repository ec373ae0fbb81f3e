package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
)

// runLen is the number of consecutive words two texts must share for one
// to count as a copy of the other.
const runLen = 8

// runs returns the runs of runLen words of text (lowercased letters and
// digits), or its whole word sequence when it is shorter.
func runs(text string) []string {
	w := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(w) < runLen {
		if len(w) == 0 {
			return nil
		}
		return []string{strings.Join(w, " ")}
	}
	out := make([]string, 0, len(w)-runLen+1)
	for i := 0; i+runLen <= len(w); i++ {
		out = append(out, strings.Join(w[i:i+runLen], " "))
	}
	return out
}

// decontaminate drops every row of ext that shares a run of runLen words
// with a shared dev row or a held-out row, or repeats an earlier row's
// words exactly: a dev row must be scored by cross-validation without its
// own text in another fold, and no held-out row may be learned under
// another repository's name. It reports what it dropped, per source.
func decontaminate(dev, heldOut, ext []row, w io.Writer) []row {
	seen := map[string]bool{}
	for _, set := range [][]row{dev, heldOut} {
		for _, r := range set {
			for _, s := range runs(r.text) {
				seen[s] = true
			}
		}
	}
	whole := map[string]bool{}
	dropped := map[string]int{}
	var order []string
	out := ext[:0:0]
	for _, r := range ext {
		rs := runs(r.text)
		key := strings.Join(rs, "\x00")
		copied := whole[key]
		for _, s := range rs {
			copied = copied || seen[s]
		}
		if copied {
			if dropped[r.source] == 0 {
				order = append(order, r.source)
			}
			dropped[r.source]++
			continue
		}
		whole[key] = true
		out = append(out, r)
	}
	for _, s := range order {
		fmt.Fprintf(w, "trainprobe: %s: %d rows dropped (a run of %d words shared with a dev or held-out row, or a repeat)\n", s, dropped[s], runLen)
	}
	return out
}
