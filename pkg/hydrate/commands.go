package hydrate

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/pathenc"
)

// ReEntryCommand is the rtch-hydrate command that reproduces lines s..e of p.
// A name holding a control character (a newline, a tab) is given in $'…'
// quoting, as SedCommand gives one that is not UTF-8, so the command stays
// on one line and reaches the file wherever it is shown (the md brief spells
// such characters visibly, which would change a plainly quoted name).
func ReEntryCommand(p string, s, e int) string {
	arg := p + ":" + LineRange(s, e)
	if hasControl(arg) {
		return "rtch-hydrate --reenter " + ansiQuote(arg)
	}
	return "rtch-hydrate --reenter " + ShellQuote(arg)
}

// SedCommand is the sed command that prints lines s..e of p (from the zone
// root). p is spelt as in records (pkg/pathenc); sed is given the file's own
// name, in $'…' quoting with \xHH escapes when it is not UTF-8 (bash, zsh,
// ksh and POSIX.1-2024 sh read it), so the command reaches the file.
func SedCommand(p string, s, e int) string {
	p = pathenc.Decode(p)
	if strings.HasPrefix(p, "-") {
		p = "./" + p
	}
	q := ShellQuote(p)
	if !utf8.ValidString(p) || hasControl(p) {
		q = ansiQuote(p)
	}
	return fmt.Sprintf("sed -n '%d,%dp' %s", s, e, q)
}

// hasControl reports whether s holds an ASCII control byte or DEL.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0
}

// ansiQuote writes s as a $'…' word: bytes outside printable ASCII, the
// quote and the backslash as \xHH.
func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\'' || c == '\\' {
			fmt.Fprintf(&b, "\\x%02x", c)
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// EffectiveReEntryCommand re-derives a corrected record's effective view: the
// gate record that holds it.
func EffectiveReEntryCommand(recordID string) string {
	q, _ := json.Marshal(recordID)
	return "rtch-zone --gate-only --jq " + ShellQuote(".effective_records[] | select(.target_record_id == "+string(q)+")")
}

// ShellQuote quotes s for a POSIX shell unless it is made only of safe bytes.
func ShellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-./:@%+=,", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
