// Package fields holds the rules that say in which field of a file a term's
// occurrence sits, judged from its line alone: a markdown heading, a key of
// a JSON, YAML or TOML file, or the name part of a code definition line.
// The probe applies them to the bytes it reads, and the tree index
// (pkg/index) records what they say about each line, so a warm probe judges
// an occurrence exactly as a cold one would without reading the file.
package fields

import "bytes"

// IsHeading reports whether line is an ATX heading of level 1–3.
func IsHeading(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	return n >= 1 && n <= 3 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

// IsKeyAt reports whether the match ending at e is a key ("term": / term: /
// term =).
func IsKeyAt(data []byte, e int) bool {
	if e < len(data) && (data[e] == '"' || data[e] == '\'') {
		e++
	}
	for e < len(data) && (data[e] == ' ' || data[e] == '\t') {
		e++
	}
	return e < len(data) && (data[e] == ':' || data[e] == '=')
}

// defKeywords open a definition line in the languages the scout reads.
var defKeywords = []string{"func ", "def ", "async def ", "class ", "type ", "fn ", "pub fn ", "pub(crate) fn ",
	"pub struct ", "pub enum ", "pub trait ", "struct ", "enum ", "trait ", "impl ", "function ", "export function ",
	"export default function ", "export class ", "export const ", "export interface ", "export type ", "interface ",
	"module ", "public ", "private ", "protected ", "static ", "const ", "var ", "let ", "#define "}

// DefSpan returns the columns [start, end) (0-based, in line) of the name
// part of a definition line: after the opening keyword (and a Go receiver),
// before the parameter list or initialiser; ok is false for a line that
// opens no definition.
func DefSpan(line []byte) (start, end int, ok bool) {
	t := bytes.TrimLeft(line, " \t")
	off := len(line) - len(t)
	kw := ""
	for _, k := range defKeywords {
		if bytes.HasPrefix(t, []byte(k)) {
			kw = k
			break
		}
	}
	if kw == "" {
		return 0, 0, false
	}
	start = off + len(kw)
	if kw == "func " && start < len(line) && line[start] == '(' {
		depth := 0
		for i := start; i < len(line); i++ {
			if line[i] == '(' {
				depth++
			} else if line[i] == ')' {
				depth--
				if depth == 0 {
					start = i + 1
					break
				}
			}
		}
	}
	end = len(line)
	if start <= len(line) {
		if i := bytes.IndexAny(line[start:], "(=:{<["); i >= 0 {
			end = start + i
		}
	}
	return start, end, true
}

// InDef reports whether col (0-based, in line) falls in the name part of a
// definition line (DefSpan).
func InDef(line []byte, col int) bool {
	start, end, ok := DefSpan(line)
	return ok && col >= start && col < end
}
