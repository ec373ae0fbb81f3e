package rtchmcp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
)

// benchGoal is bench/hotcall's goal: its twelve terms (bench/internal/timing).
var benchGoal = strings.Join([]string{"command", "runnable", "parse", "flag", "help", "output", "execute", "error", "context", "writer", "buffer", "token"}, " ")

// benchHandler is a server's handler on $GOROOT/src, kept as rtch-mcp
// keeps it, with hot's flags, after one call that builds the index.
func benchHandler(b *testing.B, hot Hot) *handler {
	hot.IndexDir = b.TempDir()
	h := hotHandler(b, filepath.Join(runtime.GOROOT(), "src"), hot)
	benchCall(b, h)
	return h
}

func benchCall(b *testing.B, h *handler) { benchAsk(b, h, benchGoal) }

func benchAsk(b *testing.B, h *handler, goal string) {
	res, _, err := h.context(context.Background(), nil, ContextInput{Goal: goal, Enough: "the bench is done", Format: "json"})
	if err != nil || res.IsError {
		b.Fatalf("rtch_context: %v %s", err, textOf(res))
	}
}

// BenchmarkRepeatContextGOROOT is a repeat rtch_context on an unchanged
// $GOROOT/src, answered from the memo (bench/hotcall measures it over
// stdio beside rg).
func BenchmarkRepeatContextGOROOT(b *testing.B) {
	h := benchHandler(b, Hot{})
	for b.Loop() {
		benchCall(b, h)
	}
}

// BenchmarkWarmContextGOROOT is the same call with --no-memo: the lane runs
// on the warm index and the kept walk.
func BenchmarkWarmContextGOROOT(b *testing.B) {
	h := benchHandler(b, Hot{NoMemo: true})
	benchCall(b, h)
	for b.Loop() {
		benchCall(b, h)
	}
}

// BenchmarkNewQuestionGOROOT is a new question on every call (the twelve
// terms and one more word), which the memo could not answer (it is off, as
// the words come round again): the lane runs on the kept walk, index and
// hydrated files (bench/hotcall --vary).
func BenchmarkNewQuestionGOROOT(b *testing.B) {
	h := benchHandler(b, Hot{NoMemo: true})
	words := strings.Fields("mutex socket parser cache timer channel signal deadline cookie header proxy cipher")
	i := 0
	for b.Loop() {
		benchAsk(b, h, benchGoal+" "+words[i%len(words)])
		i++
	}
}

// BenchmarkRepeatOverStdioGOROOT is BenchmarkRepeatContextGOROOT through
// what a stdio client reaches: the tool run as its binary runs it (the
// output boundary's redactor, the reply writer) over pipes to an SDK
// client, in each format (bench/hotcall --format).
func BenchmarkRepeatOverStdioGOROOT(b *testing.B) {
	cs := stdioSession(b, filepath.Join(runtime.GOROOT(), "src"), "--index", b.TempDir())
	for _, format := range []string{"json", "md"} {
		ask := func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rtch_context",
				Arguments: map[string]any{"goal": benchGoal, "enough": "the bench is done", "format": format}})
			if err != nil || res.IsError {
				b.Fatalf("rtch_context: %v", err)
			}
		}
		ask()
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				ask()
			}
		})
	}
}

// stdioSession runs rtch-mcp in process on pipes, as cli.Main would run
// it, and returns a client session to it.
func stdioSession(b *testing.B, root string, args ...string) *mcp.ClientSession {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		done <- cli.Run(context.Background(), Tool(), append([]string{"--root", root}, args...), inR, outW, io.Discard)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		inW.Close()
		<-done
	})
	return cs
}

// latencyGoals are bench/latency's goals on GOROOT/src, in file order.
func latencyGoals(b *testing.B) []string {
	data, err := os.ReadFile("../../../bench/latency/goals.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var goals []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var g struct{ Goal string }
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			b.Fatal(err)
		}
		goals = append(goals, g.Goal)
	}
	return goals
}

// askAny is a call with goal in the md format, as bench/latency asks it;
// a reply over its token budget is an answer too.
func askAny(b *testing.B, h *handler, goal string) {
	if _, _, err := h.context(context.Background(), nil, ContextInput{Goal: goal, Enough: "the bench is done"}); err != nil {
		b.Fatalf("rtch_context: %v", err)
	}
}

// BenchmarkLatencyGoalGOROOT is one new question of bench/latency's
// goals on GOROOT/src with the index (RTCH_BENCH_GOAL: its line, default
// the 2,016-character issue), each timed call after an untimed other
// goal, as the runner asks them in turn.
func BenchmarkLatencyGoalGOROOT(b *testing.B) {
	goals := latencyGoals(b)
	n := 27
	if s := os.Getenv("RTCH_BENCH_GOAL"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	h := benchHandler(b, Hot{NoMemo: true})
	for b.Loop() {
		b.StopTimer()
		askAny(b, h, goals[0])
		b.StartTimer()
		pprof.Do(context.Background(), pprof.Labels("goal", "timed"), func(context.Context) { askAny(b, h, goals[n-1]) })
	}
}
