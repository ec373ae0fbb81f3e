package packet

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// recordsKey is where the indented form holds the chunk records: a key of
// the top-level object (a newline cannot occur raw inside a JSON string).
const recordsKey = "\n  \"hydrated_chunks\": []"

// JSON is the packet as --format json writes it: indented two spaces, each
// chunk record on a line of its own (compact, as the ndjson stream writes a
// record), so that the indentation is paid once per chunk, not per field.
func JSON(p *schema.Packet) ([]byte, error) {
	bare := *p
	bare.ChunkRecords = []schema.PacketChunk{}
	return indentWith(&bare, p.ChunkRecords)
}

// indentWith indents v, whose hydrated_chunks list is empty, and writes cs
// into that list one compact record a line.
func indentWith(v any, cs []schema.PacketChunk) ([]byte, error) {
	j, err := record.Marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, j, "", "  "); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	at := bytes.Index(out, []byte(recordsKey))
	if at < 0 {
		return nil, errors.New("packet: no hydrated_chunks list to write")
	}
	at += len(recordsKey) - len("[]")
	var w bytes.Buffer
	w.Write(out[:at])
	w.WriteString("[")
	for i, c := range cs {
		r, err := record.Marshal(c)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		w.Write(r)
	}
	if len(cs) > 0 {
		w.WriteString("\n  ")
	}
	w.WriteString("]")
	w.Write(out[at+len("[]"):])
	return w.Bytes(), nil
}
