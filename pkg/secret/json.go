package secret

import (
	"bytes"
	"encoding/json"
)

// JSON redacts the string values (and keys) of one JSON document in place,
// keeping every other byte: key order, numbers and spacing stay as they
// were. A string is decoded before it is searched, so a key written with
// \n escapes is seen whole; a changed string is re-encoded without HTML
// escaping, as package record encodes. ok is false when raw is not a
// sequence of well-formed JSON strings and other bytes (the caller then
// treats it as text). When nothing is found, raw itself is returned.
func JSON(raw []byte) (out []byte, ok bool) {
	var b []byte // nil until the first change
	last := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		end, esc := stringEnd(raw, i)
		if end < 0 {
			return raw, false
		}
		if end-i-1 >= minSecretLen {
			if rep, changed := redactJSONString(raw[i:end+1], esc); changed {
				b = append(append(b, raw[last:i]...), rep...)
				last = end + 1
			}
		}
		i = end
	}
	if b == nil {
		return raw, true
	}
	return append(b, raw[last:]...), true
}

// minSecretLen is the shortest string worth searching: the shortest
// finding, a three-character password, needs a key and an operator too.
const minSecretLen = 6

// stringEnd returns the index of the quote closing the string opened at
// raw[i], and whether it holds escapes; -1 when it is not closed.
func stringEnd(raw []byte, i int) (int, bool) {
	esc := false
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			esc = true
			j++
		case '"':
			return j, esc
		case '\n':
			return -1, false
		}
	}
	return -1, false
}

func redactJSONString(lit []byte, esc bool) ([]byte, bool) {
	var s string
	if esc {
		if json.Unmarshal(lit, &s) != nil {
			return nil, false
		}
	} else {
		s = string(lit[1 : len(lit)-1])
	}
	red, rules := Redact(s)
	if len(rules) == 0 {
		return nil, false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(red) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), true
}
