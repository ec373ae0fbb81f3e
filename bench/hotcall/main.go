// Command hotcall measures a repeat rtch_context call on a warm rtch-mcp
// beside ripgrep (issue 17, item 4): it starts the server once on a tree,
// warms it (the first call builds the index and the watcher), then runs
// pairs, alternately `/usr/bin/time rg -c -i -e T1 … -e T12 ROOT` and one
// rtch_context call over stdio on the unchanged tree, and prints each
// pair, the medians and the median of the pair ratios. The call's wall
// time is the client's, the Go SDK's decoding of the reply included; the
// time until the reply's last byte arrived is reported beside it. Its CPU
// is the server's user + system time across the call, its git children's
// included (/proc/PID/stat); memory is the server's VmHWM (peak, the
// first call's index build included when it built it) and VmRSS at the end. It
// also checks the last packet against the piped binaries run with
// --no-index, byte for byte. With --vary every call is a new question (the
// twelve terms and one word more, another each call), which no memo
// answers. --format md asks for the brief, rtch_context's default, instead
// of the JSON packet.
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/hotcall --bin /tmp/b --root "$(go env GOROOT)/src" --pairs 10 [--also --no-watch]
//
// --also starts a second server with extra flags, called after the first in
// each round (rg, first, second), to compare two settings side by side:
// --also --no-memo gives the call that runs the whole lane beside the
// repeat the memo answers (docs/rtch-mcp.md, "Repeat questions").
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/bench/internal/mcpstdio"
	"github.com/rtch/rtch/bench/internal/timing"
	"github.com/rtch/rtch/pkg/cmd/rtchmcp"
	"github.com/rtch/rtch/pkg/schema"
)

const (
	enough = "the bench is done"
	epoch  = "1767225600"
)

func main() {
	bin := flag.String("bin", "", "directory of the built binaries (rtch-mcp and the lane's)")
	root := flag.String("root", "", "the tree")
	pairs := flag.Int("pairs", 10, "alternating pairs")
	index := flag.String("index", "", "the server's --index DIR (default a fresh temporary)")
	noCheck := flag.Bool("no-check", false, "skip the comparison with the piped --no-index lane")
	also := flag.String("also", "", "a second server with these extra flags (space-separated, e.g. --no-watch), called after the first in each round")
	flag.BoolVar(&vary, "vary", false, "make every call a new question: the twelve terms and one more word, another on each call")
	flag.StringVar(&format, "format", "json", "the calls' format: json (the summary with the chunks' text) or md (the brief)")
	flag.Parse()
	if *bin == "" || *root == "" {
		fmt.Fprintln(os.Stderr, "usage: hotcall --bin DIR --root TREE [--pairs N] [--index DIR]")
		os.Exit(2)
	}
	if err := run(*bin, *root, *pairs, *index, strings.Fields(*also), !*noCheck); err != nil {
		fmt.Fprintln(os.Stderr, "hotcall:", err)
		os.Exit(1)
	}
}

// vary is --vary: each call adds the next of extraWords to the goal.
var vary bool

// format is --format, the calls' rtch_context format and the piped lane's
// rtch-packet --format.
var format string

// extraWords make the questions of --vary, words GOROOT/src holds.
var extraWords = strings.Fields("mutex socket parser cache timer channel signal deadline cookie header proxy cipher certificate compress decode encode hash random sort heap ring list template json xml base64 hex unicode regexp scanner lexer reflect syscall pipe fork user group locale archive")

// server is one rtch-mcp under test.
type server struct {
	name  string
	cs    *mcp.ClientSession
	cmd   *exec.Cmd
	out   *arrivals
	pid   int
	calls []timing.Sample
	// arrived are the calls' times until the reply's last byte arrived,
	// before the client decoded it.
	arrived []timing.Sample
	last    string
	lastCap int    // the brief budget the last reply was fitted to
	n       int    // calls made
	goal    string // the last call's goal
}

// goal is the goal of the server's next call.
func (sv *server) nextGoal() string {
	sv.goal = timing.Goal()
	if vary {
		sv.goal += " " + extraWords[sv.n%len(extraWords)]
	}
	sv.n++
	return sv.goal
}

func start(bin, root, index string, extra []string) (*server, error) {
	var out *arrivals
	srv, err := mcpstdio.Start(bin, "hotcall", append([]string{"--root", root, "--index", index}, extra...), []string{"SOURCE_DATE_EPOCH=" + epoch},
		func(r io.Reader) io.Reader { out = newArrivals(r); return out })
	if err != nil {
		return nil, err
	}
	cs, cmd := srv.CS, srv.Cmd
	s := &server{name: strings.Join(append([]string{"rtch-mcp"}, extra...), " "), cs: cs, cmd: cmd, out: out, pid: cmd.Process.Pid}
	for i := range 3 {
		c, _, _, err := call(s)
		if err != nil {
			s.close()
			return nil, err
		}
		fmt.Printf("%s: warm-up call %d: %.3f s wall, %.2f s CPU\n", s.name, i+1, c.Wall, c.CPU)
	}
	return s, nil
}

// close ends the session and waits for the server to exit.
func (sv *server) close() {
	sv.cs.Close()
	sv.cmd.Wait()
}

