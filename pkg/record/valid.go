package record

// valid reports whether b is one JSON value, as json.Valid does: the same
// grammar (invalid UTF-8 inside strings accepted, whitespace of space, tab,
// newline and carriage return) and the same nesting limit. It is what
// every record of every stage's input passes through, and it goes through
// a string's plain bytes several times faster than encoding/json's
// scanner, which steps through a state function per byte.
func valid(b []byte) bool { return validMembers(b, nil) }

// validMembers is valid, and when b is an object hands member each of its
// top-level members as it checks them: the key's literal and the value's
// bytes, both as written. A member seen before b turns out invalid has
// been handed over all the same.
func validMembers(b []byte, member func(key, val []byte)) bool {
	v := validator{b: b, member: member}
	i, ok := v.value(v.space(0), 0)
	return ok && v.space(i) == len(b)
}

// maxDepth is encoding/json's nesting limit (its scanner's
// maxNestingDepth): arrays and objects nested deeper are an error.
const maxDepth = 10000

type validator struct {
	b      []byte
	member func(key, val []byte) // of the top-level object, or nil
}

// plain marks the bytes a string holds as themselves: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (v *validator) space(i int) int {
	for i < len(v.b) {
		switch v.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value checks the value at i (no space before it) and returns the index
// past it.
func (v *validator) value(i, depth int) (int, bool) {
	if i >= len(v.b) {
		return i, false
	}
	switch c := v.b[i]; {
	case c == '"':
		return v.str(i)
	case c == '{' || c == '[':
		if depth+1 > maxDepth {
			return i, false
		}
		return v.composite(i, depth+1)
	case c == '-' || '0' <= c && c <= '9':
		return v.number(i)
	case c == 't':
		return v.literal(i, "true")
	case c == 'f':
		return v.literal(i, "false")
	case c == 'n':
		return v.literal(i, "null")
	}
	return i, false
}

// composite checks the object or array opening at i.
func (v *validator) composite(i, depth int) (int, bool) {
	obj := v.b[i] == '{'
	closer := byte(']')
	if obj {
		closer = '}'
	}
	i = v.space(i + 1)
	if i < len(v.b) && v.b[i] == closer {
		return i + 1, true
	}
	for {
		var ok bool
		var key []byte
		if obj {
			if i >= len(v.b) || v.b[i] != '"' {
				return i, false
			}
			start := i
			if i, ok = v.str(i); !ok {
				return i, false
			}
			key = v.b[start:i]
			if i = v.space(i); i >= len(v.b) || v.b[i] != ':' {
				return i, false
			}
			i = v.space(i + 1)
		}
		val := i
		if i, ok = v.value(i, depth); !ok {
			return i, false
		}
		if obj && depth == 1 && v.member != nil {
			v.member(key, v.b[val:i])
		}
		if i = v.space(i); i >= len(v.b) {
			return i, false
		}
		switch v.b[i] {
		case ',':
			i = v.space(i + 1)
		case closer:
			return i + 1, true
		default:
			return i, false
		}
	}
}

// str checks the string opening at i.
func (v *validator) str(i int) (int, bool) {
	b := v.b
	for i++; i < len(b); i++ {
		c := b[i]
		if plain[c] {
			continue
		}
		switch c {
		case '"':
			return i + 1, true
		case '\\':
			if i+1 >= len(b) {
				return i, false
			}
			i++
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return i, false
				}
				i += 4
			default:
				return i, false
			}
		default: // a control character
			return i, false
		}
	}
	return i, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func (v *validator) number(i int) (int, bool) {
	b := v.b
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

func (v *validator) literal(i int, lit string) (int, bool) {
	if len(v.b)-i < len(lit) || string(v.b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}
