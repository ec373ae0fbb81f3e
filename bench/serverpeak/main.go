// Command serverpeak measures rtch-mcp's memory on a tree whose index is
// already built: it starts the server on the index directory, asks the
// twelve terms of bench/internal/timing (then with one more word each
// time), and prints each call's wall and CPU time beside the server's peak
// and current resident size (VmHWM, VmRSS) and the peaks of its two parts
// so far, sampled every 100 ms: the heap and other anonymous memory
// (RssAnon) and the mapped files, the index among them (RssFile). With
// --briefs DIR it writes each call's brief to DIR/call-N.md, for comparing
// two binaries' byte for byte.
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/serverpeak --bin /tmp/b --root TREE --index IX --questions 3
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	briefs := flag.String("briefs", "", "directory to write each call's brief to")
	flag.Parse()
	if *bin == "" || *root == "" || *ix == "" || *n < 1 || *n > len(extraWords) {
		fmt.Fprintln(os.Stderr, "usage: serverpeak --bin DIR --root TREE --index DIR [--questions N] [--briefs DIR]")
		os.Exit(2)
	}
	if err := run(*bin, *root, *ix, *n, *briefs); err != nil {
		fmt.Fprintln(os.Stderr, "serverpeak:", err)
		os.Exit(1)
	}
}

func run(bin, root, ix string, n int, briefs string) error {
	sv, err := mcpserver.Start(bin, root, "--index", ix, "--no-memo")
	if err != nil {
		return err
	}
	defer sv.Close()
	peaks := sample(sv.PID())
	defer peaks.stop()
	for i := range n {
		x, brief, err := sv.Ask(timing.Goal() + " " + extraWords[i])
		if err != nil {
			return err
		}
		if briefs != "" {
			if err := os.WriteFile(filepath.Join(briefs, fmt.Sprintf("call-%d.md", i+1)), []byte(brief), 0o644); err != nil {
				return err
			}
		}
		peak, now, err := sv.Memory()
		if err != nil {
			return err
		}
		anon, file := peaks.get()
		fmt.Printf("call %d: %.1f s wall, %.2f s CPU; server peak %.0f MB (RssAnon %.0f, RssFile %.0f), now %.0f MB (%.0f s after its start)\n",
			i+1, x.Wall, x.CPU, peak, anon, file, now, time.Since(sv.Started).Seconds())
	}
	return nil
}

// sampler keeps the largest RssAnon and RssFile of a process seen so far.
type sampler struct {
	mu         sync.Mutex
	anon, file float64
	done       chan struct{}
}

// sample reads pid's /proc status every 100 ms until stop.
func sample(pid int) *sampler {
	s := &sampler{done: make(chan struct{})}
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			s.read(pid)
			select {
			case <-s.done:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *sampler) read(pid int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range strings.Split(string(b), "\n") {
		for name, v := range map[string]*float64{"RssAnon:": &s.anon, "RssFile:": &s.file} {
			if rest, ok := strings.CutPrefix(l, name); ok {
				var kb float64
				fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
				*v = max(*v, kb/1024)
			}
		}
	}
}

func (s *sampler) get() (anon, file float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.anon, s.file
}

func (s *sampler) stop() { close(s.done) }
