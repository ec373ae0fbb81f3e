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
// would, error for error. The validator (json.Valid's grammar) hands over
// the top-level members as it checks the line, and they are matched by
// encoding/json's rules: keys unescaped and case-folded, the last
// duplicate winning, null leaving the kind unset. A line that is not a
// valid object, or whose kind is neither a string nor null, goes through
// json.Unmarshal itself for its error. Every stage reads every record of
// its input this way: encoding/json steps through a state function per
// byte, twice, where the validator goes through plain string bytes at a
// table lookup each.
func decodeEnvelope(raw []byte) (envelope, error) {
	var env envelope
	var kind []byte
	badKind := false
	ok := validMembers(raw, func(key, val []byte) {
		switch foldKey(key) {
		case "KIND":
			kind, badKind = val, badKind || val[0] != '"' && string(val) != "null"
		case "V":
			env.V = val
		case "ID":
			env.ID = val
		}
	})
	if !ok || badKind || !isObject(raw) {
		return envelope{}, json.Unmarshal(raw, &env)
	}
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

// isObject reports whether the JSON text raw is an object.
func isObject(raw []byte) bool {
	t := bytes.TrimLeft(raw, " \t\n\r")
	return len(t) > 0 && t[0] == '{'
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
