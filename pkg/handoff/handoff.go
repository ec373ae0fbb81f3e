// Package handoff reads guild handoff receipts (.guild/runs/<run-id>/handoffs/*.md).
//
// A receipt is markdown whose YAML frontmatter (guild.handoff_receipt.v1) is for
// human review only; its machine truth is exactly one fenced block with the info
// string guild.handoff.v2 holding a JSON object. The object's fields, their types,
// enumerations and length limits are checked here, unknown and duplicate keys are
// errors, and a receipt with frontmatter but no v2 block is refused: it is not a
// machine receipt. Every error names the receipt file and line.
package handoff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/rtch/rtch/pkg/wiki"
)

// SchemaVersion is the only schema_version a v2 block may carry.
const SchemaVersion = "guild.handoff.v2"

// Limits of SPEC §10, in Unicode code points.
const (
	MaxSummary = 600
	MaxNotes   = 200
)

// Contract is the decoded guild.handoff.v2 block.
type Contract struct {
	// SchemaVersion is always "guild.handoff.v2".
	SchemaVersion string `json:"schema_version"`
	// TaskID is the plan task the receipt closes, e.g. T1-architect.
	TaskID string `json:"task_id"`
	// Tier is the model tier that did the work: cheap, mid or powerful.
	Tier string `json:"tier"`
	// Status is done, blocked or escalate.
	Status string `json:"status"`
	// Summary is at most 600 code points.
	Summary string `json:"summary"`
	// Artifacts lists what the lane produced (paths, ids); may be empty.
	Artifacts []string `json:"artifacts"`
	// Issues lists open problems; may be empty.
	Issues []string `json:"issues"`
	// EscalateReason says why; required when Status is escalate.
	EscalateReason string `json:"escalate_reason,omitempty"`
	// Learnings are lessons for later lanes.
	Learnings []string `json:"learnings,omitempty"`
	// Notes is at most 200 code points.
	Notes string `json:"notes,omitempty"`
	// InjectionClean is clean, flagged or unverified.
	InjectionClean string `json:"injection_clean,omitempty"`
}

// Receipt is one parsed receipt file.
type Receipt struct {
	// Path is the file as named to Parse.
	Path string
	// Fenced is the v2 block verbatim, opening and closing fence lines included:
	// what a downstream bundle quotes as the upstream contract.
	Fenced string
	// Line is the 1-based line of the block's opening fence.
	Line int
	// HasFrontmatter reports a YAML frontmatter block (human review only).
	HasFrontmatter bool
	// Contract is the decoded block.
	Contract Contract
}

// Error is a problem at a position in a receipt file.
type Error struct {
	File string
	Line int
	Msg  string
}

// frontmatterOnlyMsg opens the message of a file with receipt frontmatter and
// no v2 block: not a machine receipt, which a reader may list, not refuse.
const frontmatterOnlyMsg = "frontmatter-only receipt is not a machine receipt"

