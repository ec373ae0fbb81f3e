// Package timing holds what the speed benchmarks beside ripgrep share: the
// issue's twelve terms, a command timed by /usr/bin/time, a process's CPU
// from /proc, and medians of samples and of pair ratios.
package timing

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Terms are issue 17's twelve terms; Goal is the lane's goal made of them.
var Terms = []string{"command", "runnable", "parse", "flag", "help", "output", "execute", "error", "context", "writer", "buffer", "token"}

// Goal is the twelve terms as one goal.
func Goal() string { return strings.Join(Terms, " ") }

// Sample is one timed run: wall and CPU (user + system) seconds, and the
// peak resident size in MB (0 when not known).
type Sample struct{ Wall, CPU, RSS float64 }

// RipgrepArgs is `rg -c -i -e T1 … -e T12 ROOT`.
func RipgrepArgs(root string) []string {
	args := []string{"rg", "-c", "-i"}
	for _, t := range Terms {
		args = append(args, "-e", t)
	}
	return append(args, root)
}

// Time runs argv under /usr/bin/time with env added to the environment
// and its standard output discarded; a failing command is an error that
// carries the end of its standard error.
func Time(env []string, argv ...string) (Sample, error) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%e %U %S %M"}, argv...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		tail := stderr.String()
		if len(tail) > 600 {
			tail = tail[len(tail)-600:]
		}
		return Sample{}, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, tail)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 4 {
		return Sample{}, fmt.Errorf("%s: unexpected /usr/bin/time line %q", strings.Join(argv, " "), lines[len(lines)-1])
	}
	var v [4]float64
	for i := range f {
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Sample{}, fmt.Errorf("%s: /usr/bin/time field %q: %v", strings.Join(argv, " "), f[i], err)
		}
		v[i] = x
	}
	return Sample{Wall: v[0], CPU: v[1] + v[2], RSS: v[3] / 1024}, nil
}

// ProcessCPU is a running process's CPU time in seconds: the time its
// threads have run (each thread's /proc schedstat, in nanoseconds), with
// the user and system time of the children it has waited for (the git
// commands rtch-zone runs, in clock ticks of 1/100 s); 0 when it cannot be
// read. The process's own utime and stime are clock ticks too, sampled: a
// call of 50 ms read from them moved by 4 to 6 ticks, too coarse for a
// ratio near 0.1 to rg.
func ProcessCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ticks := func(ks ...int) float64 {
		var sum float64
		for _, k := range ks {
			v, _ := strconv.ParseFloat(f[k], 64)
			sum += v
		}
		return sum / 100
	}
	children := ticks(13, 14) // cutime, cstime
	if run, ok := threadsRun(pid); ok {
		return run + children
	}
	return ticks(11, 12) + children // utime, stime
}

// threadsRun is the time pid's threads have spent on a CPU, in seconds.
func threadsRun(pid int) (float64, bool) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, false
	}
	var ns float64
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue // the thread ended
		}
		fields := strings.Fields(string(b))
		if len(fields) == 0 {
			return 0, false
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return 0, false
		}
		ns += v
	}
	return ns / 1e9, true
}

// Wall, CPU and RSS pick one measure of a sample.
func Wall(s Sample) float64 { return s.Wall }

// CPU is a sample's user + system seconds.
func CPU(s Sample) float64 { return s.CPU }

// RSS is a sample's peak resident MB.
func RSS(s Sample) float64 { return s.RSS }

// Median is the median of f over the samples.
func Median(s []Sample, f func(Sample) float64) float64 {
	v := make([]float64, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	return median(v)
}

// PairRatio is the median over rounds of f(a[i]) / f(b[i]).
func PairRatio(a, b []Sample, f func(Sample) float64) float64 {
	var v []float64
	for i := range min(len(a), len(b)) {
		v = append(v, f(a[i])/max(f(b[i]), 0.01))
	}
	return median(v)
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

// Percentile is the nearest-rank percentile p (1-100) of f over the
// samples; 0 for none.
func Percentile(s []Sample, f func(Sample) float64, p int) float64 {
	v := make([]float64, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	sort.Float64s(v)
	if len(v) == 0 {
		return 0
	}
	k := (p*len(v) + 99) / 100
	return v[max(k, 1)-1]
}

// Files counts the regular files under dir, the size a tree is given by.
func Files(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

// Lane is the piped lane (rtch-intake … rtch-packet from bin, --format
// format) in dir for goal, read from standard input as a long issue text
// would be, with flags given to rtch-scout and rtch-probe, as a bash
// command line.
func Lane(bin, dir, goal, enough, format string, flags ...string) []string {
	p := func(tool string) string { return strconv.Quote(filepath.Join(bin, tool)) }
	var f []string
	for _, x := range flags {
		f = append(f, strconv.Quote(x))
	}
	fl := strings.Join(f, " ")
	script := fmt.Sprintf(`set -o pipefail; cd %q && printf '%%s' "$1" | %s -q --goal-file - --profile code_path --fanout normal --risk read_only --output-kind hydration_packet --enough %q | %s -q | %s -q --no-timing %s | %s -q %s | %s -q | %s -q --format %s`,
		dir, p("rtch-intake"), enough, p("rtch-zone"), p("rtch-scout"), fl, p("rtch-probe"), fl, p("rtch-hydrate"), p("rtch-packet"), format)
	return []string{"bash", "-c", script, "lane", goal}
}
