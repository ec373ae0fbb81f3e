package secret

import (
	"encoding/base64"
	"strings"
)

// base64Runs returns the runs that may be base64 of a secret: at least 24
// characters of the standard or URL alphabet (padding included) with upper
// and lower case letters and a digit — identifiers rarely hold all three.
// A byte loop, not a regexp: it runs over every text.
func base64Runs(text string) [][2]int {
	var out [][2]int
	start, classes := -1, 0
	for i := 0; i <= len(text); i++ {
		c := byte(0)
		if i < len(text) {
			c = text[i]
		}
		cls := 0
		switch {
		case c >= 'A' && c <= 'Z':
			cls = 1
		case c >= 'a' && c <= 'z':
			cls = 2
		case c >= '0' && c <= '9':
			cls = 4
		case c == '+' || c == '/' || c == '_' || c == '-':
			cls = 8
		}
		end := i
		for start >= 0 && cls == 0 && end < len(text) && text[end] == '=' && end-i < 2 {
			end++ // padding closes a run
		}
		if cls != 0 {
			if start < 0 {
				start, classes = i, 0
			}
			classes |= cls
			continue
		}
		if start >= 0 && i-start >= 24 && classes&7 == 7 {
			out = append(out, [2]int{start, end})
		}
		start = -1
		i = max(i, end-1)
	}
	return out
}

// findEncoded decodes base64 runs and reports a run whose decoded text holds
// a secret (a base64-encoded ghp_ token, a "user:password" auth blob is not
// enough). Only runs that decode to printable text are searched, once: a
// secret encoded twice is not looked for.
func findEncoded(text string) []Finding {
	var out []Finding
	for _, m := range base64Runs(text) {
		dec, ok := decodeBase64(text[m[0]:m[1]])
		if !ok {
			continue
		}
		if fs := findPlain(dec); len(fs) > 0 {
			out = append(out, Finding{Rule: "base64-" + fs[0].Rule, Start: m[0], End: m[1]})
		}
	}
	return out
}

// decodeBase64 decodes s in any of the four alphabets/paddings and accepts
// the result only when it is mostly printable ASCII.
func decodeBase64(s string) (string, bool) {
	var b []byte
	var err error
	trim := strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "-_") {
		b, err = base64.RawURLEncoding.DecodeString(trim)
	} else {
		b, err = base64.RawStdEncoding.DecodeString(trim)
	}
	if err != nil || len(b) < 16 {
		return "", false
	}
	printable := 0
	for _, c := range b {
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' || c == '\r' {
			printable++
		}
	}
	if printable*10 < len(b)*9 {
		return "", false
	}
	return string(b), true
}
