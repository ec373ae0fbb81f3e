// Package record is the NDJSON record stream every rtch and guild tool reads and
// writes: the envelope (kind, v, id), a line reader that keeps line numbers, and a
// writer that emits one record per write.
//
// A stage passes the records it reads through unchanged, byte for byte, and then
// appends its own. Only the envelope is decoded on the way through, so key order,
// number precision and unknown fields of records the stage does not own survive.
package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
)

// Envelope is embedded first in every record type so the JSON encoding starts with
// kind, v and id, followed by the payload, flat.
type Envelope struct {
	// Kind names the record type, e.g. "rtch.zone" or "guild.recall".
	Kind string `json:"kind"`
	// V is the schema version of that kind.
	V int `json:"v"`
	// ID is deterministic: a hash of the kind and the record's identity fields.
	ID string `json:"id"`
}

// Env returns the envelope of a record of the given kind and version whose identity
// is given by fields.
func Env(kind string, v int, fields ...string) Envelope {
	return Envelope{Kind: kind, V: v, ID: ID(kind, fields...)}
}

// ID hashes kind and identity fields into a short stable identifier: the first 16
// hex digits of sha256 over the length-prefixed parts, so ("a","bc") and ("ab","c")
// never collide.
func ID(kind string, fields ...string) string {
	h := sha256.New()
	for _, s := range append([]string{kind}, fields...) {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Marshal encodes a record without HTML escaping (so "<" stays "<" and text is
// readable) and without a trailing newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