func run(bin, root string, pairs int, index string, also []string, check bool) error {
	if index == "" {
		d, err := os.MkdirTemp("", "hotcall-index-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		index = d
	}
	first, err := start(bin, root, index, nil)
	if err != nil {
		return err
	}
	defer first.close()
	servers := []*server{first}
	if len(also) > 0 {
		second, err := start(bin, root, index, also)
		if err != nil {
			return err
		}
		defer second.close()
		servers = append(servers, second)
	}
	var rg []timing.Sample
	fmt.Printf("\n| round | rg wall | rg CPU |")
	for _, sv := range servers {
		fmt.Printf(" %s wall | CPU | wall ÷ rg | CPU ÷ rg |", sv.name)
	}
	fmt.Printf("\n|---:|---:|---:|%s\n", strings.Repeat("---:|---:|---:|---:|", len(servers)))
	for i := range pairs {
		r, err := timing.Time(nil, timing.RipgrepArgs(root)...)
		if err != nil {
			return err
		}
		rg = append(rg, r)
		fmt.Printf("| %d | %.3f | %.2f |", i+1, r.Wall, r.CPU)
		for _, sv := range servers {
			h, arrived, packet, err := call(sv)
			if err != nil {
				return err
			}
			sv.calls, sv.arrived, sv.last = append(sv.calls, h), append(sv.arrived, arrived), packet
			fmt.Printf(" %.3f | %.2f | %.3f | %.3f |", h.Wall, h.CPU, h.Wall/r.Wall, h.CPU/max(r.CPU, 0.01))
		}
		fmt.Println()
	}
	fmt.Printf("\nmedians: rg %.3f s wall, %.2f s CPU\n", timing.Median(rg, timing.Wall), timing.Median(rg, timing.CPU))
	for _, sv := range servers {
		fmt.Printf("%s: %.3f s wall, %.2f s CPU; pair ratios to rg: wall %.3f, CPU %.3f; memory %s\n", sv.name,
			timing.Median(sv.calls, timing.Wall), timing.Median(sv.calls, timing.CPU),
			timing.PairRatio(sv.calls, rg, timing.Wall), timing.PairRatio(sv.calls, rg, timing.CPU), memory(sv.pid))
		fmt.Printf("%s: the reply's last byte arrived after %.3f s (wall ÷ rg %.3f), before the client decoded it\n", sv.name,
			timing.Median(sv.arrived, timing.Wall), timing.PairRatio(sv.arrived, rg, timing.Wall))
	}
	if !check {
		return nil
	}
	for _, sv := range servers {
		want, err := pipedNoIndex(bin, root, sv.goal, sv.lastCap)
		if err != nil {
			return err
		}
		if sv.last != want {
			return fmt.Errorf("%s: the packet differs from the piped --no-index lane (%d and %d bytes)", sv.name, len(sv.last), len(want))
		}
	}
	fmt.Println("packets: byte-identical to the piped lane with --no-index")
	return nil
}

// call is one rtch_context on the server: the client's wall time and the
// server's CPU across it, the time until the reply's last byte arrived,
// and the text it returned (the summary with the chunks' text, or the
// brief); the brief budget its summary states is kept for the check.
func call(sv *server) (h, arrived timing.Sample, text string, err error) {
	goal, pid := sv.nextGoal(), sv.pid
	c0 := timing.ProcessCPU(pid)
	t0 := time.Now()
	res, err := sv.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rtch_context",
		Arguments: map[string]any{"goal": goal, "enough": enough, "format": format}})
	wall := time.Since(t0).Seconds()
	if err != nil {
		return h, arrived, "", err
	}
	if res.IsError {
		return h, arrived, "", fmt.Errorf("rtch_context: %v", res.Content)
	}
	h = timing.Sample{Wall: wall, CPU: timing.ProcessCPU(pid) - c0}
	var sum schema.PacketSummary
	if b, err := json.Marshal(res.StructuredContent); err == nil && json.Unmarshal(b, &sum) == nil {
		sv.lastCap = sum.Budget.Cap
	}
	arrived = timing.Sample{Wall: sv.out.lastLine().Sub(t0).Seconds()}
	return h, arrived, res.Content[0].(*mcp.TextContent).Text, nil
}

// memory is a process's peak and current resident size (VmHWM, VmRSS).
func memory(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, k := range []string{"VmHWM:", "VmRSS:"} {
			if v, ok := strings.CutPrefix(l, k); ok {
				out = append(out, k+" "+strings.TrimSpace(v))
			}
		}
	}
	return strings.Join(out, ", ")
}

// pipedNoIndex is what the piped binaries print with --no-index for goal,
// as rtch_context's text in the calls' format at the brief budget cap.
func pipedNoIndex(bin, root, goal string, cap int) (string, error) {
	lane := fmt.Sprintf(`set -o pipefail; rtch-intake -q --goal %q --enough %q --profile code_path --fanout normal --risk read_only --output-kind hydration_packet | rtch-zone -q | rtch-scout -q --no-index | rtch-probe -q --no-index | rtch-hydrate -q | rtch-packet -q %s`,
		goal, enough, strings.Join(rtchmcp.TextFlags(format, cap), " "))
	cmd := exec.Command("bash", "-c", lane)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SOURCE_DATE_EPOCH="+epoch)
	out, err := cmd.Output()
	return string(out), err
}
