package rtchmcp

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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

func benchCall(b *testing.B, h *handler) {
	res, _, err := h.context(context.Background(), nil, ContextInput{Goal: benchGoal, Enough: "the bench is done", Format: "json"})
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
