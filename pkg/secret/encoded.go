package secret

import (
	"encoding/base64"
	"strings"
)

// base64Runs returns the runs that may be base64 of a secret: at least 24
// characters of the standard or URL alphabet (padding included) with upper
// and lower case letters and a digit — identifiers rarely hold all three.
// A byte loop over a class table, not a regexp: it runs over every text.
// It looks at every 24th byte first: a run of 24 holds one, so where that
// byte is outside the alphabets no run worth reporting starts in the 24
// bytes up to it, and source code's words and spaces are skipped 24
// bytes at a time.
func base64Runs(text string) [][2]int {
	var out [][2]int
	// no run crosses i: it is 0 or the byte before it is outside the
	// alphabets
	for i := 0; i+minB64Run <= len(text); {
		probe := i + minB64Run - 1
		if b64Class[text[probe]] == 0 {
			i = probe + 1
			continue
		}
		start, end := probe, probe+1
		for start > i && b64Class[text[start-1]] != 0 {
			start--
		}
		for end < len(text) && b64Class[text[end]] != 0 {
			end++
		}
		if end-start >= minB64Run && b64Classes(text[start:end])&7 == 7 {
			pad := end
			for pad < len(text) && text[pad] == '=' && pad-end < 2 {
				pad++ // padding closes a run
			}
			out = append(out, [2]int{start, pad})
		}
		i = end + 1 // text[end] is outside the alphabets, or the end
	}
	return out
}

// minB64Run is the shortest run base64Runs reports.
const minB64Run = 24

// b64Classes ORs the classes of run's bytes.
func b64Classes(run string) uint8 {
	var c uint8
	for i := 0; i < len(run); i++ {
		c |= b64Class[run[i]]
	}
	return c
}

// b64Class is a byte's class in base64Runs: 1 upper-case, 2 lower-case,
// 4 digit, 8 the other alphabet bytes (+/_-), 0 outside the alphabets.
var b64Class = func() (t [256]uint8) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c], t[c+'a'-'A'] = 1, 2
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 4
	}
	for _, c := range "+/_-" {
		t[c] = 8
	}
	return t
}()

// findEncoded decodes base64 runs and reports a run whose decoded text holds
// a secret (a base64-encoded ghp_ token, a "user:password" auth blob is not
// enough). Only runs that decode to printable text are searched, once: a
// secret encoded twice is not looked for.
func findEncoded(text string) []Finding {
	var out []Finding
	for _, m := range base64Runs(text) {
		if f, ok := encodedAt(text, m); ok {
			out = append(out, f)
		}
	}
	return out
}

// encodedAt is the finding of the base64 run m of text, if its decoded
// text holds a secret.
func encodedAt(text string, m [2]int) (Finding, bool) {
	dec, ok := decodeBase64(text[m[0]:m[1]])
	if !ok {
		return Finding{}, false
	}
	if fs := findPlain(dec); len(fs) > 0 {
		return Finding{Rule: "base64-" + fs[0].Rule, Start: m[0], End: m[1]}, true
	}
	return Finding{}, false
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