// IsFrontmatterOnly reports an error that only says the file is a
// frontmatter-only receipt.
func IsFrontmatterOnly(err error) bool {
	var e *Error
	return errors.As(err, &e) && strings.HasPrefix(e.Msg, frontmatterOnlyMsg)
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

var fenceRE = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})[ \t]*([^`]*?)[ \t]*$")

// Block is the located v2 block of a receipt.
type Block struct {
	// JSON is the text between the fences.
	JSON string
	// Fenced is the block verbatim with its fence lines.
	Fenced string
	// Line is the 1-based line of the opening fence; JSON starts on Line+1.
	Line int
}

// ExtractBlock finds the guild.handoff.v2 fenced blocks of normalised markdown
// text. Fences follow CommonMark: ``` or ~~~ (three or more), closed by the same
// character at least as long; fences inside other fenced blocks are content. It
// errors when there is no such block, more than one, or one left open.
func ExtractBlock(name, text string) (Block, error) {
	lines := strings.SplitAfter(text, "\n")
	var found []Block
	var open string // the fence of the block we are inside, "" outside
	var isV2 bool
	var start int
	for i, l := range lines {
		bare := strings.TrimRight(l, "\n")
		m := fenceRE.FindStringSubmatch(bare)
		if open != "" {
			if m != nil && m[2][0] == open[0] && len(m[2]) >= len(open) && m[3] == "" {
				if isV2 {
					found = append(found, Block{
						JSON:   strings.Join(lines[start+1:i], ""),
						Fenced: strings.Join(lines[start:i+1], ""),
						Line:   start + 1,
					})
				}
				open = ""
			}
			continue
		}
		if m == nil {
			continue
		}
		if m[2][0] == '`' && strings.Contains(m[3], "`") {
			continue // not a fence: CommonMark forbids backticks in a backtick fence's info
		}
		open, start = m[2], i
		if f := strings.Fields(m[3]); len(f) > 0 {
			isV2 = f[0] == SchemaVersion
		} else {
			isV2 = false
		}
	}
	if open != "" && isV2 {
		return Block{}, &Error{name, start + 1, "guild.handoff.v2 block is never closed (no matching " + open + " fence)"}
	}
	switch len(found) {
	case 0:
		return Block{}, &Error{name, 1, "no ```guild.handoff.v2 block"}
	case 1:
		if !strings.HasSuffix(found[0].Fenced, "\n") {
			found[0].Fenced += "\n"
		}
		return found[0], nil
	default:
		var at []string
		for _, b := range found {
			at = append(at, fmt.Sprint(b.Line))
		}
		return Block{}, &Error{name, found[1].Line, fmt.Sprintf("%d guild.handoff.v2 blocks (lines %s); a receipt has exactly one", len(found), strings.Join(at, ", "))}
	}
}

// Parse reads a receipt; name is used in errors. All problems in the block are
// returned together (errors.Join of *Error values).
func Parse(name string, data []byte) (*Receipt, error) {
	text := wiki.NormalizeText(data)
	_, _, _, hasFront, _ := wiki.SplitFrontmatter(text)
	blk, err := ExtractBlock(name, text)
	if err != nil {
		var e *Error
		if hasFront && errors.As(err, &e) && strings.HasPrefix(e.Msg, "no ") {
			e.Msg = frontmatterOnlyMsg + ": no ```guild.handoff.v2 block (the guild.handoff_receipt.v1 frontmatter is for human review only)"
		}
		return nil, err
	}
	r := &Receipt{Path: name, Fenced: blk.Fenced, Line: blk.Line, HasFrontmatter: hasFront}
	c, err := decode(name, blk)
	if err != nil {
		return nil, err
	}
	r.Contract = c
	return r, nil
}

// decode checks the block's JSON key by key so each error names its line.
// Broken JSON stops at the first error; every problem with the keys and
// values is reported, in line order.
func decode(name string, blk Block) (Contract, error) {
	d := &blockDecoder{name: name, blk: blk}
	if err := d.readObject(); err != nil {
		return Contract{}, err
	}
	d.unknownKeys()
	c := d.contract()
	if len(d.errs) > 0 {
		sort.SliceStable(d.errs, func(i, j int) bool { return d.errs[i].(*Error).Line < d.errs[j].(*Error).Line })
		return Contract{}, errors.Join(d.errs...)
	}
	return c, nil
}

// blockDecoder holds a handoff block's top-level values by key, the offset
// of each key in the JSON, and the problems found so far.
type blockDecoder struct {
	name    string
	blk     Block
	raw     map[string]json.RawMessage
	keyLine map[string]int64 // the offset in blk.JSON after each key
	errs    []error
}

// lineAt is the file line of an offset in the block's JSON; a negative
// offset means the block as a whole (its opening line).
func (d *blockDecoder) lineAt(off int64) int {
	if off < 0 {
		return d.blk.Line
	}
	if off > int64(len(d.blk.JSON)) {
		off = int64(len(d.blk.JSON))
	}
	return d.blk.Line + 1 + strings.Count(d.blk.JSON[:off], "\n")
}

// fail records a problem at the line of an offset.
func (d *blockDecoder) fail(off int64, format string, args ...any) {
	d.errs = append(d.errs, &Error{d.name, d.lineAt(off), fmt.Sprintf(format, args...)})
}

// notJSON is the error that stops decoding at broken JSON.
func (d *blockDecoder) notJSON(err error, dec *json.Decoder) error {
	return &Error{d.name, d.lineAt(syntaxOffset(err, dec)), "guild.handoff.v2 block is not JSON: " + err.Error()}
}

// readObject reads the block as one JSON object, keeping each key's raw
// value and offset. A key given twice is a problem (the first value is
// kept); anything but one well-formed object is an error that ends
// decoding.
func (d *blockDecoder) readObject() error {
	dec := json.NewDecoder(strings.NewReader(d.blk.JSON))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		if err != nil {
			return d.notJSON(err, dec)
		}
		return &Error{d.name, d.blk.Line + 1, "guild.handoff.v2 block must be a JSON object"}
	}
	d.raw, d.keyLine = map[string]json.RawMessage{}, map[string]int64{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return d.notJSON(err, dec)
		}
		key, _ := tok.(string)
		off := dec.InputOffset()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return d.notJSON(err, dec)
		}
		if _, dup := d.raw[key]; dup {
			d.fail(off, "key %q appears twice", key)
			continue
		}
		d.raw[key], d.keyLine[key] = v, off
	}
	if _, err := dec.Token(); err != nil {
		return d.notJSON(err, dec)
	}
	if _, err := dec.Token(); err != io.EOF {
		return &Error{d.name, d.lineAt(dec.InputOffset()), "text after the JSON object in the guild.handoff.v2 block"}
	}
	return nil
}

