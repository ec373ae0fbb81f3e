package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxLine is the longest line a Reader accepts. The spec asks for at least 16 MiB.
const MaxLine = 64 << 20

// Line is one record as read: its raw bytes (without the newline) and its decoded
// envelope.
type Line struct {
	// Raw is the line exactly as read, without the trailing "\n" (and "\r").
	Raw []byte
	// Kind and V are the decoded envelope; ID is empty when the record has none.
	Kind string
	V    int
	ID   string
	// No is the 1-based line number in the input.
	No int
}

// Decode unmarshals the whole record into v.
func (l Line) Decode(v any) error {
	if err := json.Unmarshal(l.Raw, v); err != nil {
		return fmt.Errorf("line %d (%s): %w", l.No, l.Kind, err)
	}
	return nil
}

// SyntaxError is a malformed input line; its message is "<input>:<line>: …".
type SyntaxError struct {
	Input string
	Line  int
	Msg   string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.Input, e.Line, e.Msg) }

// Reader reads NDJSON records, skipping blank lines and keeping line numbers.
type Reader struct {
	r    *bufio.Reader
	name string
	no   int
	buf  []byte
}

// NewReader reads records from r; name is used in error messages ("-" or "stdin"
// for standard input, otherwise a file name).
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 1<<20), name: name}
}

// Name is the input name used in errors.
func (r *Reader) Name() string { return r.name }

// Next returns the next record, io.EOF at the end, or a *SyntaxError for a line
// that is not a JSON object with a string "kind".
func (r *Reader) Next() (Line, error) {
	for {
		raw, err := r.readLine()
		if err != nil {
			return Line{}, err
		}
		r.no++
		raw = bytes.TrimSuffix(raw, []byte("\r"))
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		env, err := decodeEnvelope(raw)
		if err != nil {
			return Line{}, &SyntaxError{r.name, r.no, "malformed record: " + describeError(err)}
		}
		if env.Kind == nil || *env.Kind == "" {
			return Line{}, &SyntaxError{r.name, r.no, `malformed record: no "kind"`}
		}
		l := Line{Raw: append([]byte(nil), raw...), Kind: *env.Kind, No: r.no}
		if len(env.V) > 0 {
			var v int
			if json.Unmarshal(env.V, &v) == nil {
				l.V = v
			}
		}
		if len(env.ID) > 0 {
			var id string
			if json.Unmarshal(env.ID, &id) == nil {
				l.ID = id
			}
		}
		return l, nil
	}
}

// describeError says what is wrong with a line json.Unmarshal refused.
func describeError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te) && te.Field == "kind":
		return fmt.Sprintf(`"kind" is a JSON %s, not a string`, te.Value)
	}
	return "not a JSON object"
}

// readLine returns the next line without its "\n", io.EOF at the end. A final
// line without a newline is returned as a line.
func (r *Reader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.r.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if len(r.buf) > MaxLine {
			return nil, &SyntaxError{r.name, r.no + 1, fmt.Sprintf("line longer than %d bytes", MaxLine)}
		}
		switch {
		case err == nil:
			return r.buf[:len(r.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(r.buf) == 0 {
				return nil, io.EOF
			}
			return r.buf, nil
		default:
			return nil, fmt.Errorf("%s: read: %w", r.name, err)
		}
	}
}
