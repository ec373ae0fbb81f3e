package hydrate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxLineNumber bounds the line numbers a range may name.
const MaxLineNumber = 1 << 30

// Range is a parsed re-entry argument: PATH:L<s>-L<e> (an exact range) or
// PATH:<line> / PATH:L<line> (a window around one line).
type Range struct {
	// Path as written (not yet cleaned against a root).
	Path string
	// Start and End are the inclusive range; for a window both are 0 until the
	// window is applied.
	Start, End int
	// Line is the window's centre (0 for an exact range).
	Line int
}

// IsWindow reports whether the range names one line to be widened to a window.
func (r Range) IsWindow() bool { return r.Line > 0 }

// String renders the range back in its canonical form.
func (r Range) String() string {
	if r.IsWindow() {
		return fmt.Sprintf("%s:%d", r.Path, r.Line)
	}
	return fmt.Sprintf("%s:L%d-L%d", r.Path, r.Start, r.End)
}

// ParseRange parses a re-entry argument. Accepted forms: PATH:L<s>-L<e>,
// PATH:<s>-<e>, PATH:L<n> and PATH:<n>. The path may itself contain ':'; the
// range is what follows the last one.
func ParseRange(arg string) (Range, error) {
	i := strings.LastIndexByte(arg, ':')
	if i < 0 {
		return Range{}, fmt.Errorf("%q: want PATH:L<start>-L<end> or PATH:<line>", arg)
	}
	path, spec := arg[:i], arg[i+1:]
	if path == "" {
		return Range{}, fmt.Errorf("%q: empty path", arg)
	}
	if strings.ContainsRune(path, 0) {
		return Range{}, fmt.Errorf("%q: path contains a NUL byte", arg)
	}
	if spec == "" {
		return Range{}, fmt.Errorf("%q: empty range after ':'", arg)
	}
	if a, b, ok := strings.Cut(spec, "-"); ok {
		s, err := lineNumber(a)
		if err != nil {
			return Range{}, fmt.Errorf("%q: start: %v", arg, err)
		}
		e, err := lineNumber(b)
		if err != nil {
			return Range{}, fmt.Errorf("%q: end: %v", arg, err)
		}
		if e < s {
			return Range{}, fmt.Errorf("%q: end L%d is before start L%d", arg, e, s)
		}
		return Range{Path: path, Start: s, End: e}, nil
	}
	n, err := lineNumber(spec)
	if err != nil {
		return Range{}, fmt.Errorf("%q: %v", arg, err)
	}
	return Range{Path: path, Line: n}, nil
}

// lineNumber parses "L12", "l12" or "12" as a 1-based line number.
func lineNumber(s string) (int, error) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "L"), "l")
	if s == "" {
		return 0, errors.New("missing line number")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a line number", s)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > MaxLineNumber {
		return 0, fmt.Errorf("line number %s is too large", s)
	}
	if n < 1 {
		return 0, errors.New("line numbers start at 1")
	}
	return n, nil
}

// LineRange formats "L<s>-L<e>".
func LineRange(s, e int) string { return fmt.Sprintf("L%d-L%d", s, e) }

// ParseLineRange parses "L<s>-L<e>".
func ParseLineRange(lr string) (int, int, error) {
	r, err := ParseRange("x:" + lr)
	if err != nil {
		return 0, 0, err
	}
	if r.IsWindow() {
		return r.Line, r.Line, nil
	}
	return r.Start, r.End, nil
}
