// Command serverpeak measures rtch-mcp's memory on a tree whose index is
// already built: it starts the server on the index directory, asks the
// twelve terms of bench/internal/timing (then with one more word each
// time), and prints each call's wall and CPU time beside the server's peak
// and current resident size (VmHWM, VmRSS).
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/serverpeak --bin /tmp/b --root TREE --index IX --questions 3
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/rtch/rtch/bench/internal/mcpserver"
	"github.com/rtch/rtch/bench/internal/timing"
)

var extraWords = []string{"", "mutex", "socket", "parser", "cache", "timer"}

func main() {
	bin := flag.String("bin", "", "directory of the built binaries")
	root := flag.String("root", "", "the tree")
	ix := flag.String("index", "", "the tree's index directory")
	n := flag.Int("questions", 3, "calls to make (at most 6)")
	flag.Parse()
	if *bin == "" || *root == "" || *ix == "" || *n < 1 || *n > len(extraWords) {
		fmt.Fprintln(os.Stderr, "usage: serverpeak --bin DIR --root TREE --index DIR [--questions N]")
		os.Exit(2)
	}
	if err := run(*bin, *root, *ix, *n); err != nil {
		fmt.Fprintln(os.Stderr, "serverpeak:", err)
		os.Exit(1)
	}
}

func run(bin, root, ix string, n int) error {
	sv, err := mcpserver.Start(bin, root, "--index", ix, "--no-memo")
	if err != nil {
		return err
	}
	defer sv.Close()
	for i := range n {
		x, _, err := sv.Ask(timing.Goal() + " " + extraWords[i])
		if err != nil {
			return err
		}
		peak, now, err := sv.Memory()
		if err != nil {
			return err
		}
		fmt.Printf("call %d: %.1f s wall, %.2f s CPU; server peak %.0f MB, now %.0f MB (%.0f s after its start)\n",
			i+1, x.Wall, x.CPU, peak, now, time.Since(sv.Started).Seconds())
	}
	return nil
}
