package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/evalscore"
)

// evalRun is a run summary under bench/runs: the eval runner's per-set
// tables with the commit they measured and the command that measured them.
type evalRun struct {
	Commit    string    `json:"commit"`
	Date      string    `json:"date"`
	GoVersion string    `json:"go_version"`
	Command   string    `json:"command"`
	Sets      []evalSet `json:"sets"`
}

// evalSet is one task file's summaries; Language is the main language of its
// trees (the extensions the reference baseline kept).
type evalSet struct {
	Name      string         `json:"name"`
	Language  string         `json:"language"`
	Groups    []evalGroup    `json:"groups"`
	Misses    *evalMisses    `json:"misses,omitempty"`
	Languages []evalLanguage `json:"languages,omitempty"`
}

// evalLanguage is a set's function-level and line-level scores for the
// tasks of one language ("all" for the whole set).
type evalLanguage struct {
	Lang                string     `json:"lang"`
	Tasks               int        `json:"tasks"`
	FuncAcc             [3]float64 `json:"func_acc"`
	FuncHit             [3]float64 `json:"func_hit"`
	JSONLineRecall      float64    `json:"json_line_recall"`
	BriefLineRecall     float64    `json:"brief_line_recall"`
	WholeFileLineRecall float64    `json:"whole_file_line_recall"`
}

type evalGroup struct {
	Group    string             `json:"group"`
	BM25     evalscore.Summary  `json:"bm25"`
	BM25All  evalscore.Summary  `json:"bm25_all"`
	Pipeline *evalscore.Summary `json:"pipeline,omitempty"`
}

type evalMisses struct {
	Misses        int      `json:"misses"`
	BM25Hit       int      `json:"bm25_hit_at_5"`
	Failed        int      `json:"failed"`
	NeverSelected int      `json:"gold_never_selected"`
	NonSource     int      `json:"non_source_in_top5"`
	Test          int      `json:"test_in_top5"`
	IDs           []string `json:"ids"`
}

// runnerOutput is the part of the eval runner's --json output a summary
// keeps, and the tasks' baseline extensions that name each set's language.
type runnerOutput struct {
	Date      string    `json:"date"`
	GoVersion string    `json:"go_version"`
	Args      []string  `json:"args"`
	Sets      []evalSet `json:"sets"`
	Tasks     []struct {
		Set  string `json:"set"`
		BM25 struct {
			Exts []string `json:"exts"`
		} `json:"bm25"`
	} `json:"tasks"`
}

func readRun(path string) (*evalRun, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r evalRun
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Commit == "" || len(r.Sets) == 0 {
		return nil, fmt.Errorf("%s: not a run summary (no commit or no sets)", path)
	}
	return &r, nil
}

// importRun writes the run summary of the runner's output src.
func importRun(src, commit, out string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var o runnerOutput
	if err := json.Unmarshal(data, &o); err != nil {
		return fmt.Errorf("%s: %v", src, err)
	}
	if len(o.Sets) == 0 {
		return fmt.Errorf("%s: no sets (is it the eval runner's --json output?)", src)
	}
	r := evalRun{Commit: commit, Date: o.Date, GoVersion: o.GoVersion, Command: command(o.Args)}
	for _, s := range o.Sets {
		var exts []string
		for _, t := range o.Tasks {
			if t.Set == s.Name {
				exts = append(exts, t.BM25.Exts...)
			}
		}
		s.Language = language(exts)
		r.Sets = append(r.Sets, s)
	}
	enc, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(out, append(enc, '\n'), 0o644)
}

// command is the runner's command line as a user types it: the built
// executable's temporary path becomes `go run ./bench/eval`.
func command(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return strings.Join(append([]string{"go run ./bench/eval"}, args[1:]...), " ")
}

var languages = map[string]string{
	".go": "Go", ".py": "Python", ".ts": "TypeScript", ".tsx": "TypeScript", ".js": "JavaScript",
	".jsx": "JavaScript", ".rs": "Rust", ".java": "Java", ".kt": "Kotlin", ".c": "C", ".h": "C",
	".cc": "C++", ".cpp": "C++", ".rb": "Ruby",
}

// language names the extensions' languages, most frequent first.
func language(exts []string) string {
	count := map[string]int{}
	for _, e := range exts {
		name, ok := languages[e]
		if !ok {
			name = e
		}
		count[name]++
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	return strings.Join(names, ", ")
}
