package protect

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns the detection view of s: the text a model effectively
// reads, in one canonical spelling, so that one rule matches every disguise.
//
// In order, for each position of the raw text:
//   - HTML character references (&lt; &#60; &#x3c; &quot; …), percent escapes
//     of printable ASCII (%3C) and backslash escapes (\u003c, \x3c) are decoded,
//     because models read them as the characters they stand for;
//   - invalid UTF-8 becomes U+FFFD (never the character an overlong form spells);
//   - Unicode tag characters (U+E0020–E007E, "ASCII smuggling") are decoded to
//     the ASCII they shadow, so hidden text is scanned, not dropped;
//   - other invisible characters (format characters, default-ignorable code
//     points, bidi controls, zero-width characters, controls) are removed;
//   - compatibility forms are decomposed (NFKD: fullwidth, mathematical
//     alphanumerics, ligatures), Latin diacritics are dropped;
//   - the text is lowercased and look-alikes are folded to ASCII: small
//     capitals, dotless i, angle-bracket, slash, colon, dash, quote and bar
//     look-alikes always; Cyrillic, Greek, Armenian, Cherokee and Lisu homoglyphs inside a word
//     that mixes scripts, or everywhere when Latin letters dominate the text
//     (so genuine Russian or Greek prose keeps its own letters);
//   - runs of whitespace (including U+2028, U+2029, U+0085) become one space,
//     and the result is recomposed (NFC) and trimmed.
//
// The output is always valid UTF-8. The work is linear in len(s).
func Normalize(s string) string {
	v := buildView(s, false, false)
	return strings.TrimSpace(norm.NFC.String(v.text))
}

// normalizeLines is Normalize that keeps line structure: a whitespace run
// containing a line break becomes one "\n", other runs one space. Probe uses
// it for rules anchored at line starts (role labels, headings, fences).
func normalizeLines(s string) string {
	v := buildView(s, true, false)
	return norm.NFC.String(v.text)
}

// view is the folded text plus, when requested, the raw byte offset each byte
// of the folded text came from. Wrap uses the offsets to escape the raw text
// at the positions where the folded text spells the delimiter.
type view struct {
	text string
	off  []int32 // off[i] = raw offset of the raw unit that produced text[i]
}

// fr is one folded rune and the raw offset it came from.
type fr struct {
	r   rune
	off int32
}

// buildView runs the per-position folding (decoding, invisible removal,
// decomposition, lowercasing, unconditional look-alike folding), then the
// word-level homoglyph folding, then encodes the result.
func buildView(s string, keepLines, withOffsets bool) view {
	f := folder{keepLines: keepLines, out: make([]fr, 0, len(s))}
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '&' {
			if n, dec := decodeEntity(s[i:]); n > 0 {
				for _, r := range dec {
					f.push(r, i)
				}
				i += n
				continue
			}
		}
		if c == '%' && i+2 < len(s) {
			if b, ok := hexByte(s[i+1], s[i+2]); ok && b >= 0x20 && b < 0x7f {
				f.push(rune(b), i)
				i += 3
				continue
			}
		}
		if c == '\\' && i+1 < len(s) {
			if n, r := decodeBackslash(s[i:]); n > 0 {
				f.push(r, i)
				i += n
				continue
			}
		}
		if c < utf8.RuneSelf {
			f.push(rune(c), i)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			f.push(utf8.RuneError, i)
			i++
			continue
		}
		f.push(r, i)
		i += size
	}
	runes := foldWords(f.out)
	var b strings.Builder
	b.Grow(len(runes))
	var off []int32
	if withOffsets {
		off = make([]int32, 0, len(runes))
	}
	var tmp [utf8.UTFMax]byte
	for _, x := range runes {
		n := utf8.EncodeRune(tmp[:], x.r)
		b.Write(tmp[:n])
		if withOffsets {
			for k := 0; k < n; k++ {
				off = append(off, x.off)
			}
		}
	}
	return view{text: b.String(), off: off}
}

// folder accumulates folded runes with whitespace collapsing.
type folder struct {
	keepLines bool
	out       []fr
	hasSpace  bool            // the last emitted rune is collapsed whitespace
	nfkd      map[rune]string // decompositions seen so far in this text
	lastLatin bool            // the last base rune was Latin or Greek (its diacritics are dropped)
}

func (f *folder) emit(r rune, off int) {
	f.out = append(f.out, fr{r, int32(off)})
	f.hasSpace = false
}

