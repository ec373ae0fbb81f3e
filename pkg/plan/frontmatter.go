package plan

import "strings"

// SplitFrontmatter separates a leading YAML frontmatter block ("---" line, YAML,
// closing "---" or "..." line) from the markdown after it. text must already use
// "\n" line endings (see Normalize). ok is false when the text has no frontmatter
// or its block is never closed; then body is the whole text. bodyLine is the
// 1-based line number of the first body line, so callers can report positions in
// the original file.
func SplitFrontmatter(text string) (front, body string, bodyLine int, ok bool) {
	if !strings.HasPrefix(text, "---\n") {
		return "", text, 1, false
	}
	rest := text[len("---\n"):]
	line := 2
	for off := 0; off <= len(rest); {
		end := strings.IndexByte(rest[off:], '\n')
		var l string
		next := len(rest) + 1
		if end >= 0 {
			l = rest[off : off+end]
			next = off + end + 1
		} else {
			l = rest[off:]
		}
		if t := strings.TrimRight(l, " \t"); t == "---" || t == "..." {
			b := ""
			if next <= len(rest) {
				b = rest[next:]
			}
			return rest[:off], b, line + 1, true
		}
		line++
		off = next
	}
	return "", text, 1, false
}

// Normalize drops a leading byte-order mark and turns CRLF and lone CR line
// endings into "\n", so every parser in the guild tools sees one line convention
// and reports the same line numbers an editor shows.
func Normalize(text string) string {
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.IndexByte(text, '\r') < 0 {
		return text
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	return strings.ReplaceAll(text, "\r", "\n")
}
