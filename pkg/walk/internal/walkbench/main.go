// Command walkbench times the walker from the shell so it can be run side
// by side with `rg --files` under hyperfine. It is a measuring aid, not an
// rtch tool: it prints the number of files found (and bytes read) to
// stdout so runs can be checked against each other.
//
//	go build -o /tmp/walkbench ./pkg/walk/internal/walkbench
//	hyperfine -N '/tmp/walkbench -mode files ROOT' 'rg --files ROOT'
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/rtch/rtch/pkg/walk"
)

func main() {
	mode := flag.String("mode", "files", "files (list only) or read (list and read every file)")
	workers := flag.Int("workers", 0, "walker parallelism; 0 means GOMAXPROCS")
	hidden := flag.Bool("hidden", false, "include hidden entries")
	noIgnore := flag.Bool("no-ignore", false, "do not honour ignore files")
	reuse := flag.Bool("reuse", false, "read with Options.ReuseBuffers")
	gitFast := flag.Bool("git", false, "list through git ls-files inside a work tree (Options.GitFastPath)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: walkbench [-mode files|read] [-workers N] [-hidden] [-no-ignore] [-git] [-reuse] ROOT")
		os.Exit(2)
	}
	o := walk.Options{Root: flag.Arg(0), Workers: *workers, Hidden: *hidden, NoIgnore: *noIgnore, GitFastPath: *gitFast, ReuseBuffers: *reuse}
	var skips int
	files, err := walk.Files(context.Background(), o, func(walk.Skip) { skips++ })
	if err != nil {
		fmt.Fprintln(os.Stderr, "walkbench: error:", err)
		os.Exit(1)
	}
	switch *mode {
	case "files":
		fmt.Printf("%d files, %d skips\n", len(files), skips)
	case "read":
		var n, bytes atomic.Int64
		err := walk.Each(context.Background(), o, files, func(f walk.File, b []byte) error {
			n.Add(1)
			bytes.Add(int64(len(b)))
			return nil
		}, func(walk.Skip) { skips++ })
		if err != nil {
			fmt.Fprintln(os.Stderr, "walkbench: error:", err)
			os.Exit(1)
		}
		fmt.Printf("%d files, %d text, %d bytes, %d skips\n", len(files), n.Load(), bytes.Load(), skips)
	default:
		fmt.Fprintf(os.Stderr, "walkbench: error: unknown -mode %q\n", *mode)
		os.Exit(2)
	}
}