// push folds one decoded rune from raw offset off.
func (f *folder) push(r rune, off int) {
	// Tag characters shadow ASCII; decode them so smuggled text is scanned.
	if r >= 0xE0020 && r <= 0xE007E {
		r -= 0xE0000
	}
	if isLineBreak(r) || unicode.IsSpace(r) {
		nl := f.keepLines && isLineBreak(r)
		if f.hasSpace {
			if nl {
				f.out[len(f.out)-1].r = '\n'
			}
			return
		}
		if nl {
			f.emit('\n', off)
		} else {
			f.emit(' ', off)
		}
		f.hasSpace = true
		return
	}
	if isInvisible(r) {
		return
	}
	if r < utf8.RuneSelf {
		f.pushFolded(unicode.ToLower(r), off)
		f.lastLatin = isASCIILetter(r)
		return
	}
	dec, ok := f.nfkd[r]
	if !ok {
		dec = norm.NFKD.String(string(r))
		if f.nfkd == nil {
			f.nfkd = map[rune]string{}
		}
		f.nfkd[r] = dec
	}
	if len(dec) == utf8.RuneLen(r) {
		if d, _ := utf8.DecodeRuneInString(dec); d == r {
			f.pushDecomposed(r, off)
			return
		}
	}
	for _, d := range dec {
		if d >= 0xE0020 && d <= 0xE007E {
			d -= 0xE0000
		}
		if unicode.IsSpace(d) {
			f.push(d, off)
			continue
		}
		f.pushDecomposed(d, off)
	}
}

// pushDecomposed handles one rune that is already in NFKD form.
func (f *folder) pushDecomposed(d rune, off int) {
	if unicode.Is(unicode.Mn, d) {
		// Diacritics on Latin and Greek letters are dropped so "ïgnörë"
		// reads as "ignore" and Greek matches with or without tonos; marks of
		// other scripts (Cyrillic й, Devanagari vowel signs) carry meaning.
		if f.lastLatin {
			return
		}
		f.emit(d, off)
		return
	}
	if isInvisible(d) {
		return
	}
	l := unicode.ToLower(d)
	f.lastLatin = unicode.Is(unicode.Latin, l) || unicode.Is(unicode.Greek, l)
	f.pushFolded(l, off)
}

func (f *folder) pushFolded(r rune, off int) {
	if r >= utf8.RuneSelf { // alwaysFold has no ASCII key (TestFoldTablesLeaveASCII)
		if a, ok := alwaysFold[r]; ok {
			r = a
		}
	}
	f.emit(r, off)
}

