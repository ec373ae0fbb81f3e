package protect

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// encodedRuns returns the runs of base64 characters (with trailing '=')
// at least 24 long: long enough to hide a sentence. Hex runs are a subset.
func encodedRuns(text string) [][]int {
	var out [][]int
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isB64(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			end := i
			for end < len(text) && end-i < 2 && text[end] == '=' {
				end++
			}
			if i-start >= 24 {
				out = append(out, []int{start, end})
			}
			start = -1
		}
	}
	return out
}

func isB64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

// probeEncoded decodes base64 and hex runs of the raw text and flags those
// whose plain text carries an override, persona, prompt-extraction,
// forced-output, secret-request or code directive. The decoded runs that
// read as text are joined (one per line) and normalised once, and the
// rules run on that view as on the text's own, through sc's windows and
// budget: a megabyte of base64 costs its bytes once, not a full regexp
// pass per rule over each run.
func probeEncoded(sc *scanner, text string, add func(string, string, []int)) {
	var joined strings.Builder
	prev := []int{0, 0}
	for _, m := range encodedRuns(text) {
		if dec := decodeRun(text[m[0]:m[1]]); len(dec) >= 12 && utf8.Valid(dec) && mostlyText(dec) {
			if joined.Len() > 0 && !wrappedOn(text, prev, m) {
				joined.WriteByte('\n')
			}
			joined.Write(dec)
			prev = m
		}
	}
	if joined.Len() == 0 {
		return
	}
	plain := Normalize(joined.String())
	for _, r := range rules() {
		if !encodedKinds[r.id] || r.lines {
			continue
		}
		found := false
		emit := func(loc []int) {
			if !found && !r.rejected(plain, loc) {
				add("encoded_instruction", plain, loc)
				found = true
			}
		}
		if r.starts {
			sc.scanStarts(anchoredRE(r.re), plain, r.anchors, r.with, emit)
		} else {
			sc.scan(r.re, plain, r.anchors, r.with, emit)
		}
		if found {
			return
		}
	}
}

// wrappedOn reports whether run m continues run prev on the next line, as
// base64 wrapped at a fixed width does (MIME's 76 columns, PEM's 64): only
// a line break between them and prev a whole number of unpadded quanta.
// Their decoded texts are then one text.
func wrappedOn(text string, prev, m []int) bool {
	gap := text[prev[1]:m[0]]
	return (gap == "\n" || gap == "\r\n") && (prev[1]-prev[0])%4 == 0 && text[prev[1]-1] != '='
}

// decodeRun decodes a run of encodedRuns: as hex when it is hex of even
// length, else as base64 (padding and a dangling last character dropped).
func decodeRun(run string) []byte {
	if len(run)%2 == 0 && isHex(run) {
		dec, _ := hex.DecodeString(run)
		return dec
	}
	s := strings.TrimRight(run, "=")
	if len(s)%4 == 1 {
		s = s[:len(s)-1]
	}
	dec, _ := base64.RawStdEncoding.DecodeString(s)
	return dec
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if _, ok := hexVal(s[i]); !ok {
			return false
		}
	}
	return true
}

// mostlyText: at least 90% printable ASCII or whitespace.
func mostlyText(b []byte) bool {
	ok := 0
	for _, c := range b {
		if (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' || c == '\r' {
			ok++
		}
	}
	return ok*10 >= len(b)*9
}
