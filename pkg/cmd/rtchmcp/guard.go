package rtchmcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The guard reads every message a client sends before the SDK does: the
// SDK's connection ends the session on the first message it cannot decode
// (docs/decisions/rtch-mcp.md). A message the guard lets through is one
// the SDK decodes; any other is answered with a JSON-RPC error here, or
// dropped when it is a response (nothing may answer a response).

const (
	// defaultMaxMessage is the largest message a client may send, in bytes
	// (--max-message), on stdio and as an HTTP body alike.
	defaultMaxMessage = 4 << 20
	// maxDepth is how deeply a message's arrays and objects may nest. MCP's
	// messages nest a few levels; the SDK refuses more than 1,000.
	maxDepth = 128
	// maxSafeID bounds an integer id: the SDK decodes ids as float64, so a
	// larger one would come back changed in the reply.
	maxSafeID = 1 << 53
)

// verdict is what the guard makes of one message: exactly one of msg (for
// the SDK), answer (the encoded reply to send) or drop (why it is dropped)
// is set, or none for a blank line.
type verdict struct {
	msg    jsonrpc.Message
	answer []byte
	drop   string
}

// refusal is a message the guard answers with an error.
type refusal struct {
	code int64
	why  string
}

func parseError(format string, a ...any) *refusal {
	return &refusal{jsonrpc.CodeParseError, fmt.Sprintf(format, a...)}
}

func invalid(format string, a ...any) *refusal {
	return &refusal{jsonrpc.CodeInvalidRequest, fmt.Sprintf(format, a...)}
}

// errResponse is a reply with a null id, which jsonrpc.EncodeMessage would
// leave out (JSON-RPC wants "id": null when the id could not be read).
type errResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func encodeRefusal(id jsonrpc.ID, r *refusal, where string) []byte {
	e := errResponse{JSONRPC: "2.0", ID: json.RawMessage("null")}
	if id.IsValid() {
		e.ID, _ = json.Marshal(id.Raw())
	}
	e.Error.Code = r.code
	e.Error.Message = where + r.why
	b, _ := json.Marshal(e)
	return b
}

var bom = []byte("\xef\xbb\xbf")

// inspect judges one message. where prefixes an error's message ("stdin
// line 12: "); over says the message was longer than limit and line holds
// only its head.
func inspect(line []byte, over bool, limit int, where string) verdict {
	line = bytes.TrimPrefix(line, bom) // RFC 8259 lets a parser ignore a byte order mark
	line = bytes.Trim(line, " \t\r\n") // a CR before the newline, blank lines
	if len(line) == 0 {
		return verdict{}
	}
	if over {
		return answer(line, invalid("message longer than %d bytes, the server's limit (--max-message)", limit), where)
	}
	if line[0] == '[' {
		return inspectBatch(line, where)
	}
	msg, err := decode(line)
	if err != nil {
		return answer(line, err, where)
	}
	return verdict{msg: msg}
}

// answer refuses line with the id of the request it was, when that can be
// read, or null; a broken response is dropped.
func answer(line []byte, r *refusal, where string) verdict {
	g := glance(line)
	switch {
	case g.method:
		return verdict{answer: encodeRefusal(g.id, r, where)}
	case g.reply:
		return verdict{drop: where + r.why}
	}
	return verdict{answer: encodeRefusal(jsonrpc.ID{}, r, where)}
}

// inspectBatch answers a batch: MCP dropped batches in its 2025-06-18
// revision and the server does not take them, so every request in it gets
// an error, in one array as JSON-RPC has a batch answered.
func inspectBatch(line []byte, where string) verdict {
	if err := wellFormed(line); err != nil {
		return answer(line, err, where)
	}
	var elems []json.RawMessage
	if json.Unmarshal(line, &elems) != nil || len(elems) == 0 {
		return verdict{answer: encodeRefusal(jsonrpc.ID{}, invalid("an empty batch"), where)}
	}
	no := invalid("a batch: send each message on a line of its own (MCP does not take batches since 2025-06-18)")
	var answers []json.RawMessage
	for _, e := range elems {
		if e[0] == '[' {
			answers = append(answers, encodeRefusal(jsonrpc.ID{}, invalid("a batch inside a batch"), where))
			continue
		}
		v := inspect(e, false, 0, where)
		switch m := v.msg.(type) {
		case nil:
			if v.answer != nil {
				answers = append(answers, v.answer)
			}
		case *jsonrpc.Request:
			if m.IsCall() {
				answers = append(answers, encodeRefusal(m.ID, no, where))
			}
		}
	}
	if len(answers) == 0 {
		return verdict{drop: where + no.why}
	}
	b, _ := json.Marshal(answers)
	return verdict{answer: b}
}