// foldWords folds Cyrillic/Greek/Armenian/Cherokee/Lisu homoglyphs inside words that mix
// scripts with Latin, and in all-homoglyph words when Latin letters dominate
// the whole text. A "word" is a maximal run of letters and digits.
func foldWords(rs []fr) []fr {
	latin, other := 0, 0
	for _, x := range rs {
		if x.r < utf8.RuneSelf {
			if isASCIILetter(x.r) {
				latin++
			}
			continue
		}
		if _, ok := homoglyph[x.r]; ok {
			other++
		} else if unicode.Is(unicode.Cyrillic, x.r) || unicode.Is(unicode.Greek, x.r) {
			other++
		}
	}
	latinMajority := latin > other
	i := 0
	for i < len(rs) {
		if !isWordRune(rs[i].r) {
			i++
			continue
		}
		j := i
		hasLatin, hasGlyph, allGlyph := false, false, true
		for j < len(rs) && isWordRune(rs[j].r) {
			r := rs[j].r
			if r < utf8.RuneSelf { // homoglyph has no ASCII key (TestFoldTablesLeaveASCII)
				if isASCIILetter(r) {
					allGlyph, hasLatin = false, true
				}
			} else if _, ok := homoglyph[r]; ok {
				hasGlyph = true
			} else {
				if unicode.IsLetter(r) {
					allGlyph = false
				}
				if isASCIILetter(r) || unicode.Is(unicode.Latin, r) {
					hasLatin = true
				}
			}
			j++
		}
		if hasGlyph && (hasLatin || (allGlyph && latinMajority)) {
			for k := i; k < j; k++ {
				if rs[k].r < utf8.RuneSelf {
					continue
				}
				if a, ok := homoglyph[rs[k].r]; ok {
					rs[k].r = a
				}
			}
		}
		i = j
	}
	return rs
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIILetter(r) || (r >= '0' && r <= '9')
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isASCIILetter(r rune) bool { return (r|0x20) >= 'a' && (r|0x20) <= 'z' }

// isLineBreak reports the characters the matcher treats as line breaks.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// isInvisible reports characters removed from the detection view: controls
// other than whitespace, format characters (Cf: zero-width, bidi controls,
// soft hyphen, BOM, tag characters), variation selectors and the other
// default-ignorable code points.
func isInvisible(r rune) bool {
	if r < 0x20 || r == 0x7f {
		return r != '\t' && r != '\n' && r != '\r'
	}
	if r < 0x80 {
		return false
	}
	if r >= 0x80 && r < 0xa0 {
		return r != 0x85
	}
	return unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		(r >= 0xE0000 && r <= 0xE0FFF)
}

// decodeEntity decodes one HTML character reference at the start of s
// ("&lt;", "&#60;", "&#x3C;"); it returns the bytes consumed and the text, or
// 0 when s does not start with a reference.
func decodeEntity(s string) (int, string) {
	end := -1
	for k := 1; k < len(s) && k <= 33; k++ {
		c := s[k]
		if c == ';' {
			end = k
			break
		}
		if !(c == '#' && k == 1) && !isAlnum(c) {
			break
		}
	}
	if end < 0 {
		// Numeric references need no ';' for browsers or models: "&#60" and
		// "&#x3c" followed by a non-digit.
		return decodeBareNumeric(s)
	}
	if end < 2 {
		return 0, ""
	}
	ref := s[:end+1]
	dec := html.UnescapeString(ref)
	if dec == ref {
		return 0, ""
	}
	return len(ref), dec
}

// decodeBareNumeric decodes "&#DDD" or "&#xHHH" without a semicolon.
func decodeBareNumeric(s string) (int, string) {
	if len(s) < 3 || s[1] != '#' {
		return 0, ""
	}
	i, hexa := 2, false
	if s[2] == 'x' || s[2] == 'X' {
		i, hexa = 3, true
	}
	j := i
	for j < len(s) && j-i < 7 {
		if _, ok := hexVal(s[j]); !ok || (!hexa && (s[j] < '0' || s[j] > '9')) {
			break
		}
		j++
	}
	if j == i {
		return 0, ""
	}
	dec := html.UnescapeString(s[:j] + ";")
	if dec == s[:j]+";" {
		return 0, ""
	}
	return j, dec
}

// decodeBackslash decodes \uXXXX and \xXX at the start of s (only code points
// that are valid and, for \x, ASCII).
func decodeBackslash(s string) (int, rune) {
	if len(s) >= 6 && s[1] == 'u' {
		var v rune
		for k := 2; k < 6; k++ {
			h, ok := hexVal(s[k])
			if !ok {
				return 0, 0
			}
			v = v<<4 | rune(h)
		}
		if !utf8.ValidRune(v) {
			return 0, 0
		}
		return 6, v
	}
	if len(s) >= 4 && s[1] == 'x' {
		if b, ok := hexByte(s[2], s[3]); ok && b >= 0x20 && b < 0x7f {
			return 4, rune(b)
		}
	}
	return 0, 0
}

func isAlnum(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func hexByte(a, b byte) (byte, bool) {
	h, ok1 := hexVal(a)
	l, ok2 := hexVal(b)
	return h<<4 | l, ok1 && ok2
}

// alwaysFold maps look-alikes whose folding never hurts genuine text of
// another script: punctuation look-alikes and Latin-script small capitals.
var alwaysFold = map[rune]rune{
	// angle brackets (NFKD leaves these alone)
	0x2039: '<', 0x203A: '>', 0x2329: '<', 0x232A: '>', 0x3008: '<', 0x3009: '>',
	0x27E8: '<', 0x27E9: '>', 0x276E: '<', 0x276F: '>', 0x276C: '<', 0x276D: '>',
	0x02C2: '<', 0x02C3: '>', 0x1438: '<', 0x1433: '>', 0x2A7D: '<', 0x2A7E: '>',
	0x29FC: '<', 0x29FD: '>', 0x276A: '<', 0x276B: '>',
	// slashes
	0x2215: '/', 0x2044: '/', 0x29F8: '/', 0x2571: '/', 0x30CE: '/',
	// colons
	0x02D0: ':', 0x02F8: ':', 0xA789: ':', 0x2236: ':', 0x0589: ':', 0x05C3: ':',
	0x16EC: ':', 0xFE30: ':',
	// dashes and minus
	0x2010: '-', 0x2011: '-', 0x2012: '-', 0x2013: '-', 0x2014: '-', 0x2015: '-',
	0x2212: '-', 0x2043: '-', 0xFE63: '-',
	// quotes
	0x2018: '\'', 0x2019: '\'', 0x201A: '\'', 0x201B: '\'', 0x2032: '\'',
	0x201C: '"', 0x201D: '"', 0x201E: '"', 0x201F: '"', 0x2033: '"',
	// modifier letters that read as punctuation (datamarking favourites)
	0x02C6: '^', 0x02C4: '^', 0x02DC: '~', 0x02CB: '`', 0x02CA: '\'', 0x02BC: '\'',
	// bars
	0x01C0: '|', 0x2223: '|', 0x2502: '|', 0xFFE8: '|',
	// Latin small capitals and other Latin look-alikes
	0x0131: 'i', 0x0269: 'i', 0x026A: 'i', 0x0251: 'a', 0x0261: 'g', 0x0262: 'g',
	0x029F: 'l', 0x1D00: 'a', 0x0299: 'b', 0x1D04: 'c', 0x1D05: 'd', 0x1D07: 'e',
	0x029C: 'h', 0x1D0A: 'j', 0x1D0B: 'k', 0x1D0D: 'm', 0x0274: 'n', 0x1D0F: 'o',
	0x1D18: 'p', 0x0280: 'r', 0xA731: 's', 0x1D1B: 't', 0x1D1C: 'u', 0x1D20: 'v',
	0x1D21: 'w', 0x028F: 'y', 0x1D22: 'z', 0x0237: 'j', 0x0250: 'a',
}

// homoglyph maps lowercase Cyrillic, Greek, Armenian and Lisu letters to the ASCII
// letter they are confused with (after UTS #39's confusables, restricted to
// letters that look alike in common fonts).
var homoglyph = map[rune]rune{
	// Cyrillic
	0x0430: 'a', 0x0432: 'b', 0x0435: 'e', 0x0456: 'i', 0x0458: 'j', 0x043A: 'k',
	0x043C: 'm', 0x043D: 'h', 0x043E: 'o', 0x0440: 'p', 0x0441: 'c', 0x0442: 't',
	0x0443: 'y', 0x0445: 'x', 0x0455: 's', 0x04BB: 'h', 0x0501: 'd', 0x051B: 'q',
	0x051D: 'w', 0x04CF: 'l', 0x0433: 'r', 0x043F: 'n', 0x044C: 'b', 0x0491: 'r',
	0x04AF: 'y', 0x0461: 'w',
	// Greek
	0x03B1: 'a', 0x03B2: 'b', 0x03B3: 'y', 0x03B5: 'e', 0x03B6: 'z', 0x03B7: 'n',
	0x03B9: 'i', 0x03BA: 'k', 0x03BD: 'v', 0x03BF: 'o', 0x03C1: 'p', 0x03C4: 't',
	0x03C5: 'u', 0x03C7: 'x', 0x03C9: 'w', 0x03BC: 'u', 0x03F2: 'c', 0x03F3: 'j',
	// Armenian
	0x0585: 'o', 0x057D: 'u', 0x0570: 'h', 0x0578: 'n', 0x0581: 'g', 0x0566: 'q',
	// Lisu (no case)
	0xA4D0: 'b', 0xA4D1: 'p', 0xA4D3: 'd', 0xA4D4: 't', 0xA4D6: 'g', 0xA4D7: 'k', 0xA4D9: 'j',
	0xA4DA: 'c', 0xA4DC: 'z', 0xA4DD: 'f', 0xA4DF: 'm', 0xA4E0: 'n', 0xA4E1: 'l', 0xA4E2: 's',
	0xA4E3: 'r', 0xA4E6: 'v', 0xA4E7: 'h', 0xA4EA: 'w', 0xA4EB: 'x', 0xA4EC: 'y', 0xA4EE: 'a',
	0xA4F0: 'e', 0xA4F2: 'i', 0xA4F3: 'o', 0xA4F4: 'u',
}

// Cherokee capitals that look like Latin capitals; they are folded in their
// lowercase form, which is what the view holds after lowercasing.
var cherokee = map[rune]rune{
	0x13A0: 'd', 0x13A1: 'r', 0x13A2: 't', 0x13A9: 'y', 0x13AA: 'a', 0x13AB: 'j', 0x13AC: 'e',
	0x13B3: 'w', 0x13B7: 'm', 0x13BB: 'h', 0x13C0: 'g', 0x13C2: 'h', 0x13C3: 'z', 0x13CF: 'b',
	0x13D2: 'r', 0x13DA: 's', 0x13DE: 'l', 0x13DF: 'c', 0x13E2: 'p', 0x13E6: 'k', 0x13F4: 'b',
	0x13D9: 'v',
}

func init() {
	for r, a := range cherokee {
		homoglyph[unicode.ToLower(r)] = a
		homoglyph[r] = a
	}
}
