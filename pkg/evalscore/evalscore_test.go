package evalscore

import (
	"reflect"
	"strings"
	"testing"
)

func TestReadTasksBothFormats(t *testing.T) {
	in := `{"repo": "spf13/cobra", "parent": "90b975fd8e4870dc0215c3f2b94d277544cf4183", "commit": "7ba2", "intent": "Detect child", "gold_files": ["command.go", "command_test.go", "cobra.go"], "gold_lines": {"cobra.go": [[160, 160]], "command.go": [[3, 4]]}}

{"instance_id": "psf__requests-1142", "repo": "psf/requests", "base_commit": "22623bd8c265", "problem_statement": "requests.get sends content length", "gold_files": ["requests/models.py"], "gold_lines": {"requests/models.py": [[389, 389]]}}
`
	tasks, err := ReadTasks(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 {
		t.Fatalf("got %d tasks, want 2", len(tasks))
	}
	a, b := tasks[0], tasks[1]
	if a.ID != "spf13/cobra@90b975fd8e48" || a.Commit != "90b975fd8e4870dc0215c3f2b94d277544cf4183" || a.Intent != "Detect child" {
		t.Errorf("go-commits task decoded as %+v", a)
	}
	if !reflect.DeepEqual(a.Gold, []string{"cobra.go", "command.go"}) {
		t.Errorf("gold = %v, want the non-test files sorted", a.Gold)
	}
	if a.Source != "t.jsonl:1" || b.Source != "t.jsonl:3" {
		t.Errorf("sources %q %q", a.Source, b.Source)
	}
	if b.ID != "psf__requests-1142" || b.Commit != "22623bd8c265" || !strings.HasPrefix(b.Intent, "requests.get") {
		t.Errorf("swe-bench task decoded as %+v", b)
	}
	if got := b.GoldLines["requests/models.py"]; !reflect.DeepEqual(got, [][2]int{{389, 389}}) {
		t.Errorf("gold lines %v", got)
	}
}

func TestReadTasksErrorsNameLine(t *testing.T) {
	cases := map[string]string{
		"{\"repo\":\"a/b\",\"parent\":\"abc\",\"intent\":\"x\",\"gold_files\":[\"a.go\"]}\n{bad": "t.jsonl:2:",
		`{"repo":"a/b","intent":"x","gold_files":["a.go"]}`:                                      "neither parent nor base_commit",
		`{"repo":"a/b","parent":"abc","intent":"x","gold_files":["a_test.go"]}`:                  "no non-test gold file",
		`{"repo":"ab","parent":"abc","intent":"x","gold_files":["a.go"]}`:                        "owner/name",
		`{"repo":"a/b","parent":"abc","intent":" ","gold_files":["a.go"]}`:                       "neither intent nor problem_statement",
	}
	for in, want := range cases {
		_, err := ReadTasks(strings.NewReader(in), "t.jsonl")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "t.jsonl:") {
			t.Errorf("ReadTasks(%q) error = %v, want one naming t.jsonl:N and %q", in, err, want)
		}
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"command_test.go":                                 true,
		"pkg/cmd/pr/list/list.go":                         false,
		"sympy/core/tests/test_add.py":                    true,
		"testing/python/collect.py":                       true,
		"src/_pytest/python.py":                           false,
		"sympy/utilities/randtest.py":                     false,
		"conftest.py":                                     true,
		"lib/test_utils.py":                               true,
		"lib/utils_test.py":                               true,
		"doc/testdata/x.go":                               true,
		"pkg/cmd/attestation/verification/attestation.go": false,
		"./astropy/io/tests.py":                           true,
		"latest/contest.py":                               false,
	} {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestScoreRanking(t *testing.T) {
	gold := []string{"b.go", "d.go"}
	s := ScoreRanking([]string{"a.go", "./b.go", "b.go", "c.go", "e.go", "d.go"}, gold)
	// The duplicate "b.go" counts once, so d.go is at rank 5.
	if s.FirstGold != 2 || s.RR != 0.5 || s.Ranked != 5 {
		t.Errorf("first gold %d rr %v ranked %d", s.FirstGold, s.RR, s.Ranked)
	}
	if want := [4]bool{false, true, true, true}; s.Hit != want {
		t.Errorf("hit = %v, want %v", s.Hit, want)
	}
	if want := [4]bool{false, false, true, true}; s.Acc != want {
		t.Errorf("acc = %v, want %v", s.Acc, want)
	}
	none := ScoreRanking([]string{"x.go"}, gold)
	if none.FirstGold != 0 || none.RR != 0 || none.Hit[3] || none.Acc[3] {
		t.Errorf("no gold ranked scored as %+v", none)
	}
	partial := ScoreRanking([]string{"d.go"}, gold)
	if !partial.Hit[0] || partial.Acc[3] || partial.RR != 1 {
		t.Errorf("half the gold ranked scored as %+v", partial)
	}
}

func TestScorePacket(t *testing.T) {
	gold := []string{"a.go", "b.go"}
	lines := map[string][][2]int{"a.go": {{10, 12}, {12, 13}}, "b.go": {{0, 0}}}
	spans := []Span{{"a.go", 1, 10}, {"./a.go", 13, 40}, {"c.go", 1, 100}}
	p := ScorePacket(spans, gold, lines)
	// a.go gold lines 10..13 (4), b.go line 0 → 1 (1): covered 10 and 13.
	if p.GoldLines != 5 || p.CoveredLines != 2 || p.LineRecall != 0.4 {
		t.Errorf("lines %d covered %d recall %v", p.GoldLines, p.CoveredLines, p.LineRecall)
	}
	if p.FileRecall != 0.5 || !p.HasGold {
		t.Errorf("file recall %v has gold %v", p.FileRecall, p.HasGold)
	}
	p = ScorePacket([]Span{{"b.go", 1, 5}}, gold, lines)
	if p.CoveredLines != 1 {
		t.Errorf("an insertion at line 0 is covered by a chunk from line 1; covered %d", p.CoveredLines)
	}
	p = ScorePacket(nil, []string{"a.go"}, nil)
	if p.HasGold || p.LineRecall != 0 || p.FileRecall != 0 {
		t.Errorf("empty packet scored %+v", p)
	}
	p = ScorePacket([]Span{{"a.go", 1, 2}}, []string{"a.go"}, nil)
	if p.LineRecall != 1 {
		t.Errorf("a gold file without lines takes file recall as line recall; got %v", p.LineRecall)
	}
}

func TestSummarizeCountsFailuresAsMisses(t *testing.T) {
	hit := Outcome{Rank: ScoreRanking([]string{"a"}, []string{"a"}), Seconds: 2, Tokens: 100, HasPacket: true,
		Packet: PacketScore{FileRecall: 1, LineRecall: 0.5, HasGold: true}}
	miss := Outcome{Rank: ScoreRanking([]string{"b"}, []string{"a"}), Seconds: 4, Tokens: 300, HasPacket: true}
	failed := Outcome{Failed: true, HasPacket: true, Rank: ScoreRanking([]string{"a"}, []string{"a"})}
	s := Summarize([]Outcome{hit, miss, failed, hit})
	if s.Tasks != 4 || s.Failed != 1 {
		t.Fatalf("tasks %d failed %d", s.Tasks, s.Failed)
	}
	if s.Acc[0] != 50 || s.Hit[3] != 50 || s.MRR != 0.5 {
		t.Errorf("acc@1 %v hit@10 %v mrr %v; a failed task must count as a miss", s.Acc[0], s.Hit[3], s.MRR)
	}
	if *s.FileRecall != 50 || *s.LineRecall != 25 || *s.PacketHasGold != 50 {
		t.Errorf("packet recall %v %v %v", *s.FileRecall, *s.LineRecall, *s.PacketHasGold)
	}
	if s.MeanSeconds != 2.667 || s.MedianSeconds != 2 || s.MaxSeconds != 4 || s.MeanTokens != 166.7 {
		t.Errorf("time mean %v median %v max %v tokens %v", s.MeanSeconds, s.MedianSeconds, s.MaxSeconds, s.MeanTokens)
	}
	b := Summarize([]Outcome{{Rank: ScoreRanking([]string{"a"}, []string{"a"})}})
	if b.FileRecall != nil || b.Acc[0] != 100 {
		t.Errorf("a ranking-only system has no packet numbers: %+v", b)
	}
	if e := Summarize(nil); e.Tasks != 0 || e.MRR != 0 {
		t.Errorf("empty summary %+v", e)
	}
}
