package walk

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

var utf8BOM = []byte("\xef\xbb\xbf")

// IsBinary reports whether b holds a NUL byte anywhere. The walker hands
// it whole files (never more than the size cap), so a NUL at byte 70,000
// makes a file binary just as one at byte 10 does: the verdict does not
// depend on any buffer size. This is a superset of git's and ripgrep's
// first-8-KiB rule. UTF-16 text contains NULs and is therefore binary.
func IsBinary(b []byte) bool {
	return bytes.IndexByte(b, 0) >= 0
}

// DecodeText turns file bytes into a valid UTF-8 string: leading UTF-8
// byte-order marks are dropped (all of them: an editor that saved a file
// twice may write two, and a U+FEFF left at the start would reach chunk
// text) and every byte that is not part of a valid
// UTF-8 sequence becomes U+FFFD, one replacement per bad byte. Overlong
// forms (C0 BC for '<'), surrogates (ED A0 80) and truncated sequences are
// invalid in Go's decoder, so they can never turn into markup characters.
// Line endings are left as they are; see Lines.
func DecodeText(b []byte) string {
	for bytes.HasPrefix(b, utf8BOM) {
		b = b[len(utf8BOM):]
	}
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 16)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			sb.WriteRune(utf8.RuneError)
		} else {
			sb.Write(b[:n])
		}
		b = b[n:]
	}
	return sb.String()
}

// Lines splits text into lines without their terminators. "\r\n", "\n"
// and a lone "\r" each end a line, so CRLF files lose their carriage
// returns and old-Mac CR-only files still have lines. Numbering is 1-based:
// line N is Lines(s)[N-1]. A terminator at the very end does not open an
// extra empty line ("a\n" is one line, "a\n\n" two, "" none), and a last
// line without a terminator is kept.
//
// Note for re-entry commands: sed counts only "\n", so in a file with
// lone-CR endings sed's line numbers differ from these.
func Lines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	return out
}
