package record

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf8"
)

// envelope is what Next decodes of every line: its kind, version and id.
type envelope struct {
	Kind *string         `json:"kind"`
	V    json.RawMessage `json:"v"`
	ID   json.RawMessage `json:"id"`
}

// decodeEnvelope decodes raw's envelope as json.Unmarshal into an envelope
// would, error for error. A line valid accepts (json.Valid's grammar) is
// read by a scan of its top-level members that copies encoding/json's
// rules (keys unescaped and matched by its case folding, the last
// duplicate winning, null leaving the kind unset); anything else, and a
// kind that is not a plain string, goes through json.Unmarshal itself.
// Every stage reads every record of its input this way: encoding/json
// steps through a state function per byte, twice, where these two loops
// go through plain string bytes at a table lookup each.
func decodeEnvelope(raw []byte) (envelope, error) {
	var env envelope
	if !valid(raw) {
		return env, json.Unmarshal(raw, &env)
	}
	kind, v, id, ok := scanMembers(raw)
	if !ok {
		return env, json.Unmarshal(raw, &env) // not an object, or a kind neither string nor null
	}
	env.V, env.ID = v, id
	switch {
	case kind == nil || string(kind) == "null":
	case bytes.IndexByte(kind, '\\') < 0 && utf8.Valid(kind):
		s := string(kind[1 : len(kind)-1])
		env.Kind = &s
	default:
		var s string
		if err := json.Unmarshal(kind, &s); err != nil {
			return envelope{}, json.Unmarshal(raw, &env)
		}
		env.Kind = &s
	}
	return env, nil
}

// scanMembers returns the raw values of the last top-level members of the
// valid JSON text raw whose keys fold to KIND, V and ID; ok is false when
// raw is not an object or a KIND member is neither a string nor null
// (encoding/json reports that, whichever member comes last).
func scanMembers(raw []byte) (kind, v, id []byte, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, nil, nil, false
	}
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] == '"' {
		kEnd := stringEnd(raw, i)
		key := raw[i : kEnd+1]
		i = skipSpace(raw, skipSpace(raw, kEnd+1)+1) // past the ':'
		vEnd := valueEnd(raw, i)
		val := raw[i:vEnd]
		switch foldKey(key) {
		case "KIND":
			if val[0] != '"' && string(val) != "null" {
				return nil, nil, nil, false
			}
			kind = val
		case "V":
			v = val
		case "ID":
			id = val
		}
		i = skipSpace(raw, vEnd)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return kind, v, id, true
}

// foldKey is a member's key as encoding/json compares it with a field's
// name when no field has it exactly: unescaped, ASCII letters upper-cased,
// other runes replaced by the smallest of their case-folding orbit (so
// U+212A KELVIN SIGN is K). Only short keys matter here.
func foldKey(lit []byte) string {
	name := lit[1 : len(lit)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		var s string
		if json.Unmarshal(lit, &s) != nil {
			return ""
		}
		name = []byte(s)
	}
	if len(name) > 16 { // more than four runes (a rune folds to one rune): none of the names
		return ""
	}
	var buf [16]byte
	out := buf[:0]
	for len(name) > 0 {
		if c := name[0]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			name = name[1:]
			continue
		}
		r, n := utf8.DecodeRune(name)
		out = utf8.AppendRune(out, foldRune(r))
		name = name[n:]
	}
	switch string(out) { // compared without a copy
	case "KIND":
		return "KIND"
	case "V":
		return "V"
	case "ID":
		return "ID"
	}
	return ""
}

// foldRune is the smallest rune of r's case-folding orbit.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index of the quote closing the string opening at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(b) - 1
}

// valueEnd is the index just past the value starting at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i) + 1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j)
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}
