// Package pathenc is the toolkit's one spelling of a file name in JSON, in
// re-entry commands and in diagnostics: a name is bytes, JSON strings are
// UTF-8, and encoding/json would turn every byte that is not UTF-8 into
// U+FFFD, so that x_\xff.md and x_\xfe.md would share one path and neither
// could be reopened. Encode writes each such byte as ¤xHH and a literal ¤ as
// ¤¤, the escapes guild-recall's wrapper and the md brief already use for
// text (pkg/protect), and writes ¤- inside every spelling of guild-recall's
// delimiter tag name, as the wrapper does in chunk text, so a file name
// cannot open or close a recall block in any record, reply or brief; every
// other name, valid UTF-8 without a ¤ or a tag spelling, is its own
// encoding. Decode inverts Encode exactly. Tools encode a name when it
// enters a record (the walk) and decode it where they open the file.
package pathenc

import (
	"strings"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/protect"
)

const esc = "¤"

const hexDigits = "0123456789ABCDEF"

// Encode returns name with every byte that is not part of valid UTF-8 as
// ¤xHH (upper-case hex), every ¤ as ¤¤, and ¤- inside every spelling of the
// recall tag's name (protect.NameBreaks).
func Encode(name string) string {
	breaks := tagBreaks(name)
	if breaks == nil && utf8.ValidString(name) && !strings.Contains(name, esc) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name) + 8)
	for i := 0; i < len(name); {
		if len(breaks) > 0 && breaks[0] == i {
			b.WriteString(esc + "-")
			breaks = breaks[1:]
		}
		r, n := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(esc + "x")
			b.WriteByte(hexDigits[name[i]>>4])
			b.WriteByte(hexDigits[name[i]&15])
		case r == '¤':
			b.WriteString(esc + esc)
		default:
			b.WriteString(name[i : i+n])
		}
		i += n
	}
	return b.String()
}

// tagBreaks is protect.NameBreaks(name), skipped for the names that cannot
// spell the tag name: plain ASCII (no control byte, no entity, percent or
// backslash escape) without "guild" or its reversal in any case. One pass
// over the bytes: every walked name comes here.
func tagBreaks(name string) []int {
	spelt := false
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c < 0x20 || c >= 0x7f || c == '&' || c == '%' || c == '\\':
			return protect.NameBreaks(name)
		case c|0x20 == 'g':
			spelt = spelt || foldAt(name, i, "guild")
		case c|0x20 == 'd':
			spelt = spelt || foldAt(name, i, "dliug")
		}
	}
	if !spelt {
		return nil
	}
	return protect.NameBreaks(name)
}

// foldAt reports whether s holds the lower-case ASCII word w at i, in any
// case.
func foldAt(s string, i int, w string) bool {
	return i+len(w) <= len(s) && strings.EqualFold(s[i:i+len(w)], w)
}

// Decode returns the name an encoded path spells: ¤xHH is the byte HH, ¤¤ a
// ¤, ¤- nothing. A ¤ that starts neither (a name typed by hand) is kept as it is, so a
// raw name with a lone ¤ still reaches its file. Only bytes from 0x80 up are
// decoded, the only ones Encode escapes: ¤x2F stays as written and can
// never become a '/', nor ¤x2E a '.', behind a check made on the encoded
// path.
func Decode(s string) string {
	if !strings.Contains(s, esc) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if !strings.HasPrefix(s[i:], esc) {
			b.WriteByte(s[i])
			i++
			continue
		}
		rest := s[i+len(esc):]
		switch {
		case strings.HasPrefix(rest, esc):
			b.WriteString(esc)
			i += 2 * len(esc)
		case strings.HasPrefix(rest, "-"):
			i += len(esc) + 1
		case len(rest) >= 3 && rest[0] == 'x' && isHex(rest[1]) && isHex(rest[2]) && hexVal(rest[1]) >= 8:
			b.WriteByte(hexVal(rest[1])<<4 | hexVal(rest[2]))
			i += len(esc) + 3
		default:
			b.WriteString(esc)
			i += len(esc)
		}
	}
	return b.String()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f' }

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
