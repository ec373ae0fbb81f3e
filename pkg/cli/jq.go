package cli

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/itchyny/gojq"

	"github.com/rtch/rtch/pkg/record"
)

// compileJQ compiles expr once and returns a record filter: a record is kept
// when the expression yields at least one value that is neither false nor null.
// The record itself is emitted unchanged; --jq selects, it does not rewrite.
func compileJQ(expr string) (record.Filter, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, err
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, err
	}
	return func(raw []byte) (bool, error) {
		var v any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return false, err
		}
		v = normalizeNumbers(v)
		iter := code.Run(v)
		keep := false
		for {
			out, ok := iter.Next()
			if !ok {
				break
			}
			if err, isErr := out.(error); isErr {
				return false, fmt.Errorf("--jq: %w", err)
			}
			if out != nil && out != false {
				keep = true
			}
		}
		return keep, nil
	}, nil
}

// normalizeNumbers turns json.Number into int or float64, the types gojq knows.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil && int64(int(i)) == i {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
