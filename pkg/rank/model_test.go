package rank

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The packed model the lane embeds is model.json, packed: they cannot
// drift apart (make train writes both).
func TestPackedModelIsTheModelFile(t *testing.T) {
	data, err := os.ReadFile("model.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadModel(data)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Pack(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, packedModel) {
		t.Fatal("model.bin is not model.json packed: run go run ./bench/ranktrain pack --model pkg/rank/model.json --out pkg/rank/model.bin")
	}
	if _, err := DefaultModel(); err != nil {
		t.Fatal(err)
	}
}

const tinyTrees = `{"kind":"trees","features":["score_rel","kind_test"],"pool":3,"trees":[
 [{"f":1,"t":0.5,"yes":1,"no":2},{"f":0,"t":0.8,"yes":3,"no":4},{"f":-1,"leaf":-2}, {"f":-1,"leaf":0.25},{"f":-1,"leaf":1}],
 [{"f":-1,"leaf":0.5}]]}`

func TestModelScoreFollowsXGBoostsRule(t *testing.T) {
	m, err := LoadModel([]byte(tinyTrees))
	if err != nil {
		t.Fatal(err)
	}
	row := make([]float64, len(FeatureNames))
	col := map[string]int{}
	for i, n := range FeatureNames {
		col[n] = i
	}
	row[col["score_rel"]] = 0.8 // not < 0.8: the "no" side
	if s := m.Score(row); s != 1.5 {
		t.Errorf("score_rel 0.8: %v, want 1 + 0.5", s)
	}
	row[col["score_rel"]] = 0.79
	if s := m.Score(row); s != 0.75 {
		t.Errorf("score_rel 0.79: %v, want 0.25 + 0.5", s)
	}
	row[col["kind_test"]] = 1
	if s := m.Score(row); s != -1.5 {
		t.Errorf("a test file: %v, want -2 + 0.5", s)
	}
	b, _ := Pack(m)
	u, err := Unpack(b)
	if err != nil || u.Score(row) != m.Score(row) || len(u.Trees) != 2 {
		t.Errorf("unpacked model differs: %v", err)
	}
}

func TestLoadModelRefusesWhatItCannotRun(t *testing.T) {
	for name, bad := range map[string]string{
		"unknown input": `{"kind":"linear","features":["no_such_feature"],"pool":10,"weights":[1]}`,
		"weights":       `{"kind":"linear","features":["score_rel"],"pool":10,"weights":[1,2]}`,
		"loop":          `{"kind":"trees","features":["score_rel"],"pool":10,"trees":[[{"f":0,"t":1,"yes":0,"no":1},{"f":-1}]]}`,
		"out of range":  `{"kind":"trees","features":["score_rel"],"pool":10,"trees":[[{"f":0,"t":1,"yes":1,"no":5},{"f":-1}]]}`,
		"kind":          `{"kind":"forest","features":["score_rel"],"pool":10}`,
		"pool":          `{"kind":"linear","features":["score_rel"],"pool":0,"weights":[1]}`,
		"unknown field": `{"kind":"linear","features":["score_rel"],"pool":10,"weights":[1],"extra":1}`,
	} {
		if _, err := LoadModel([]byte(bad)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if _, err := Unpack([]byte("not a model")); err == nil {
		t.Error("unpacked garbage")
	}
	b, _ := Pack(&Model{Kind: "linear", Features: []string{"score_rel"}, Pool: 5, Weights: []float64{1}})
	if _, err := Unpack(b[:len(b)-1]); err == nil {
		t.Error("unpacked a truncated model")
	}
}

// Rerank orders the pool by the model, keeps the hand-written order on
// ties, gives falling positive scores and leaves the tail below, in order.
func TestRerank(t *testing.T) {
	m, err := LoadModel([]byte(`{"kind":"linear","features":["kind_test"],"pool":3,"weights":[-1]}`))
	if err != nil {
		t.Fatal(err)
	}
	scored := []Scored{{File: File{Path: "a_test.go"}, Score: 5}, {File: File{Path: "b.go"}, Score: 4}, {File: File{Path: "c.go"}, Score: 3},
		{File: File{Path: "d.go"}, Score: 2}, {File: File{Path: "e.go"}, Score: 1}}
	rows := make([][]float64, len(scored))
	for i := range rows {
		rows[i] = make([]float64, len(FeatureNames))
	}
	for i, n := range FeatureNames {
		if n == "kind_test" {
			rows[0][i] = 1
		}
	}
	got := m.Rerank(scored, rows)
	if p := strings.Join(paths(got), " "); p != "b.go c.go a_test.go d.go e.go" {
		t.Fatalf("order %s", p)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score || got[i].Score <= 0 {
			t.Errorf("scores not falling and positive: %v", got)
		}
	}
	if got[0].Score != 5 || got[1].Score != 5 || got[2].Score >= got[1].Score || got[3].Score >= got[2].Score {
		t.Errorf("scores %v %v %v %v: the first keeps the top score, a model tie an equal one, the rest fall", got[0].Score, got[1].Score, got[2].Score, got[3].Score)
	}
	if !strings.Contains(strings.Join(got[2].Why, " "), "learned ranking: 1 in the hand-written one") {
		t.Errorf("moved file's reasons: %v", got[2].Why)
	}
}
