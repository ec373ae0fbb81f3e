package secret

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// base64RunRE is a run that may be base64 of a secret: long enough to hold a
// token, standard or URL alphabet, optional padding.
var base64RunRE = regexp.MustCompile(`[A-Za-z0-9+/_-]{24,}={0,2}`)

// findEncoded decodes base64 runs and reports a run whose decoded text holds
// a secret (a base64-encoded ghp_ token, a "user:password" auth blob is not
// enough). Only runs that decode to printable text are searched, once: a
// secret encoded twice is not looked for.
func findEncoded(text string) []Finding {
	var out []Finding
	for _, m := range base64RunRE.FindAllStringIndex(text, -1) {
		dec, ok := decodeBase64(text[m[0]:m[1]])
		if !ok {
			continue
		}
		lower := asciiLower(dec)
		fs := append(defaultRules().find(dec, lower), findExtra(dec, lower)...)
		if len(fs) > 0 {
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
