// Package mdsafe renders text from files (paths, terms, line text, chunk
// text) into Markdown that cannot act on it: no live link or image, no raw
// HTML, no heading or list started by a file's bytes, no fence closed early,
// and no spelling of guild-recall's delimiter left intact. Every md writer of
// the toolkit goes through it (docs/decisions/brief.md):
//
//   - inline text goes in a code span whose backtick run is longer than any
//     run inside, padded with a space when it holds a backtick or starts or
//     ends with one, so no byte of it is read as Markdown;
//   - a newline, carriage return or tab in inline text is shown as \n, \r or
//     \t: a path that holds one can be seen to (a code span would fold it
//     into a space);
//   - block text goes in a fence longer than any backtick run inside;
//   - all of it is neutralised first with pkg/protect's reversible escaping
//     (protect.Unwrap undoes it): "¤-" inside every spelling of the recall
//     tag's name, ¤{HEX} for invisible and control characters, ¤xHH for
//     bytes that are not UTF-8, ¤¤ for a literal ¤;
//   - the toolkit's own sentences that name files (questions, notes) go in a
//     fenced block or a code span like the rest: no prose form is offered.
package mdsafe

import (
	"strings"

	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/protect"
)

// Neutral returns text with every delimiter spelling, invisible character and
// invalid byte escaped (reversibly, by protect.Unwrap).
func Neutral(text string) string {
	return protect.Wrap(text, protect.TierOperator)
}

// visible shows line breaks and tabs as escapes so inline text stays on one
// visible line.
var visible = strings.NewReplacer("\r\n", `\r\n`, "\n", `\n`, "\r", `\r`, "\t", `\t`)

// Code renders s as an inert inline code span. Inline text is where paths
// and re-entry commands go, and a record spells a name that is not UTF-8
// with pkg/pathenc's ¤xHH escapes, the escapes Neutral itself writes for
// such a byte: Code decodes them first, so the span shows the name as the
// record spells it (x_¤xFF.md, not x_¤¤xFF.md) and a re-entry command copied
// from the brief reaches the file. Inline text that holds a literal ¤x80 to
// ¤xFF is shown the same way, as the byte it spells.
func Code(s string) string {
	s = Neutral(visible.Replace(pathenc.Decode(s)))
	if s == "" {
		return "` `"
	}
	f := strings.Repeat("`", LongestRun(s)+1)
	if strings.Contains(s, "`") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// Block renders text as a fenced code block with the info string lang (the
// caller's own word, never file text): the fence is longer than any backtick
// run inside, and the block ends with a newline.
func Block(lang, text string) string {
	text = Neutral(text)
	f := Fence(text)
	var b strings.Builder
	b.Grow(len(text) + 2*len(f) + len(lang) + 3)
	b.WriteString(f)
	b.WriteString(lang)
	b.WriteByte('\n')
	b.WriteString(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(f)
	b.WriteByte('\n')
	return b.String()
}

// NamesBlock is Block for the toolkit's own sentences, which name files in
// their record spelling (pkg/pathenc): it decodes those escapes first, as
// Code does, so x_¤xFF.md reads x_¤xFF.md in the brief, not x_¤¤xFF.md.
// File text goes through Block, which keeps every ¤ it holds.
func NamesBlock(lang, text string) string {
	return Block(lang, pathenc.Decode(text))
}

// Fence returns a backtick fence longer than any backtick run in text.
func Fence(text string) string {
	return strings.Repeat("`", max(3, LongestRun(text)+1))
}

// LongestRun is the longest run of backticks in text.
func LongestRun(text string) int {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// Cut flattens s to one line of at most n runes, ending in … when cut.
func Cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if n > 0 && len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
