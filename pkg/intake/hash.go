package intake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/rtch/rtch/pkg/schema"
)

// Canonical returns the canonical JSON of the intake fields: the normalized
// fields, object keys sorted at every level, no insignificant whitespace, no
// HTML escaping, empty lists as [] (never null). Fields marked omitempty in the
// record (known_target, budget_tokens) are left out when unset, so adding an
// optional field to the schema later does not change the hash of intakes that
// do not use it.
func Canonical(f schema.IntakeFields) ([]byte, error) {
	f = Normalize(f)
	raw, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	// encoding/json writes map keys sorted, which is the canonical order.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Hash is intake_hash: the first 12 hex digits of sha256 over Canonical(f).
func Hash(f schema.IntakeFields) (string, error) {
	c, err := Canonical(f)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:])[:12], nil
}

// PacketID is the packet id an intake hash becomes: "rtch_packet_<hash>".
func PacketID(hash string) string { return "rtch_packet_" + hash }
