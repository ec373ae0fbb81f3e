package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// evalDir is the evaluation data beside the repository (../shared/eval
// from its top), or $RTCH_EVAL_DATA.
func evalDir(t *testing.T) string {
	if d := os.Getenv("RTCH_EVAL_DATA"); d != "" {
		return d
	}
	d, err := filepath.Abs("../../../shared/eval")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The committed task list trains the ranking: not one of its repositories
// may be an evaluation repository (any task file's, or one the owners hold
// out), and every one must be listed in train-repos.txt.
func TestTrainingCorpusHoldsNoEvaluationRepository(t *testing.T) {
	l, err := readIDs("ids.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tasks) < 5000 {
		t.Errorf("the corpus has %d tasks, want at least 5,000", len(l.Tasks))
	}
	dir := evalDir(t)
	ev, err := evalRepos(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go-commits.jsonl")); err != nil {
		t.Logf("no evaluation task files in %s (set RTCH_EVAL_DATA): only the held-out list is checked", dir)
	} else if !ev["spf13/cobra"] || !ev["sympy/sympy"] {
		t.Fatalf("the evaluation repositories read from %s lack cobra or sympy: %d read", dir, len(ev))
	}
	allowed := map[string]bool{}
	if specs, err := readTrainRepos(filepath.Join(dir, "train-repos.txt")); err == nil {
		for _, s := range specs {
			allowed[s.Repo] = true
		}
	}
	for i, task := range l.Tasks {
		if ev[strings.ToLower(task.Repo)] {
			t.Errorf("ids.tsv task %d: %s is an evaluation repository", i+1, task.Repo)
		}
		if len(allowed) > 0 && !allowed[task.Repo] {
			t.Errorf("ids.tsv task %d: %s is not in train-repos.txt", i+1, task.Repo)
		}
	}
	for r := range l.Heads {
		if ev[strings.ToLower(r)] {
			t.Errorf("ids.tsv reads the history of %s, an evaluation repository", r)
		}
	}
}

func TestSelectRefusesEvaluationRepositories(t *testing.T) {
	_, err := selectTasks(selectOptions{Repos: []repoSpec{{"go", "spf13/cobra"}}, Eval: map[string]bool{"spf13/cobra": true}, PerRepo: 1})
	if err == nil || !strings.Contains(err.Error(), "evaluation repository") {
		t.Fatalf("select took an evaluation repository: %v", err)
	}
}

func TestReadIDsNamesTheLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ids.tsv")
	os.WriteFile(p, []byte("# head a/b "+strings.Repeat("a", 40)+"\na/b\tnothex\t"+strings.Repeat("b", 40)+"\tgo\n"), 0o644)
	if _, err := readIDs(p); err == nil || !strings.Contains(err.Error(), "ids.tsv:2:") {
		t.Fatalf("error %v, want one naming line 2", err)
	}
}
