package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rtch/rtch/bench/internal/trees"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/fnrank"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/pipeline"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/zone"
)

// fnHeader is the first line of a function features file.
type fnHeader struct {
	Kind  string   `json:"kind"`
	Names []string `json:"names"`
}

const fnKind = "traincorpus.fnfeatures"

// fnTask is one task's line: the units hydration ranks (the hand-written
// order), their feature rows and labels (1 when the unit holds a gold
// line, evalscore.GoldUnits' rule), and every gold unit, ranked or not.
type fnTask struct {
	ID    string   `json:"id"`
	Repo  string   `json:"repo"`
	Lang  string   `json:"lang"`
	Gold  []string `json:"gold_units"`
	Error string   `json:"error,omitempty"`
	// Units, Labels and F are parallel, in the hand-written order.
	Units   []string    `json:"units,omitempty"`
	Labels  []int       `json:"labels,omitempty"`
	F       [][]float64 `json:"f,omitempty"`
	Seconds float64     `json:"seconds"`
}

// cmdFnFeatures runs the lane through rtch-probe on each task's tree, as
// bench/eval does, ranks the definitions of the best surfaces as
// rtch-hydrate does (hydrate.FunctionFeatures) and appends one line per
// task to --out, resuming as features does.
func cmdFnFeatures(args []string) error {
	return runExtraction(extraction{
		name:    "fnfeatures",
		timeout: 2 * time.Minute,
		check:   checkFnHeader,
		header:  fnHeader{Kind: fnKind, Names: fnrank.FeatureNames},
		extract: func(ctx context.Context, mat *trees.Materialiser, gitDir string, t task, timeout time.Duration) (any, string) {
			ft := extractFn(ctx, mat, gitDir, t, timeout)
			return ft, status(fmt.Sprintf("%d units", len(ft.Units)), ft.Error, ft.Seconds)
		},
	}, args)
}

// checkFnHeader refuses a first line that is not a function features
// header of this build's columns.
func checkFnHeader(file, line string) error {
	var h fnHeader
	if err := json.Unmarshal([]byte(line), &h); err != nil || h.Kind != fnKind {
		return fmt.Errorf("%s:1: not a function features file", file)
	}
	if strings.Join(h.Names, ",") != strings.Join(fnrank.FeatureNames, ",") {
		return fmt.Errorf("%s:1: written with other feature columns than this build's: start a new file", file)
	}
	return nil
}

// extractFn materialises the task's tree, reads its gold units, runs the
// lane and ranks the definitions, and removes the tree.
func extractFn(ctx context.Context, mat *trees.Materialiser, gitDir string, t task, timeout time.Duration) fnTask {
	start := time.Now()
	ft := fnTask{ID: taskKey(t), Repo: t.Repo, Lang: t.Lang}
	fail := func(err error) fnTask {
		ft.Error = err.Error()
		ft.Seconds = time.Since(start).Seconds()
		return ft
	}
	tree, _, err := mat.Tree(ctx, gitDir, t.Repo, t.Parent)
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tree)
	defer os.Remove(tree + ".missing")
	for _, g := range t.GoldFiles {
		src, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(g)))
		if err != nil {
			continue
		}
		g = evalscore.CleanPath(g)
		ft.Gold = append(ft.Gold, evalscore.GoldUnits(g, src, t.GoldLines[g])...)
	}
	in, err := laneThroughProbe(ctx, tree, t.Intent, timeout)
	if err != nil {
		return fail(err)
	}
	cfg, _, err := config.Load("", tree)
	if err != nil {
		return fail(err)
	}
	units, rows, err := hydrate.FunctionFeatures(in, hydrate.NewOptions(cfg, in, tree))
	if err != nil {
		return fail(err)
	}
	gold := map[string]bool{}
	for _, g := range ft.Gold {
		gold[g] = true
	}
	for i, u := range units {
		k := UnitKeyOf(u)
		ft.Units = append(ft.Units, k)
		l := 0
		if gold[k] {
			l = 1
		}
		ft.Labels = append(ft.Labels, l)
		ft.F = append(ft.F, rows[i])
	}
	ft.Seconds = time.Since(start).Seconds()
	return ft
}

// UnitKeyOf is a ranked unit's key as the evaluation scores it.
func UnitKeyOf(u fnrank.Unit) string {
	head := u.Start
	if u.Kind == fnrank.TopLevel {
		head = 0
	}
	return evalscore.UnitKey(evalscore.CleanPath(u.Path), head)
}

// laneThroughProbe runs intake | zone | scout | probe as bench/eval does
// and collects the stream as rtch-hydrate reads it.
func laneThroughProbe(ctx context.Context, tree, intent string, timeout time.Duration) (*hydrate.Input, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tmp, err := os.MkdirTemp("", "traincorpus-lane-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	goal := filepath.Join(tmp, "goal.txt")
	if err := os.WriteFile(goal, []byte(intent), 0o644); err != nil {
		return nil, err
	}
	stages := []pipeline.Stage{
		{Tool: rtchintake.Tool(), Args: []string{"--goal-file", goal, "--profile", "code_path", "--fanout", "normal", "--risk", "read_only",
			"--output-kind", "hydration_packet", "--enough", enough}},
		{Tool: rtchzone.Tool(), Args: []string{"--dir", tree}},
		{Tool: rtchscout.Tool(), Args: []string{"--no-index"}},
		{Tool: rtchprobe.Tool(), Args: []string{"--no-index"}},
	}
	getenv := func(k string) string {
		if k == zone.EnvRoot {
			return tree
		}
		return os.Getenv(k)
	}
	var buf bytes.Buffer
	if _, err := pipeline.Run(ctx, pipeline.Options{Dir: tree, Getenv: getenv}, stages, nil, &buf); err != nil {
		return nil, err
	}
	in := &hydrate.Input{}
	rd := record.NewReader(&buf, "lane")
	for {
		l, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := in.Collect(l); err != nil {
			return nil, err
		}
	}
	return in, nil
}
