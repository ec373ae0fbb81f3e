package scout

import (
	"bytes"
	"strings"
)

type heading struct {
	line, level int
	text        string
}

type key struct {
	line int
	key  string
}

// lines calls fn for each line (without terminator) with its 1-based number;
// fn returns false to stop.
func lines(data []byte, fn func(no int, line []byte) bool) {
	no := 0
	for len(data) > 0 {
		no++
		i := bytes.IndexByte(data, '\n')
		var l []byte
		if i < 0 {
			l, data = data, nil
		} else {
			l, data = data[:i], data[i+1:]
		}
		if !fn(no, bytes.TrimSuffix(l, []byte{'\r'})) {
			return
		}
	}
}

// headings returns ATX headings of levels 1–3 outside fenced code blocks.
func headings(data []byte) []heading {
	var out []heading
	fence := ""
	lines(data, func(no int, l []byte) bool {
		t := bytes.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			return true
		}
		if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
			f := string(t[:3])
			if fence == "" {
				fence = f
			} else if fence == f {
				fence = ""
			}
			return true
		}
		if fence != "" || len(t) == 0 || t[0] != '#' {
			return true
		}
		lvl := 0
		for lvl < len(t) && t[lvl] == '#' {
			lvl++
		}
		if lvl > 3 || (lvl < len(t) && t[lvl] != ' ' && t[lvl] != '\t') {
			return true
		}
		text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(string(t[lvl:])), "#"))
		if text != "" {
			out = append(out, heading{no, lvl, text})
		}
		return true
	})
	return out
}

// frontmatterKeys returns the top-level keys of a leading YAML frontmatter block.
func frontmatterKeys(data []byte) []key {
	var out []key
	if !bytes.HasPrefix(data, []byte("---")) {
		return nil
	}
	closed := false
	lines(data, func(no int, l []byte) bool {
		if no == 1 {
			return strings.TrimSpace(string(l)) == "---"
		}
		if s := strings.TrimSpace(string(l)); s == "---" || s == "..." {
			closed = true
			return false
		}
		if no > 200 {
			return false
		}
		if k := yamlKey(l, true); k != "" {
			out = append(out, key{no, k})
		}
		return true
	})
	if !closed {
		return nil
	}
	return out
}

// yamlKey returns the key of a "key: value" line ("" when none); top requires
// column 0.
func yamlKey(l []byte, top bool) string {
	t := bytes.TrimLeft(l, " ")
	if top && len(t) != len(l) {
		return ""
	}
	t = bytes.TrimPrefix(t, []byte("- "))
	i := 0
	for i < len(t) && (isKeyByte(t[i])) {
		i++
	}
	if i == 0 || i >= len(t) || t[i] != ':' {
		return ""
	}
	if i+1 < len(t) && t[i+1] != ' ' && t[i+1] != '\t' {
		return ""
	}
	return string(t[:i])
}

func isKeyByte(b byte) bool {
	return b == '_' || b == '-' || b == '.' || b == '$' || b == '@' || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') || ('0' <= b && b <= '9')
}

// yamlKeys returns up to max keys of a YAML file (any depth), skipping block scalars.
func yamlKeys(data []byte, max int) []key {
	var out []key
	lines(data, func(no int, l []byte) bool {
		if k := yamlKey(l, false); k != "" {
			out = append(out, key{no, k})
		}
		return len(out) < max
	})
	return out
}

// tomlKeys returns up to max keys and table names of a TOML file.
func tomlKeys(data []byte, max int) []key {
	var out []key
	lines(data, func(no int, l []byte) bool {
		t := bytes.TrimSpace(l)
		if len(t) == 0 || t[0] == '#' {
			return true
		}
		if t[0] == '[' {
			name := strings.Trim(string(t), "[] ")
			if name != "" {
				out = append(out, key{no, name})
			}
			return len(out) < max
		}
		i := 0
		for i < len(t) && isKeyByte(t[i]) {
			i++
		}
		if i > 0 && bytes.HasPrefix(bytes.TrimLeft(t[i:], " \t"), []byte("=")) {
			out = append(out, key{no, string(t[:i])})
		}
		return len(out) < max
	})
	return out
}

// jsonKeys returns up to max object keys of a JSON document: every string
// followed by ':'. It never builds the document, so a deeply nested or
// enormous file costs one linear pass.
func jsonKeys(data []byte, max int) []key {
	var out []key
	line := 1
	for i := 0; i < len(data) && len(out) < max; i++ {
		switch data[i] {
		case '\n':
			line++
		case '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				if j < len(data) && data[j] == '\n' {
					break
				}
				j++
			}
			if j >= len(data) {
				return out
			}
			k := j + 1
			for k < len(data) && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r' || data[k] == '\n') {
				k++
			}
			if k < len(data) && data[k] == ':' && j-i-1 <= 200 {
				out = append(out, key{line, string(data[i+1 : j])})
			}
			line += bytes.Count(data[i:j], []byte{'\n'})
			i = j
		}
	}
	return out
}
