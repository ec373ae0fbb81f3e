// Package exact maps a --tokenizer name to a token counter: chars4 (the
// toolkit's ceil(chars/4), the default), or an exact BPE count through
// github.com/tiktoken-go/tokenizer, whose vocabularies are compiled into the
// binary (no network, no files). It is its own package so that only the
// stages that offer --tokenizer carry the vocabularies.
package exact

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"

	"github.com/rtch/rtch/pkg/tokens"
)

// Names are the accepted --tokenizer values.
var Names = []string{"chars4", "o200k", "cl100k"}

var encodings = map[string]tokenizer.Encoding{
	"o200k":  tokenizer.O200kBase,
	"cl100k": tokenizer.Cl100kBase,
}

// Get returns the counter named name ("" is chars4).
func Get(name string) (tokens.Counter, error) {
	if name == "" || name == tokens.Chars4.Name {
		return tokens.Chars4, nil
	}
	enc, ok := encodings[name]
	if !ok {
		return tokens.Counter{}, fmt.Errorf("tokenizer %q: want one of %s", name, strings.Join(Names, ", "))
	}
	var (
		once  sync.Once
		codec tokenizer.Codec
		err   error
	)
	load := func() {
		codec, err = tokenizer.Get(enc)
		if err == nil {
			// Invalid UTF-8 counts as U+FFFD, as tiktoken counts it.
			codec.SetErrorMode(tokenizer.ErrorModeReplace)
		}
	}
	count := func(s string) int {
		once.Do(load)
		if err != nil {
			return tokens.Estimate(s)
		}
		n, cerr := codec.Count(s)
		if cerr != nil {
			return tokens.Estimate(s)
		}
		return n
	}
	// Load now so a broken vocabulary fails here, not as silent fallback.
	once.Do(load)
	if err != nil {
		return tokens.Counter{}, fmt.Errorf("tokenizer %q: %v", name, err)
	}
	return tokens.Counter{Name: name, Count: count}, nil
}