// unknownKeys reports, in the order they are written, the keys that are
// no field of the contract.
func (d *blockDecoder) unknownKeys() {
	var keys []string
	for k := range d.raw {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return d.keyLine[keys[i]] < d.keyLine[keys[j]] })
	for _, k := range keys {
		if !slices.Contains(fieldNames, k) {
			d.fail(d.keyLine[k], "unknown key %q (allowed: %s)", k, strings.Join(fieldNames, ", "))
		}
	}
}

// contract reads each field of the contract, which ones are required, and
// the values and lengths each allows.
func (d *blockDecoder) contract() Contract {
	var c Contract
	c.SchemaVersion = d.str("schema_version", true, []string{SchemaVersion}, 0)
	c.TaskID = d.str("task_id", true, nil, 0)
	c.Tier = d.str("tier", true, []string{"cheap", "mid", "powerful"}, 0)
	c.Status = d.str("status", true, []string{"done", "blocked", "escalate"}, 0)
	c.Summary = d.str("summary", true, nil, MaxSummary)
	c.Artifacts = d.list("artifacts", true)
	c.Issues = d.list("issues", true)
	c.EscalateReason = d.str("escalate_reason", c.Status == "escalate", nil, 0)
	c.Learnings = d.list("learnings", false)
	c.Notes = d.str("notes", false, nil, MaxNotes)
	c.InjectionClean = d.str("injection_clean", false, []string{"clean", "flagged", "unverified"}, 0)
	return c
}