// decode reads one message the way the SDK will, having checked first what
// the SDK would fail on.
func decode(line []byte) (jsonrpc.Message, *refusal) {
	if err := wellFormed(line); err != nil {
		return nil, err
	}
	if line[0] != '{' {
		return nil, invalid("not a JSON-RPC message: a JSON object is expected")
	}
	members, err := topMembers(line)
	if err != nil {
		return nil, err
	}
	if err := checkMembers(members); err != nil {
		return nil, err
	}
	msg, derr := jsonrpc.DecodeMessage(line)
	if derr != nil {
		return nil, invalid("not a JSON-RPC message: %v", derr)
	}
	return msg, nil
}

// wellFormed is valid UTF-8, JSON, nested at most maxDepth deep.
func wellFormed(line []byte) *refusal {
	if !utf8.Valid(line) {
		return parseError("not valid UTF-8 (at byte %d)", invalidUTF8At(line)+1)
	}
	if d := depth(line); d > maxDepth {
		return invalid("nested more than %d levels deep", maxDepth)
	}
	if json.Valid(line) {
		return nil
	}
	var v json.RawMessage
	err := json.Unmarshal(line, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return parseError("not JSON: %v (at byte %d)", se, se.Offset)
	}
	return parseError("not JSON: %v", err)
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// eachStructural calls fn with the offset, byte and nesting depth (that of
// the value it belongs to: 0 for the outer brackets) of every bracket,
// brace, comma and colon of b outside strings; b need not be valid JSON.
func eachStructural(b []byte, fn func(i int, c byte, d int)) {
	d, inString := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			fn(i, c, d)
			d++
		case c == ']' || c == '}':
			d--
			fn(i, c, d)
		case c == ',' || c == ':':
			fn(i, c, d-1)
		}
	}
}

// depth is how deeply b's arrays and objects nest.
func depth(b []byte) int {
	deepest := 0
	eachStructural(b, func(_ int, c byte, d int) { deepest = max(deepest, d+1) })
	return deepest
}

// topMembers is a JSON object's members by name, each value as written;
// a name given twice is refused, as the SDK and the guard could read it
// differently. obj is valid JSON, so a member ends at the first comma or
// closing brace of the object's own level.
func topMembers(obj []byte) (map[string]json.RawMessage, *refusal) {
	m := map[string]json.RawMessage{}
	var dup *refusal
	start, colon := 1, -1
	eachStructural(obj, func(i int, c byte, d int) {
		switch {
		case d != 0 || dup != nil:
		case c == ':' && colon < 0:
			colon = i
		case c == ',' || c == '}':
			if colon >= 0 {
				var key string
				json.Unmarshal(obj[start:colon], &key)
				if _, ok := m[key]; ok {
					dup = invalid("member %q given twice", key)
				}
				m[key] = bytes.Trim(obj[colon+1:i], " \t\r\n")
			}
			start, colon = i+1, -1
		}
	})
	return m, dup
}

// checkMembers holds a message to JSON-RPC 2.0 as MCP uses it: the version
// "2.0", an id that is a string or an integer (never null), a string
// method, and a response with exactly one of result and error. (Params of
// the wrong type the SDK answers itself, with -32602.)
func checkMembers(m map[string]json.RawMessage) *refusal {
	if v, ok := m["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if raw, ok := m["id"]; ok {
		if _, err := parseID(raw); err != nil {
			return err
		}
	}
	method, isReq := m["method"]
	if isReq && (len(method) == 0 || method[0] != '"') {
		return invalid(`"method" must be a string`)
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if !isReq && hasResult == hasError {
		return invalid(`a message needs a "method", or exactly one of "result" and "error"`)
	}
	return nil
}

// parseID reads an id: a string, or an integer of at most 2^53 in size.
func parseID(raw json.RawMessage) (jsonrpc.ID, *refusal) {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, invalid(`"id": %v`, err)
		}
		id, _ := jsonrpc.MakeID(s)
		return id, nil
	case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > maxSafeID || n < -maxSafeID {
			return jsonrpc.ID{}, invalid(`"id" must be a string or an integer of at most 2^53, not %.40s`, raw)
		}
		id, _ := jsonrpc.MakeID(float64(n))
		return id, nil
	}
	return jsonrpc.ID{}, invalid(`"id" must be a string or an integer, not %.40s`, raw)
}

// glimpse is what can be read of a message that could not be read whole:
// its top-level members before the fault.
type glimpse struct {
	id     jsonrpc.ID // a usable "id", when one was read
	method bool       // a "method" member: the message is a request
	reply  bool       // a "result" or "error" member: it is a response
}

func glance(line []byte) (g glimpse) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return g
	}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return g
		}
		g.method = g.method || key == "method"
		g.reply = g.reply || key == "result" || key == "error"
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return g
		}
		if key == "id" && !g.id.IsValid() {
			g.id, _ = parseID(v)
		}
	}
	return g
}
