package intake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/rtch/rtch/pkg/schema"

	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// FileError is a problem in an intake file; its message is "<file>:<line>: …"
// (or "<file>: …" when no line is known).
type FileError struct {
	File string
	Line int
	Msg  string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// fileFields is an intake file: the record's own keys, top level.
type fileFields struct {
	Goal                     string   `toml:"goal" json:"goal"`
	TargetProfile            string   `toml:"target_profile" json:"target_profile"`
	FanoutLevel              string   `toml:"fanout_level" json:"fanout_level"`
	MutationRisk             string   `toml:"mutation_risk" json:"mutation_risk"`
	ExpectedOutput           string   `toml:"expected_output" json:"expected_output"`
	EnoughEvidenceDefinition string   `toml:"enough_evidence_definition" json:"enough_evidence_definition"`
	KnownTarget              string   `toml:"known_target" json:"known_target"`
	ExplicitSeeds            []string `toml:"explicit_seeds" json:"explicit_seeds"`
	ForbiddenAssumptions     []string `toml:"forbidden_assumptions" json:"forbidden_assumptions"`
	KnownNeighborSurfaces    []string `toml:"known_neighbor_surfaces" json:"known_neighbor_surfaces"`
	BudgetTokens             int      `toml:"budget_tokens" json:"budget_tokens"`
}

func (f fileFields) intake() schema.IntakeFields {
	return schema.IntakeFields{
		Goal:                     f.Goal,
		TargetProfile:            f.TargetProfile,
		FanoutLevel:              f.FanoutLevel,
		MutationRisk:             f.MutationRisk,
		ExpectedOutput:           f.ExpectedOutput,
		EnoughEvidenceDefinition: f.EnoughEvidenceDefinition,
		KnownTarget:              f.KnownTarget,
		ExplicitSeeds:            f.ExplicitSeeds,
		ForbiddenAssumptions:     f.ForbiddenAssumptions,
		KnownNeighborSurfaces:    f.KnownNeighborSurfaces,
		BudgetTokens:             f.BudgetTokens,
	}
}

// recordOnlyKeys are the keys of an emitted rtch.intake record that are derived,
// not input: a previous record may be fed back as an intake file.
var recordOnlyKeys = map[string]bool{
	"kind": true, "v": true, "id": true, "intake_hash": true,
	"source": true, "warnings": true, "goal_terms": true,
}

// ParseFile parses an intake file. The format follows the extension (.toml,
// .json); any other name is JSON when its first non-space byte is "{" and TOML
// otherwise. The keys are the rtch.intake record's own (goal, target_profile,
// …); an unknown key, a wrong type or a syntax error is a *FileError naming the
// file and line. A JSON rtch.intake record (a line of a previous run) is
// accepted too: its derived keys (kind, v, id, intake_hash, source, warnings,
// goal_terms) are ignored.
func ParseFile(name string, data []byte) (schema.IntakeFields, error) {
	if !utf8.Valid(data) {
		return schema.IntakeFields{}, &FileError{name, lineOfInvalidUTF8(data), "not valid UTF-8"}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	switch strings.ToLower(filepath.Ext(name)) {
	case ".toml":
		return parseTOML(name, data)
	case ".json":
		return parseJSON(name, data)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return parseJSON(name, data)
	}
	return parseTOML(name, data)
}

func lineOfInvalidUTF8(data []byte) int {
	line := 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		data = data[size:]
	}
	return line
}

var tomlLineRe = lazyre.New(`^toml: line (\d+)`)

func parseTOML(name string, data []byte) (schema.IntakeFields, error) {
	var ff fileFields
	md, err := toml.Decode(string(data), &ff)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return schema.IntakeFields{}, &FileError{name, pe.Position.Line, pe.Message}
		}
		msg := err.Error()
		line := 0
		if m := tomlLineRe().FindStringSubmatch(msg); m != nil {
			fmt.Sscan(m[1], &line)
			msg = strings.TrimSpace(strings.TrimPrefix(msg[len(m[0]):], ":"))
		}
		return schema.IntakeFields{}, &FileError{name, line, strings.TrimPrefix(msg, "toml: ")}
	}
	if und := md.Undecoded(); len(und) > 0 {
		// Name an unknown table once, not again for each key inside it.
		var keys []string
		var first toml.Key
		for _, k := range und {
			if len(k) > 1 && slices.ContainsFunc(und, func(o toml.Key) bool { return len(o) < len(k) && o.String() == k[:len(o)].String() }) {
				continue
			}
			if first == nil {
				first = k
			}
			keys = append(keys, k.String())
		}
		if first == nil {
			first = und[0]
			keys = []string{first.String()}
		}
		sort.Strings(keys)
		return schema.IntakeFields{}, &FileError{name, keyLine(data, first[len(first)-1], false), "unknown key " + strings.Join(keys, ", unknown key ")}
	}
	return ff.intake(), nil
}

func parseJSON(name string, data []byte) (schema.IntakeFields, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return schema.IntakeFields{}, jsonError(name, data, err)
	}
	if top == nil {
		return schema.IntakeFields{}, &FileError{name, 1, "an intake file is a JSON object"}
	}
	isRecord := false
	if k, ok := top["kind"]; ok {
		var kind string
		if json.Unmarshal(k, &kind) == nil && kind == schema.KindIntake {
			isRecord = true
		}
	}
	known := map[string]bool{}
	for _, fd := range Fields {
		known[fd.Key] = true
	}
	var unknown []string
	for k := range top {
		if known[k] || (isRecord && recordOnlyKeys[k]) {
			continue
		}
		unknown = append(unknown, k)
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return schema.IntakeFields{}, &FileError{name, keyLine(data, unknown[0], true), "unknown key " + strings.Join(unknown, ", unknown key ")}
	}
	var ff fileFields
	for _, fd := range Fields {
		raw, ok := top[fd.Key]
		if !ok {
			continue
		}
		one, _ := json.Marshal(map[string]json.RawMessage{fd.Key: raw})
		if err := json.Unmarshal(one, &ff); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return schema.IntakeFields{}, &FileError{name, keyLine(data, fd.Key, true), fmt.Sprintf("%s: want %s, not JSON %s", fd.Key, te.Type, te.Value)}
			}
			return schema.IntakeFields{}, &FileError{name, keyLine(data, fd.Key, true), fmt.Sprintf("%s: %v", fd.Key, err)}
		}
	}
	return ff.intake(), nil
}

func jsonError(name string, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &FileError{name, lineAt(data, int(se.Offset)), "invalid JSON: " + se.Error()}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &FileError{name, lineAt(data, int(te.Offset)), "an intake file is a JSON object, not " + te.Value}
	}
	return &FileError{name, 0, "invalid JSON: " + err.Error()}
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// keyLine finds the line where key is defined, 0 when it cannot be found.
func keyLine(data []byte, key string, isJSON bool) int {
	var re *regexp.Regexp
	if isJSON {
		q, _ := json.Marshal(key)
		re = regexp.MustCompile(regexp.QuoteMeta(string(q)) + `\s*:`)
	} else {
		re = regexp.MustCompile(`(?m)^[ \t]*(?:` + regexp.QuoteMeta(key) + `|"` + regexp.QuoteMeta(key) + `"|\[+\s*` + regexp.QuoteMeta(key) + `)\s*[=\]]`)
	}
	if loc := re.FindIndex(data); loc != nil {
		return lineAt(data, loc[0])
	}
	return 0
}
