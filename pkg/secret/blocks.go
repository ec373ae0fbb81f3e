package secret

import (
	"strings"
)

// Multi-line secrets need the whole text around them. A private-key block
// is found from its BEGIN line over every following body line, with or
// without its END line (a window may cut it), and body lines of a key whose
// BEGIN line lies outside the text are found by their shape: PEM bodies are
// runs of 64-character base64 lines. A run that follows a BEGIN line of
// something public (a CERTIFICATE) is left alone.

var (
	keyBeginRE = lazy(`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`)
	anyBeginRE = lazy(`-----BEGIN ([ A-Z0-9_-]{1,100})-----`)
	// a body or header line of a PEM block, or its END line
	pemLineRE = lazy(`^[ \t"'` + "`" + `]*(?:[A-Za-z0-9+/=]{1,100}|[A-Za-z-]{2,40}: [^\n]{0,200}|-----END[ A-Z0-9_-]{0,100}-----)[ \t"'` + "`" + `,;+]*\r?$`)
	// escapedBodyRE is the rest of a key written on one line with \n escapes
	escapedBodyRE = lazy(`^(?:\\(?:r\\)?n|[A-Za-z0-9+/=])*(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----)?`)
)

func findKeyBlocks(text string) []Finding {
	var out []Finding
	if strings.Contains(text, "PRIVATE KEY") {
		for _, m := range keyBeginRE().FindAllStringIndex(text, -1) {
			// a BEGIN line with no body (a constant naming the header) is no secret
			if end := keyBlockEnd(text, m[1]); end > m[1] {
				out = append(out, Finding{Rule: "private-key", Start: m[0], End: end})
			}
		}
	}
	return append(out, findBodyRuns(text)...)
}

// keyBlockEnd returns where the block whose BEGIN line ends at i ends: past
// its END line, or past its last body line.
func keyBlockEnd(text string, i int) int {
	if m := escapedBodyRE().FindStringIndex(text[i:]); m != nil && m[1] > 0 && text[i] == '\\' {
		return i + m[1]
	}
	end, pos := i, i
	for {
		switch {
		case strings.HasPrefix(text[pos:], "\r\n"):
			pos += 2
		case strings.HasPrefix(text[pos:], "\n"):
			pos++
		default:
			return end
		}
		le := strings.IndexByte(text[pos:], '\n')
		if le < 0 {
			le = len(text) - pos
		}
		line := strings.TrimSuffix(text[pos:pos+le], "\r")
		if strings.TrimSpace(line) == "" || !pemLineRE().MatchString(line) {
			return end
		}
		pos += len(line)
		end = pos
		if strings.Contains(line, "-----END") {
			return end
		}
	}
}

// findBodyRuns finds runs of at least two 64-character base64 lines (and
// the shorter line closing the run) that are not part of a public block.
func findBodyRuns(text string) []Finding {
	var out []Finding
	start, n, runEnd := -1, 0, 0
	flush := func() {
		if n >= 2 && !publicBlockBefore(text, start) {
			out = append(out, Finding{Rule: "private-key", Start: start, End: runEnd})
		}
		start, n = -1, 0
	}
	for pos := 0; pos < len(text); {
		e := strings.IndexByte(text[pos:], '\n')
		if e < 0 {
			e = len(text) - pos
		}
		line := text[pos : pos+e]
		switch {
		case isBodyLine(line):
			if start < 0 {
				start = pos
			}
			n++
			runEnd = pos + len(strings.TrimRight(line, "\r"))
		case start >= 0 && n >= 2 && isLastBodyLine(line):
			runEnd = pos + len(strings.TrimRight(line, "\r"))
			flush()
		default:
			flush()
		}
		pos += e + 1
	}
	flush()
	return out
}

func isLastBodyLine(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(t) > 64 {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// publicBlockBefore reports whether the nearest BEGIN line before i opens
// a block that is not a private key (a certificate, a public key).
func publicBlockBefore(text string, i int) bool {
	k := strings.LastIndex(text[:i], "-----BEGIN ")
	if k < 0 {
		return false
	}
	m := anyBeginRE().FindStringSubmatch(text[k:])
	return m != nil && !strings.Contains(m[1], "PRIVATE")
}

// isBodyLine reports whether line is a full PEM body line: 64 base64
// characters between optional blanks (and a trailing \r). A byte loop, not
// a regexp: it runs on every line of every text.
func isBodyLine(line string) bool {
	if len(line) < 64 {
		return false // trimming only shortens it; most lines of code
	}
	line = strings.TrimSuffix(line, "\r")
	line = strings.Trim(line, " \t")
	if len(line) != 64 {
		return false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}
