package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/rank"
)

// synthetic writes a features file of n tasks over repos in which the
// gold file is the candidate with kind_test 0 and the highest
// window_idf_frac, whatever the hand-written order (it is third).
func synthetic(t *testing.T, n int, repos []string) string {
	t.Helper()
	col := map[string]int{}
	for i, name := range rank.FeatureNames {
		col[name] = i
	}
	var b bytes.Buffer
	h, _ := json.Marshal(map[string]any{"kind": "traincorpus.features", "names": rank.FeatureNames, "history": []string{"h_touch"}})
	b.Write(append(h, '\n'))
	for i := range n {
		repo := repos[i%len(repos)]
		var f, hs [][]float64
		var labels []int
		var paths []string
		for c := range 6 {
			row := make([]float64, len(rank.FeatureNames))
			row[col["log_rank"]] = float64(c)
			row[col["score_rel"]] = 1 - 0.1*float64(c)
			row[col["window_idf_frac"]] = float64((c*7+i)%5) / 10
			if c == 2 {
				row[col["window_idf_frac"]] = 0.9
			}
			if c == 0 {
				row[col["kind_test"]] = 1
				row[col["window_idf_frac"]] = 0.95
			}
			f = append(f, row)
			hs = append(hs, []float64{float64(c % 2)})
			labels = append(labels, map[bool]int{true: 1, false: 0}[c == 2])
			paths = append(paths, fmt.Sprintf("f%d.go", c))
		}
		line, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("%s@%012d", repo, i), "repo": repo, "lang": "go",
			"gold": []string{"f2.go"}, "paths": paths, "labels": labels, "f": f, "h": hs})
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(t.TempDir(), "features.ndjson")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLinearLearnsAndIsReproducible(t *testing.T) {
	feats := synthetic(t, 40, []string{"a/a", "b/b"})
	dir := t.TempDir()
	for _, out := range []string{"m1.json", "m2.json"} {
		if code := run([]string{"linear", "--features", feats, "--out", filepath.Join(dir, out)}); code != 0 {
			t.Fatalf("linear exit %d", code)
		}
	}
	m1, _ := os.ReadFile(filepath.Join(dir, "m1.json"))
	m2, _ := os.ReadFile(filepath.Join(dir, "m2.json"))
	if !bytes.Equal(m1, m2) {
		t.Fatal("two trainings on the same features differ")
	}
	ds, err := readDataset(feats, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := readModel(filepath.Join(dir, "m1.json"), ds)
	if err != nil {
		t.Fatal(err)
	}
	var classic, learned []outcome
	for _, q := range ds.Queries {
		classic = append(classic, score(q, classicScores(q)))
		learned = append(learned, score(q, modelScores(m, q)))
	}
	if c, l := summarize(classic), summarize(learned); c.acc[0] != 0 || l.acc[0] != 100 {
		t.Errorf("acc@1 classic %.1f learned %.1f, want 0 and 100", c.acc[0], l.acc[0])
	}
	// --limit trains on the file's first tasks only.
	lim := filepath.Join(dir, "lim.json")
	if code := run([]string{"linear", "--features", feats, "--limit", "10", "--out", lim}); code != 0 {
		t.Fatalf("linear --limit exit %d", code)
	}
	if b, _ := os.ReadFile(lim); !strings.Contains(string(b), `"pairwise linear, 10 tasks of 2 repositories"`) {
		t.Errorf("--limit 10 model: %.300s", b)
	}
	// pack writes what the lane embeds; a model over history cannot be.
	if code := run([]string{"pack", "--model", filepath.Join(dir, "m1.json"), "--out", filepath.Join(dir, "m.bin")}); code != 0 {
		t.Fatalf("pack exit %d", code)
	}
	// A model over the history columns is for measurement: eval reads it,
	// pack (the lane) refuses it.
	h := filepath.Join(dir, "h.json")
	if code := run([]string{"linear", "--features", feats, "--history", "--out", h}); code != 0 {
		t.Fatalf("linear --history exit %d", code)
	}
	if b, _ := os.ReadFile(h); !strings.Contains(string(b), `"h_touch"`) {
		t.Errorf("the --history model has no history column: %.300s", b)
	}
	if code := run([]string{"eval", "--features", feats, "--model", h}); code != 0 {
		t.Errorf("eval of the --history model: exit %d", code)
	}
	if code := run([]string{"pack", "--model", h, "--out", filepath.Join(dir, "h.bin")}); code != 2 {
		t.Errorf("pack of a model over history: exit %d, want 2", code)
	}
}

func TestFoldsHoldEveryLanguageAndNoRepositoryTwice(t *testing.T) {
	var qs []query
	for _, r := range []struct{ repo, lang string }{{"g/1", "go"}, {"g/2", "go"}, {"g/3", "go"}, {"p/1", "python"}, {"p/2", "python"}, {"g/1", "go"}} {
		qs = append(qs, query{Repo: r.repo, Lang: r.lang})
	}
	f := folds(qs, 2)
	if len(f) != 5 || f["g/1"] != 0 || f["g/2"] != 1 || f["g/3"] != 0 || f["p/1"] != 1 || f["p/2"] != 0 {
		t.Errorf("folds %v", f)
	}
}

func TestScoreCountsGoldOutsideTheCandidates(t *testing.T) {
	q := query{Gold: 2, Labels: []int{0, 1, 0, 0}}
	o := score(q, []float64{4, 3, 2, 1})
	if o.rr != 0.5 || o.acc != [4]bool{} {
		t.Errorf("one of two gold files among the candidates: %+v, want rr 0.5 and no acc@k", o)
	}
	q.Gold = 1
	if o := score(q, []float64{1, 3, 2, 1}); o.rr != 1 || o.acc != [4]bool{true, true, true, true} {
		t.Errorf("gold first: %+v", o)
	}
}

// The cross-validation takes tree models only if each held out its own
// fold's repositories, and XGBoost's trees (train.py) score in Go as in
// XGBoost (train.py checks it) and train the same file twice.
func TestCrossValidationWithTrainedTrees(t *testing.T) {
	if _, err := exec.Command("/usr/bin/python3", "-c", "import xgboost").CombinedOutput(); err != nil {
		t.Skip("no /usr/bin/python3 with xgboost")
	}
	feats := synthetic(t, 30, []string{"a/a", "b/b", "c/c"})
	dir := t.TempDir()
	for _, out := range []string{"t1.json", "t2.json"} {
		c := exec.Command("/usr/bin/python3", "train.py", "--features", feats, "--out", filepath.Join(dir, out))
		if b, err := c.CombinedOutput(); err != nil {
			t.Fatalf("train.py: %v\n%s", err, b)
		}
	}
	t1, _ := os.ReadFile(filepath.Join(dir, "t1.json"))
	t2, _ := os.ReadFile(filepath.Join(dir, "t2.json"))
	if !bytes.Equal(t1, t2) {
		t.Fatal("train.py wrote two different models from the same features")
	}
	cv := filepath.Join(dir, "cv")
	os.MkdirAll(cv, 0o755)
	c := exec.Command("/usr/bin/python3", "train.py", "--features", feats, "--cv", "3", "--cv-dir", cv)
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("train.py --cv: %v\n%s", err, b)
	}
	if code := run([]string{"cv", "--features", feats, "--folds", "3", "--models", cv}); code != 0 {
		t.Fatalf("cv exit %d", code)
	}
	// A fold model trained on its own fold's repositories is refused.
	m, _ := os.ReadFile(filepath.Join(cv, "fold-0.json"))
	os.WriteFile(filepath.Join(cv, "fold-0.json"), bytes.Replace(m, []byte("held out: a/a"), []byte("held out: b/b"), 1), 0o644)
	if code := run([]string{"cv", "--features", feats, "--folds", "3", "--models", cv}); code == 0 {
		t.Error("cv took a fold model that did not hold out its fold")
	}
	if !strings.Contains(string(t1), `"kind":"trees"`) {
		t.Errorf("train.py model: %.200s", t1)
	}
}
