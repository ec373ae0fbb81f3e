// Package gate is the effective-record gate (SPEC §6). Append-only JSONL
// record surfaces may hold corrections: rows with "type":"record_correction"
// that patch an earlier record with an RFC 7396 JSON Merge Patch. The gate
// reads every surface, resolves the corrections, computes each corrected
// record's effective view, and says whether a reader may trust the raw lines:
// safe (no correction changes anything), corrected (read the effective views,
// not the raw lines) or blocked (some correction cannot be resolved).
//
// The package reads files and returns values; it never parses flags or exits.
package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// Gate statuses.
const (
	StatusSafe      = "safe"
	StatusCorrected = "corrected"
	StatusBlocked   = "blocked"
)

// Unresolved reasons. Any of them blocks.
const (
	ReasonMissingTarget     = "missing_target"
	ReasonAmbiguousTarget   = "ambiguous_target"
	ReasonMissingSuperseded = "missing_superseded"
	ReasonCycle             = "cycle"
	ReasonDuplicateID       = "duplicate_correction_id"
	ReasonMalformedEnvelope = "malformed_envelope"
	ReasonInvalidJSON       = "invalid_json"
)

// Lifecycle states of a correction.
const (
	StateProposed   = "proposed"
	StateAuthorized = "authorized"
	StateRatified   = "ratified"
	StateSuperseded = "superseded"
	StateRevoked    = "revoked"
)

// CorrectionType is the "type" of a correction row.
const CorrectionType = "record_correction"

// Defaults of the configurable parts.
var (
	DefaultSurfaces = []string{"audit-logs/**/*.jsonl"}
	DefaultIDFields = []string{"id", "record_id"}
)

// Problem is one unresolved case; it is the record's Unresolved entry.
type Problem = schema.Unresolved

// Options configure Evaluate.
type Options struct {
	// FS is the zone root.
	FS fs.FS
	// Surfaces are the surface globs; empty means DefaultSurfaces.
	Surfaces []string
	// IDFields are a base record's identifier fields, first present wins;
	// empty means DefaultIDFields.
	IDFields []string
}

// Evaluate finds and reads the surfaces and returns the rtch.gate record.
// Problems in the surfaces are part of the record (they block); an error means
// a surface could not be found or read at all.
func Evaluate(o Options) (schema.Gate, error) {
	globs := o.Surfaces
	if len(globs) == 0 {
		globs = DefaultSurfaces
	}
	paths, err := FindSurfaces(o.FS, globs)
	if err != nil {
		return schema.Gate{}, err
	}
	digest := sha256.New()
	var (
		rows  []Row
		probs []Problem
	)
	for _, p := range paths {
		f, err := o.FS.Open(p)
		if err != nil {
			return schema.Gate{}, err
		}
		// The digest covers each surface's path, size and bytes, in path order.
		var content bytes.Buffer
		_, err = io.Copy(&content, f)
		f.Close()
		if err != nil {
			return schema.Gate{}, fmt.Errorf("%s: read: %w", p, err)
		}
		fmt.Fprintf(digest, "%s\x00%d\x00", p, content.Len())
		digest.Write(content.Bytes())
		r, pr, err := ReadSurface(&content, p)
		if err != nil {
			return schema.Gate{}, err
		}
		rows = append(rows, r...)
		probs = append(probs, pr...)
	}
	g := Resolve(rows, paths, o.IDFields)
	g.Unresolved = sortProblems(append(probs, g.Unresolved...))
	g.SourceDigest = hex.EncodeToString(digest.Sum(nil))
	g.Envelope = record.Env(schema.KindGate, schema.V1, g.SourceDigest)
	g.Status = status(g)
	return g, nil
}

func status(g schema.Gate) string {
	switch {
	case len(g.Unresolved) > 0:
		return StatusBlocked
	case len(g.EffectiveRecords) > 0:
		return StatusCorrected
	}
	return StatusSafe
}

// correction is a decoded correction row.
type correction struct {
	row        Row
	id         string
	target     string
	surface    string
	patch      map[string]any
	supersedes []string
	state      string
	at         time.Time
	valid      bool
}

// base is a base record: a row with an identifier field.
type base struct {
	row Row
	id  string
}

