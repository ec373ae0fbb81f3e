package gate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Row is one JSON object row of a record surface.
type Row struct {
	// Surface is the surface's path relative to the zone root.
	Surface string
	// Line is the 1-based line number.
	Line int
	// Value is the decoded object; numbers are json.Number, so they keep their
	// exact digits when the effective view is written out.
	Value map[string]any
}

// Location is "PATH:L<n>".
func (r Row) Location() string { return Location(r.Surface, r.Line) }

// Location formats a surface position as "PATH:L<n>".
func Location(surface string, line int) string { return fmt.Sprintf("%s:L%d", surface, line) }

// MaxRow is the longest row a surface may hold.
const MaxRow = 64 << 20

// ReadSurface reads one append-only JSONL surface. Blank lines are skipped; a
// row that is not valid JSON is an invalid_json problem and a row that is not
// an object a malformed_envelope problem, both located at "name:L<n>"; the
// other rows are returned in order. Only a read failure is an error.
func ReadSurface(r io.Reader, name string) ([]Row, []Problem, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	var (
		rows  []Row
		probs []Problem
		buf   []byte
		no    int
	)
	for {
		buf = buf[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			buf = append(buf, chunk...)
			if len(buf) > MaxRow {
				return rows, probs, fmt.Errorf("%s: line %d longer than %d bytes", name, no+1, MaxRow)
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return rows, probs, fmt.Errorf("%s: read: %w", name, err)
		}
		if len(buf) == 0 && errors.Is(err, io.EOF) {
			return rows, probs, nil
		}
		no++
		line := bytes.TrimRight(buf, "\r\n")
		if len(bytes.TrimSpace(line)) > 0 {
			row, p := parseRow(line, name, no)
			if p != nil {
				probs = append(probs, *p)
			} else {
				rows = append(rows, row)
			}
		}
		if errors.Is(err, io.EOF) {
			return rows, probs, nil
		}
	}
}

func parseRow(line []byte, name string, no int) (Row, *Problem) {
	if !json.Valid(line) {
		var v any
		detail := "invalid JSON"
		var se *json.SyntaxError
		if err := json.Unmarshal(line, &v); errors.As(err, &se) {
			detail = fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
		}
		return Row{}, &Problem{Reason: ReasonInvalidJSON, Location: Location(name, no), Detail: detail}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return Row{}, &Problem{Reason: ReasonInvalidJSON, Location: Location(name, no), Detail: "invalid JSON: " + err.Error()}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Row{}, &Problem{Reason: ReasonMalformedEnvelope, Location: Location(name, no), Detail: "row is not a JSON object"}
	}
	return Row{Surface: name, Line: no, Value: obj}, nil
}

// FindSurfaces returns the files under root matching any of the globs, as
// sorted "/"-separated paths relative to root. A glob is matched segment by
// segment with path.Match; "**" matches any number of directories. Only
// regular files count; symlinks are not followed and .git is never entered.
// Ignore files do not apply: an audit log is a surface even when git ignores it.
func FindSurfaces(fsys fs.FS, globs []string) ([]string, error) {
	for _, g := range globs {
		if _, err := path.Match(strings.ReplaceAll(g, "**", "x"), ""); err != nil {
			return nil, fmt.Errorf("surface glob %q: %v", g, err)
		}
	}
	found := map[string]bool{}
	for _, g := range globs {
		g = strings.TrimPrefix(path.Clean(filepath.ToSlash(g)), "./")
		start := staticPrefix(g)
		err := fs.WalkDir(fsys, start, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == start && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipAll
				}
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return fs.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && Match(g, p) {
				found[p] = true
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(found))
	for p := range found {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// staticPrefix is the leading directories of a glob that hold no pattern
// characters: the walk can start there.
func staticPrefix(g string) string {
	segs := strings.Split(g, "/")
	var fixed []string
	for _, s := range segs[:len(segs)-1] {
		if strings.ContainsAny(s, "*?[\\") {
			break
		}
		fixed = append(fixed, s)
	}
	if len(fixed) == 0 {
		return "."
	}
	return strings.Join(fixed, "/")
}

// Match reports whether the "/"-separated path p matches glob g, where "**"
// as a whole segment matches zero or more segments.
func Match(g, p string) bool {
	return matchSegs(strings.Split(g, "/"), strings.Split(p, "/"))
}

func matchSegs(gs, ps []string) bool {
	for len(gs) > 0 {
		if gs[0] == "**" {
			for i := 0; i <= len(ps); i++ {
				if matchSegs(gs[1:], ps[i:]) {
					return true
				}
			}
			return false
		}
		if len(ps) == 0 {
			return false
		}
		if ok, err := path.Match(gs[0], ps[0]); err != nil || !ok {
			return false
		}
		gs, ps = gs[1:], ps[1:]
	}
	return len(ps) == 0
}
