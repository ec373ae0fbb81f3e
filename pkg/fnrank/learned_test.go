package fnrank

import (
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/rank"
)

func TestShippedModelLoads(t *testing.T) {
	m, err := Model()
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != "trees" || len(m.Trees) == 0 {
		t.Errorf("model.json is a %s model with %d trees, want the trained trees", m.Kind, len(m.Trees))
	}
}

func TestFeatureRows(t *testing.T) {
	files := []File{{Path: "parse.go", Rank: 1, Data: []byte(parser)}, {Path: "other.go", Rank: 2, Data: []byte(other)}}
	terms := []Term{{Term: "parseLong", Weight: 5}, {Term: "value", Weight: 1}, {Term: "flag", Weight: 2}}
	us, rows := RankFeatures(files, terms, Weights{})
	if len(rows) != len(us) {
		t.Fatalf("%d rows for %d units", len(rows), len(us))
	}
	col := func(name string) int { return slices.Index(FeatureNames, name) }
	row := map[string][]float64{}
	for i, u := range us {
		if len(rows[i]) != len(FeatureNames) {
			t.Fatalf("%s: %d columns, want %d", u.Name, len(rows[i]), len(FeatureNames))
		}
		row[u.Path+":"+u.Name] = rows[i]
	}
	pl, ps, set := row["parse.go:parseLong"], row["parse.go:Parse"], row["parse.go:set"]
	if pl == nil || ps == nil || set == nil {
		t.Fatalf("units %s", keys(us))
	}
	// parseLong is named by the goal; Parse calls it; set is called by it.
	for _, c := range []struct {
		name string
		row  []float64
		col  string
		want float64
	}{
		{"parseLong", pl, "name_match", 1},
		{"Parse", ps, "name_match", 0},
		{"Parse", ps, "calls_named", 1},
		{"parseLong", pl, "calls_named", 0},
		{"set", set, "called_by_named", 1},
		{"Parse", ps, "called_by_named", 0},
		{"parseLong", pl, "file_rank1", 1},
		{"parseLong", pl, "hand_rel", 1},
	} {
		if got := c.row[col(c.col)]; got != c.want {
			t.Errorf("%s: %s = %g, want %g", c.name, c.col, got, c.want)
		}
	}
}

func TestRerankOrdersByTheModel(t *testing.T) {
	files := []File{{Path: "parse.go", Rank: 1, Data: []byte(parser)}, {Path: "other.go", Rank: 2, Data: []byte(other)}}
	terms := []Term{{Term: "parseLong", Weight: 5}, {Term: "value", Weight: 1}, {Term: "flag", Weight: 2}}
	us, rows := RankFeatures(files, terms, Weights{BestTopLevel: 0, K1: 1.2, B: 0.3, AvgLines: 30, Head: 1, Name: 3,
		TopLevel: 0.5, Container: 0.5, FileFactor: Default.FileFactor, Test: 0.3, Decl: 0.5})
	// A model that prefers the units called by the named one, then the
	// hand-written score.
	m, err := rank.LoadModelOver([]byte(`{"kind":"linear","features":["called_by_named","hand_log"],"pool":100,"weights":[10,1]}`), FeatureNames)
	if err != nil {
		t.Fatal(err)
	}
	got := Rerank(us, rows, m)
	if keys(got) != "parse.go:set parse.go:parseLong parse.go:Parse other.go:helper" {
		t.Errorf("learned order %s (hand-written %s)", keys(got), keys(us))
	}
	if !strings.Contains(strings.Join(got[0].Why, "; "), "learned ranking: 4 in the hand-written one") {
		t.Errorf("the moved unit's reasons %q do not say where it was", got[0].Why)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score || got[i].Score <= 0 {
			t.Errorf("scores %g after %g: not in order or not positive", got[i].Score, got[i-1].Score)
		}
	}
}