// Resolve computes the gate over rows already read from the given surfaces:
// the effective records whose view differs from their base, and every
// unresolved case. Status, digest and envelope are left to the caller
// (Evaluate fills them).
func Resolve(rows []Row, surfaces []string, idFields []string) schema.Gate {
	if len(idFields) == 0 {
		idFields = DefaultIDFields
	}
	r := &resolver{g: schema.Gate{Surfaces: append([]string{}, surfaces...), EffectiveRecords: []schema.EffectiveRecord{}, Unresolved: []Problem{}}}
	if r.g.Surfaces == nil {
		r.g.Surfaces = []string{}
	}
	r.split(rows, idFields)
	r.duplicates()
	r.findTargets(surfaces)
	r.supersession()
	r.apply()
	r.g.Unresolved = sortProblems(r.g.Unresolved)
	return r.g
}

// resolver is Resolve's state, built up step by step: each step reads what
// the ones before it decided and adds its problems to g.Unresolved.
type resolver struct {
	g     schema.Gate
	corrs []*correction
	// bases are the base records by surface and identifier: more than one
	// is an ambiguous target.
	bases map[[2]string][]base
	// byID are the corrections by id, in row order; dup the ids used twice.
	byID map[string][]*correction
	dup  map[string]bool
	// targets are the base records of the valid corrections whose target
	// is one record.
	targets map[*correction]base
	// inCycle are the corrections on a supersedes cycle; superseded those
	// a state or another correction supersedes.
	inCycle, superseded map[string]bool
}

// problem is an unresolved case located at the correction's row.
func (c *correction) problem(reason, detail string) Problem {
	return Problem{Reason: reason, Location: c.row.Location(), CorrectionID: c.id, TargetRecordID: c.target, Detail: detail}
}

// split sorts the rows into corrections (a malformed one is a problem, and
// stays in the list invalid) and base records, the rows with an identifier.
func (r *resolver) split(rows []Row, idFields []string) {
	r.bases = map[[2]string][]base{}
	for _, row := range rows {
		if t, _ := row.Value["type"].(string); t == CorrectionType {
			c, p := decodeCorrection(row)
			if p != nil {
				r.g.Unresolved = append(r.g.Unresolved, *p)
			}
			r.corrs = append(r.corrs, c)
			continue
		}
		if id, ok := recordID(row.Value, idFields); ok {
			k := [2]string{row.Surface, id}
			r.bases[k] = append(r.bases[k], base{row, id})
		}
	}
}

// duplicates indexes the corrections by id. Of an id used more than once,
// every occurrence after the first is reported, and none of them is
// applied.
func (r *resolver) duplicates() {
	r.byID = map[string][]*correction{}
	for _, c := range r.corrs {
		if c.id != "" {
			r.byID[c.id] = append(r.byID[c.id], c)
		}
	}
	r.dup = map[string]bool{}
	for id, cs := range r.byID {
		if len(cs) < 2 {
			continue
		}
		r.dup[id] = true
		for _, c := range cs[1:] {
			r.g.Unresolved = append(r.g.Unresolved, c.problem(ReasonDuplicateID,
				fmt.Sprintf("correction id %q is also used at %s", id, cs[0].row.Location())))
		}
	}
}

// findTargets decides each valid correction's base record: every
// correction, whatever its state, must aim at exactly one record on a
// surface that was read; none, or more than one, is a problem.
func (r *resolver) findTargets(surfaces []string) {
	isSurface := map[string]bool{}
	for _, s := range surfaces {
		isSurface[s] = true
	}
	r.targets = map[*correction]base{}
	for _, c := range r.corrs {
		if !c.valid {
			continue
		}
		if !isSurface[c.surface] {
			r.g.Unresolved = append(r.g.Unresolved, c.problem(ReasonMissingTarget,
				fmt.Sprintf("target_surface %q is not among the record surfaces read", c.surface)))
			continue
		}
		bs := r.bases[[2]string{c.surface, c.target}]
		switch len(bs) {
		case 0:
			r.g.Unresolved = append(r.g.Unresolved, c.problem(ReasonMissingTarget,
				fmt.Sprintf("no record %q in %s", c.target, c.surface)))
		case 1:
			r.targets[c] = bs[0]
		default:
			var locs []string
			for _, b := range bs {
				locs = append(locs, b.row.Location())
			}
			r.g.Unresolved = append(r.g.Unresolved, c.problem(ReasonAmbiguousTarget,
				fmt.Sprintf("record %q appears %d times in %s (%s)", c.target, len(bs), c.surface, strings.Join(locs, ", "))))
		}
	}
}

