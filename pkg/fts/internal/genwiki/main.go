// Command genwiki writes a synthetic wiki for benchmarks:
//
//	go run ./pkg/fts/internal/genwiki -n 10000 -o /tmp/wiki10k
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rtch/rtch/pkg/fts/internal/synth"
)

func main() {
	n := flag.Int("n", 1000, "number of pages")
	out := flag.String("o", "", "project root to write (required)")
	seed := flag.Int64("seed", 1, "random seed")
	threshold := flag.Int("threshold", -1, "also write .guild/config.toml with this index.wiki_file_threshold")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genwiki: error: -o is required")
		os.Exit(2)
	}
	if err := synth.Generate(*out, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genwiki: error:", err)
		os.Exit(1)
	}
	if *threshold >= 0 {
		cfg := fmt.Sprintf("[index]\nwiki_file_threshold = %d\n", *threshold)
		if err := os.WriteFile(*out+"/.guild/config.toml", []byte(cfg), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genwiki: error:", err)
			os.Exit(1)
		}
	}
}
