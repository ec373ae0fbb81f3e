package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/evalscore"
)

func TestUnitKeys(t *testing.T) {
	got := unitKeys([]rankedFunction{{Path: "./a.go", Kind: "func", StartLine: 7}, {Path: "a.go", Kind: "top_level", StartLine: 1}})
	if strings.Join(got, " ") != "a.go:L7 a.go:top" {
		t.Errorf("unit keys %v", got)
	}
}

// TestWholeFiles reads whole files in the given order until the budget is
// spent, the last one cut to the lines that fit.
func TestWholeFiles(t *testing.T) {
	tree := t.TempDir()
	long := strings.Repeat("a line of forty characters in the file\n", 100) // ~1,000 tokens
	for name, text := range map[string]string{"a.go": "package a\n", "b.go": long, "c.go": long} {
		if err := os.WriteFile(filepath.Join(tree, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spans := wholeFiles(tree, []string{"a.go", "missing.go", "b.go", "c.go"}, 1500)
	if len(spans) != 3 || spans[0] != (evalscore.Span{Path: "a.go", Start: 1, End: 1}) || spans[1].End != 100 {
		t.Fatalf("spans %+v", spans)
	}
	if c := spans[2]; c.Path != "c.go" || c.End < 30 || c.End > 50 {
		t.Errorf("the last file is cut at %+v, want about 45 of its 100 lines", c)
	}
	if spans := wholeFiles(tree, []string{"b.go"}, 10); len(spans) != 0 {
		t.Errorf("no line fits 10 tokens, got %+v", spans)
	}
}

func TestLangRows(t *testing.T) {
	ok := func(acc bool, line float64) *systemResult {
		f := evalscore.FuncScore{Acc: [3]bool{false, acc, acc}, Hit: [3]bool{acc, acc, acc}}
		p := evalscore.PacketScore{LineRecall: line}
		return &systemResult{Functions: &f, Packet: &p, Brief: &p, BriefTokens: 100}
	}
	rows := langRows([]taskResult{
		{Lang: "go", Pipeline: ok(true, 1)},
		{Lang: "go", Pipeline: &systemResult{Failed: true}},
		{Lang: "python", Pipeline: ok(false, 0.5)},
	})
	if len(rows) != 3 || rows[0].Lang != "go" || rows[2].Lang != "all" {
		t.Fatalf("rows %+v", rows)
	}
	if g := rows[0]; g.Tasks != 2 || g.FuncAcc[1] != 50 || g.FuncHit[0] != 50 || g.BriefLineRecall != 50 || g.WholeFileLineRecall != nil {
		t.Errorf("go row %+v (a failed task counts as a miss)", g)
	}
	if a := rows[2]; a.Tasks != 3 || a.JSONLineRecall != 50 || a.MedianBriefTokens != 100 {
		t.Errorf("all row %+v", a)
	}
}