// supersession checks the supersedes graph (every reference names a
// correction, and no cycle; a cycle's corrections are not applied) and
// decides which corrections are superseded: those in state superseded, and
// those an authorized or ratified correction supersedes.
func (r *resolver) supersession() {
	r.inCycle = map[string]bool{}
	for _, cyc := range cycles(r.supersedeEdges()) {
		first := r.byID[cyc[0]][0]
		for _, id := range cyc {
			r.inCycle[id] = true
		}
		r.g.Unresolved = append(r.g.Unresolved, first.problem(ReasonCycle,
			"supersedes cycle: "+strings.Join(append(cyc, cyc[0]), " -> ")))
	}
	r.superseded = map[string]bool{}
	for _, c := range r.corrs {
		if !c.valid || r.dup[c.id] || r.inCycle[c.id] {
			continue
		}
		if c.state == StateSuperseded {
			r.superseded[c.id] = true
		}
		if c.state == StateAuthorized || c.state == StateRatified {
			for _, s := range c.supersedes {
				r.superseded[s] = true
			}
		}
	}
}

// supersedeEdges are the supersedes references of the valid, uniquely
// named corrections, by correction id; a reference to no correction is a
// problem and no edge.
func (r *resolver) supersedeEdges() map[string][]string {
	edges := map[string][]string{}
	for _, c := range r.corrs {
		if !c.valid || r.dup[c.id] {
			continue
		}
		for _, s := range c.supersedes {
			if len(r.byID[s]) == 0 {
				r.g.Unresolved = append(r.g.Unresolved, c.problem(ReasonMissingSuperseded,
					fmt.Sprintf("supersedes %q, which is no correction", s)))
				continue
			}
			edges[c.id] = append(edges[c.id], s)
		}
	}
	return edges
}

// apply applies the authorized and ratified corrections of each target
// that nothing disqualifies (a duplicate id, a cycle, supersession) in
// (effective_at, correction_id) order, and keeps the effective records
// whose view differs from their base, by surface and line.
func (r *resolver) apply() {
	apply := map[[2]string][]*correction{}
	baseOf := map[[2]string]base{}
	for _, c := range r.corrs {
		b, ok := r.targets[c]
		if !ok || r.dup[c.id] || r.inCycle[c.id] || r.superseded[c.id] {
			continue
		}
		if c.state != StateAuthorized && c.state != StateRatified {
			continue
		}
		k := [2]string{c.surface, c.target}
		apply[k] = append(apply[k], c)
		baseOf[k] = b
	}
	for k, cs := range apply {
		if eff, ok := effective(baseOf[k], cs); ok {
			r.g.EffectiveRecords = append(r.g.EffectiveRecords, eff)
		}
	}
	sort.Slice(r.g.EffectiveRecords, func(i, j int) bool {
		a, b := r.g.EffectiveRecords[i], r.g.EffectiveRecords[j]
		if a.TargetSurface != b.TargetSurface {
			return a.TargetSurface < b.TargetSurface
		}
		return lineOf(a.BaseLocation) < lineOf(b.BaseLocation)
	})
}

// effective merges the corrections into the base record in
// (effective_at, correction_id) order; ok is false when the view is the
// base itself.
func effective(b base, cs []*correction) (schema.EffectiveRecord, bool) {
	sort.Slice(cs, func(i, j int) bool {
		if !cs[i].at.Equal(cs[j].at) {
			return cs[i].at.Before(cs[j].at)
		}
		return cs[i].id < cs[j].id
	})
	var view any = b.row.Value
	ids := []string{}
	for _, c := range cs {
		view = MergePatch(view, c.patch)
		ids = append(ids, c.id)
	}
	eff, _ := view.(map[string]any)
	if reflect.DeepEqual(eff, b.row.Value) {
		return schema.EffectiveRecord{}, false
	}
	return schema.EffectiveRecord{
		TargetRecordID:       b.id,
		TargetSurface:        b.row.Surface,
		BaseLocation:         b.row.Location(),
		EffectiveRecord:      eff,
		AppliedCorrectionIDs: ids,
	}, true
}

func lineOf(loc string) int {
	i := strings.LastIndex(loc, ":L")
	if i < 0 {
		return 0
	}
	n, _ := strconv.Atoi(loc[i+2:])
	return n
}

// sortProblems orders problems by surface, line, reason and correction id.
func sortProblems(ps []Problem) []Problem {
	if ps == nil {
		return []Problem{}
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		sa, sb := a.Location[:max(0, strings.LastIndex(a.Location, ":L"))], b.Location[:max(0, strings.LastIndex(b.Location, ":L"))]
		if sa != sb {
			return sa < sb
		}
		if la, lb := lineOf(a.Location), lineOf(b.Location); la != lb {
			return la < lb
		}
		if a.Reason != b.Reason {
			return a.Reason < b.Reason
		}
		return a.CorrectionID < b.CorrectionID
	})
	return ps
}

