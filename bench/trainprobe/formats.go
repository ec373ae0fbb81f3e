package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// parseJSON reads the texts of a JSON file: "json:<field>" is an array of
// objects, "jsonl:<field>" one object a line, each with the text in field
// (a string, or a list of lines joined); "json-lists" is an object of
// categories, each a list of texts.
func parseJSON(kind, field string, b []byte) ([]string, error) {
	switch kind {
	case "json-lists":
		var m map[string][]string
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("json: %v", err)
		}
		var out []string
		for _, c := range slices.Sorted(maps.Keys(m)) {
			out = append(out, m[c]...)
		}
		return out, nil
	case "json":
		var objs []map[string]json.RawMessage
		if err := json.Unmarshal(b, &objs); err != nil {
			return nil, fmt.Errorf("json: %v", err)
		}
		out := make([]string, len(objs))
		for i, o := range objs {
			t, err := jsonText(o[field])
			if err != nil {
				return nil, fmt.Errorf("json: element %d: %s: %v", i, field, err)
			}
			out[i] = t
		}
		return out, nil
	}
	var out []string
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var o map[string]json.RawMessage
		if err := json.Unmarshal(line, &o); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		t, err := jsonText(o[field])
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", i+1, field, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// jsonText is a JSON string, or a list of strings joined by newlines.
func jsonText(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", fmt.Errorf("neither a string nor a list of strings")
	}
	return strings.Join(lines, "\n"), nil
}

// parseRegex returns group 1 of every match of re in a source file: a
// double-quoted string literal's body (JavaScript, TypeScript or Python),
// its escapes decoded.
func parseRegex(expr string, b []byte) ([]string, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("regex: %v", err)
	}
	if re.NumSubexp() < 1 {
		return nil, fmt.Errorf("regex: %q has no group", expr)
	}
	var out []string
	for _, m := range re.FindAllSubmatch(b, -1) {
		out = append(out, unquote(string(m[1])))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("regex: no match of %q", expr)
	}
	return out, nil
}

// unquote decodes the escapes of a double-quoted literal's body; an escape
// Go does not know (Python's \', JavaScript's \/) is kept as its character.
func unquote(body string) string {
	if s, err := strconv.Unquote(`"` + body + `"`); err == nil {
		return s
	}
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\'`, `'`, `\\`, `\`, `\/`, `/`).Replace(body)
}
