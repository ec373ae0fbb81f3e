package evalscore

import (
	"fmt"
	"testing"
)

func TestGoldUnits(t *testing.T) {
	src := "package a\n\nimport \"os\"\n\n// F does.\nfunc F() {\n\tos.Exit(1)\n}\n\ntype T struct {\n\tx int\n}\n"
	got := GoldUnits("a.go", []byte(src), [][2]int{{7, 7}, {3, 3}, {5, 6}, {11, 11}, {0, 0}})
	want := "[a.go:top a.go:L6 a.go:L10]"
	if fmt.Sprint(got) != want {
		t.Errorf("gold units %v, want %s (in line order, the doc line counting as its function, line 0 as line 1)", got, want)
	}
}

func TestScoreFunctions(t *testing.T) {
	ranked := []string{"a", "b", "c", "d", "e", "f"}
	for _, c := range []struct {
		gold     []string
		acc, hit [3]bool
	}{
		{[]string{"a"}, [3]bool{true, true, true}, [3]bool{true, true, true}},
		{[]string{"b", "e"}, [3]bool{false, true, true}, [3]bool{false, true, true}},
		{[]string{"a", "f"}, [3]bool{false, false, true}, [3]bool{true, true, true}},
		{[]string{"a", "z"}, [3]bool{}, [3]bool{true, true, true}},
		{nil, [3]bool{}, [3]bool{}},
	} {
		s := ScoreFunctions(ranked, c.gold)
		if s.Acc != c.acc || s.Hit != c.hit || s.Gold != len(c.gold) || s.Ranked != 6 {
			t.Errorf("gold %v: %+v, want acc %v hit %v", c.gold, s, c.acc, c.hit)
		}
	}
}