// str reads a string field: a required one must be present and not blank,
// one with allowed values must be one of them, one with a max at most that
// many characters. A problem is recorded; the value is still returned.
func (d *blockDecoder) str(key string, required bool, allowed []string, max int) string {
	v, ok := d.raw[key]
	if !ok {
		if required {
			d.fail(-1, "missing required key %q", key)
		}
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil || bytes.Equal(v, []byte("null")) {
		d.fail(d.keyLine[key], "%s must be a string, got %s", key, clip(string(v)))
		return ""
	}
	switch {
	case required && strings.TrimSpace(s) == "":
		d.fail(d.keyLine[key], "%s is empty", key)
	case allowed != nil && !slices.Contains(allowed, s):
		d.fail(d.keyLine[key], "%s is %q, want one of %s", key, s, strings.Join(allowed, ", "))
	case max > 0 && utf8.RuneCountInString(s) > max:
		d.fail(d.keyLine[key], "%s is %d characters, over the %d limit", key, utf8.RuneCountInString(s), max)
	}
	return s
}

// list reads an array-of-strings field ([] when present but empty); a
// required one must be present, and no entry may be blank.
func (d *blockDecoder) list(key string, required bool) []string {
	v, ok := d.raw[key]
	if !ok {
		if required {
			d.fail(-1, "missing required key %q (use [] when there are none)", key)
		}
		return nil
	}
	var out []string
	if err := json.Unmarshal(v, &out); err != nil || bytes.Equal(v, []byte("null")) {
		d.fail(d.keyLine[key], "%s must be an array of strings, got %s", key, clip(string(v)))
		return nil
	}
	if out == nil {
		out = []string{}
	}
	for i, s := range out {
		if strings.TrimSpace(s) == "" {
			d.fail(d.keyLine[key], "%s[%d] is empty", key, i)
		}
	}
	return out
}

// fieldNames are the keys a v2 block may hold.
var fieldNames = []string{"schema_version", "task_id", "tier", "status", "summary", "artifacts", "issues", "escalate_reason", "learnings", "notes", "injection_clean"}

// syntaxOffset is where a JSON error happened, as well as the decoder knows.
func syntaxOffset(err error, dec *json.Decoder) int64 {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Offset
	}
	return dec.InputOffset()
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// LoadDir parses every *.md receipt directly in dir, in name order. display is
// the directory as it should appear in errors (relative to the project root).
// Receipts that parse are returned even when others fail; err joins the failures.
func LoadDir(dir, display string) ([]*Receipt, error) {
	files, err := loadFiles(dir, display)
	if err != nil {
		return nil, err
	}
	var out []*Receipt
	var errs []error
	for _, f := range files {
		if f.Err != nil {
			errs = append(errs, f.Err)
			continue
		}
		out = append(out, f.Receipt)
	}
	return out, errors.Join(errs...)
}

// File is one *.md file of a handoffs directory: a receipt, or the error that
// says why it is not one.
type File struct {
	// Path is the file as displayed (display dir joined with the name).
	Path string
	// Receipt is the parsed receipt; nil when Err is set.
	Receipt *Receipt
	// Err is why the file is not a machine receipt (IsFrontmatterOnly tells
	// the frontmatter-only case from a broken one).
	Err error
	// FrontTaskID is the task_id of the file's frontmatter, "" when it has
	// none: how a frontmatter-only receipt can still be named.
	FrontTaskID string
}

// LoadFiles is LoadDir that keeps every file's outcome, in name order, so a
// reader can list frontmatter-only receipts instead of refusing the run.
func LoadFiles(dir, display string) ([]File, error) { return loadFiles(dir, display) }

func loadFiles(dir, display string) ([]File, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []File
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		name := filepath.ToSlash(filepath.Join(display, e.Name()))
		f := File{Path: name}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			f.Err = fmt.Errorf("%s: %w", name, errors.Unwrap(err))
			out = append(out, f)
			continue
		}
		f.Receipt, f.Err = Parse(name, data)
		f.FrontTaskID = frontTaskID(data)
		out = append(out, f)
	}
	return out, nil
}

// frontTaskID reads task_id from a receipt's YAML frontmatter ("" when absent
// or not a string).
func frontTaskID(data []byte) string {
	front, _, _, ok, _ := wiki.SplitFrontmatter(wiki.NormalizeText(data))
	if !ok {
		return ""
	}
	var m map[string]any
	if yaml.Unmarshal([]byte(front), &m) != nil {
		return ""
	}
	s, _ := m["task_id"].(string)
	return strings.TrimSpace(s)
}