// recordID returns the first identifier field present as a non-empty string
// or a number.
func recordID(v map[string]any, fields []string) (string, bool) {
	for _, f := range fields {
		switch x := v[f].(type) {
		case string:
			if x != "" {
				return x, true
			}
		case json.Number:
			return x.String(), true
		}
	}
	return "", false
}

// decodeCorrection checks a correction row's envelope. A malformed one is
// returned with valid=false (its id still counts for duplicates and
// supersession references) together with one problem listing every fault.
func decodeCorrection(r Row) (*correction, *Problem) {
	c := &correction{row: r}
	var faults []string
	str := func(key string, required bool) string {
		v, present := r.Value[key]
		if !present || v == nil {
			if required {
				faults = append(faults, key+" is missing")
			}
			return ""
		}
		switch x := v.(type) {
		case string:
			if x == "" && required {
				faults = append(faults, key+" is empty")
			}
			return x
		case json.Number:
			if key == "target_record_id" {
				return x.String()
			}
		}
		faults = append(faults, fmt.Sprintf("%s is %s, not a string", key, jsonType(v)))
		return ""
	}
	c.id = str("correction_id", true)
	c.target = str("target_record_id", true)
	c.surface = strings.TrimPrefix(str("target_surface", true), "./")
	str("reason", false)
	switch p := r.Value["patch"].(type) {
	case map[string]any:
		c.patch = p
	case nil:
		faults = append(faults, "patch is missing")
	default:
		faults = append(faults, fmt.Sprintf("patch is %s, not a JSON Merge Patch object", jsonType(p)))
	}
	switch s := r.Value["supersedes"].(type) {
	case nil:
	case []any:
		for i, e := range s {
			id, ok := e.(string)
			if !ok || id == "" {
				faults = append(faults, fmt.Sprintf("supersedes[%d] is not a correction id", i))
				continue
			}
			c.supersedes = append(c.supersedes, id)
		}
	default:
		faults = append(faults, fmt.Sprintf("supersedes is %s, not an array", jsonType(s)))
	}
	c.state = str("lifecycle_state", true)
	switch c.state {
	case "", StateProposed, StateAuthorized, StateRatified, StateSuperseded, StateRevoked:
	default:
		faults = append(faults, fmt.Sprintf("lifecycle_state %q is not one of proposed, authorized, ratified, superseded, revoked", c.state))
	}
	if at := str("effective_at", true); at != "" {
		t, err := parseTime(at)
		if err != nil {
			faults = append(faults, fmt.Sprintf("effective_at %q is not an RFC 3339 time or a YYYY-MM-DD date", at))
		}
		c.at = t
	}
	if len(faults) > 0 {
		return c, &Problem{Reason: ReasonMalformedEnvelope, Location: r.Location(), CorrectionID: c.id, TargetRecordID: c.target,
			Detail: "malformed correction: " + strings.Join(faults, "; ")}
	}
	c.valid = true
	return c, nil
}

func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02", s)
}

func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// cycles returns each cycle of the supersedes graph once, as the list of its
// correction ids starting from the smallest, in edge order.
func cycles(edges map[string][]string) [][]string {
	var nodes []string
	for n := range edges {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	seen := map[string]bool{}
	var out [][]string
	var visit func(n string)
	visit = func(n string) {
		color[n] = grey
		stack = append(stack, n)
		next := append([]string(nil), edges[n]...)
		sort.Strings(next)
		for _, m := range next {
			switch color[m] {
			case white:
				visit(m)
			case grey:
				i := len(stack) - 1
				for stack[i] != m {
					i--
				}
				cyc := append([]string(nil), stack[i:]...)
				// Rotate to start at the smallest id, so each cycle has one name.
				min := 0
				for j := range cyc {
					if cyc[j] < cyc[min] {
						min = j
					}
				}
				cyc = append(cyc[min:], cyc[:min]...)
				key := strings.Join(cyc, "\x00")
				if !seen[key] {
					seen[key] = true
					out = append(out, cyc)
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
	}
	for _, n := range nodes {
		if color[n] == white {
			visit(n)
		}
	}
	return out
}

// MergePatch applies an RFC 7396 JSON Merge Patch to target and returns the
// result; target is not modified. A patch that is not an object replaces the
// target; null members of an object patch delete keys.
func MergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	out := make(map[string]any, len(t)+len(p))
	if ok {
		for k, v := range t {
			out[k] = v
		}
	}
	for k, v := range p {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = MergePatch(out[k], v)
	}
	return out
}
