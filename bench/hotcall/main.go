// Command hotcall measures a repeat rtch_context call on a warm rtch-mcp
// beside ripgrep (issue 17, item 4): it starts the server once on a tree,
// warms it (the first call builds the index and the watcher), then runs
// pairs, alternately `/usr/bin/time rg -c -i -e T1 … -e T12 ROOT` and one
// rtch_context call over stdio on the unchanged tree, and prints each
// pair, the medians and the median of the pair ratios. The call's wall
// time is the client's; its CPU is the server's user + system time across
// the call (/proc/PID/stat); memory is the server's VmHWM (peak, the
// first call's index build included when it built it) and VmRSS at the end. It
// also checks the last packet against the piped binaries run with
// --no-index, byte for byte.
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/hotcall --bin /tmp/b --root "$(go env GOROOT)/src" --pairs 10 [--also --no-watch]
//
// --also starts a second server with extra flags, called after the first in
// each round (rg, first, second), to compare two settings side by side.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The twelve terms, and the lane's goal made of them.
var terms = []string{"command", "runnable", "parse", "flag", "help", "output", "execute", "error", "context", "writer", "buffer", "token"}

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

type sample struct{ wall, cpu float64 }

// server is one rtch-mcp under test.
type server struct {
	name  string
	cs    *mcp.ClientSession
	pid   int
	calls []sample
	last  string
}

func start(bin, root, index string, extra []string) (*server, error) {
	args := append([]string{"--root", root, "--index", index}, extra...)
	cmd := exec.Command(filepath.Join(bin, "rtch-mcp"), args...)
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+epoch)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hotcall", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	s := &server{name: strings.Join(append([]string{"rtch-mcp"}, extra...), " "), cs: cs, pid: cmd.Process.Pid}
	for i := range 3 {
		c, _, err := call(cs, s.pid)
		if err != nil {
			cs.Close()
			return nil, err
		}
		fmt.Printf("%s: warm-up call %d: %.3f s wall, %.2f s CPU\n", s.name, i+1, c.wall, c.cpu)
	}
	return s, nil
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
	defer first.cs.Close()
	servers := []*server{first}
	if len(also) > 0 {
		second, err := start(bin, root, index, also)
		if err != nil {
			return err
		}
		defer second.cs.Close()
		servers = append(servers, second)
	}
	var rg []sample
	fmt.Printf("\n| round | rg wall | rg CPU |")
	for _, sv := range servers {
		fmt.Printf(" %s wall | CPU | wall ÷ rg | CPU ÷ rg |", sv.name)
	}
	fmt.Printf("\n|---:|---:|---:|%s\n", strings.Repeat("---:|---:|---:|---:|", len(servers)))
	for i := range pairs {
		r, err := ripgrep(root)
		if err != nil {
			return err
		}
		rg = append(rg, r)
		fmt.Printf("| %d | %.3f | %.2f |", i+1, r.wall, r.cpu)
		for _, sv := range servers {
			h, packet, err := call(sv.cs, sv.pid)
			if err != nil {
				return err
			}
			sv.calls, sv.last = append(sv.calls, h), packet
			fmt.Printf(" %.3f | %.2f | %.3f | %.3f |", h.wall, h.cpu, h.wall/r.wall, h.cpu/max(r.cpu, 0.01))
		}
		fmt.Println()
	}
	wall := func(s sample) float64 { return s.wall }
	cpu := func(s sample) float64 { return s.cpu }
	fmt.Printf("\nmedians: rg %.3f s wall, %.2f s CPU\n", median(pick(rg, wall)), median(pick(rg, cpu)))
	for _, sv := range servers {
		fmt.Printf("%s: %.3f s wall, %.2f s CPU; pair ratios to rg: wall %.3f, CPU %.3f; memory %s\n", sv.name,
			median(pick(sv.calls, wall)), median(pick(sv.calls, cpu)),
			median(ratios(sv.calls, rg, wall)), median(ratios(sv.calls, rg, cpu)), memory(sv.pid))
	}
	if !check {
		return nil
	}
	want, err := pipedNoIndex(bin, root)
	if err != nil {
		return err
	}
	for _, sv := range servers {
		if sv.last != want {
			return fmt.Errorf("%s: the packet differs from the piped --no-index lane (%d and %d bytes)", sv.name, len(sv.last), len(want))
		}
	}
	fmt.Println("packets: byte-identical to the piped lane with --no-index")
	return nil
}

// ratios are the pair ratios a[i] / b[i] of f.
func ratios(a, b []sample, f func(sample) float64) []float64 {
	var out []float64
	for i := range a {
		out = append(out, f(a[i])/max(f(b[i]), 0.01))
	}
	return out
}

// call is one rtch_context on the server: the client's wall time, the
// server's CPU across it, and the JSON packet.
func call(cs *mcp.ClientSession, pid int) (sample, string, error) {
	c0 := cpuOf(pid)
	t0 := time.Now()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rtch_context",
		Arguments: map[string]any{"goal": strings.Join(terms, " "), "enough": enough, "format": "json"}})
	wall := time.Since(t0).Seconds()
	if err != nil {
		return sample{}, "", err
	}
	if res.IsError {
		return sample{}, "", fmt.Errorf("rtch_context: %v", res.Content)
	}
	return sample{wall: wall, cpu: cpuOf(pid) - c0}, res.Content[0].(*mcp.TextContent).Text, nil
}

// ripgrep runs rg under /usr/bin/time.
func ripgrep(root string) (sample, error) {
	args := []string{"-f", "%e %U %S %M", "rg", "-c", "-i"}
	for _, t := range terms {
		args = append(args, "-e", t)
	}
	cmd := exec.Command("/usr/bin/time", append(args, root)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("rg: %v: %s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	f := strings.Fields(lines[len(lines)-1])
	e, _ := strconv.ParseFloat(f[0], 64)
	u, _ := strconv.ParseFloat(f[1], 64)
	s, _ := strconv.ParseFloat(f[2], 64)
	return sample{wall: e, cpu: u + s}, nil
}

// cpuOf is a process's user + system time in seconds (clock ticks of 1/100 s).
func cpuOf(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (u + st) / 100
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

// pipedNoIndex is the JSON packet of the piped binaries with --no-index.
func pipedNoIndex(bin, root string) (string, error) {
	lane := fmt.Sprintf(`set -o pipefail; rtch-intake -q --goal %q --enough %q --profile code_path --fanout normal --risk read_only --output-kind hydration_packet | rtch-zone -q | rtch-scout -q --no-index | rtch-probe -q --no-index | rtch-hydrate -q | rtch-packet -q --format json`,
		strings.Join(terms, " "), enough)
	cmd := exec.Command("bash", "-c", lane)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SOURCE_DATE_EPOCH="+epoch)
	out, err := cmd.Output()
	return string(out), err
}

func pick(s []sample, f func(sample) float64) []float64 {
	var out []float64
	for _, x := range s {
		out = append(out, f(x))
	}
	return out
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
