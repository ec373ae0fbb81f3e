package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// repoSpec is one line of train-repos.txt.
type repoSpec struct {
	Lang string // go, python, ts, rust, java
	Repo string // owner/name
}

// readTrainRepos reads the list of repositories whose history may train
// anything: "LANG OWNER/NAME" per line, # comments.
func readTrainRepos(file string) ([]repoSpec, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []repoSpec
	sc := bufio.NewScanner(f)
	no := 0
	for sc.Scan() {
		no++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 2 || strings.Count(fs[1], "/") != 1 {
			return nil, fmt.Errorf("%s:%d: want \"LANG OWNER/NAME\", got %q", file, no, line)
		}
		out = append(out, repoSpec{Lang: fs[0], Repo: fs[1]})
	}
	return out, sc.Err()
}

// knownHeldOut are evaluation repositories beyond the task files of the
// evaluation directory: the held-out sets the owners run (Go, TypeScript,
// Rust, Python tasks of repositories the project never trains on) and the
// mirrors the benchmarks use. None may appear in the training corpus.
var knownHeldOut = []string{"honojs/hono", "tokio-rs/axum", "moby/moby", "colinhacks/zod"}

// evalRepos are the repositories of every task file (*.jsonl with a "repo"
// field) under evalDir, plus knownHeldOut.
func evalRepos(evalDir string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, r := range knownHeldOut {
		out[strings.ToLower(r)] = true
	}
	files, err := filepath.Glob(filepath.Join(evalDir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			var r struct {
				Repo string `json:"repo"`
			}
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.Repo != "" {
				out[strings.ToLower(r.Repo)] = true
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	}
	return out, nil
}

// taskID is one line of the committed task list.
type taskID struct {
	Repo, Commit, Parent, Lang string
}

// idList is the committed task list: the head each repository was read
// at, and the tasks.
type idList struct {
	Heads map[string]string // repo → commit
	Tasks []taskID
}

// readIDs reads a task list written by writeIDs; errors name the line.
func readIDs(file string) (idList, error) {
	l := idList{Heads: map[string]string{}}
	f, err := os.Open(file)
	if err != nil {
		return l, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	no := 0
	for sc.Scan() {
		no++
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# head "); ok {
			fs := strings.Fields(rest)
			if len(fs) != 2 || !hexName(fs[1]) {
				return l, fmt.Errorf("%s:%d: want \"# head OWNER/NAME COMMIT\", got %q", file, no, line)
			}
			l.Heads[fs[0]] = fs[1]
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) != 4 || strings.Count(fs[0], "/") != 1 || !hexName(fs[1]) || !hexName(fs[2]) {
			return l, fmt.Errorf("%s:%d: want \"OWNER/NAME<TAB>COMMIT<TAB>PARENT<TAB>LANG\", got %q", file, no, line)
		}
		l.Tasks = append(l.Tasks, taskID{Repo: fs[0], Commit: fs[1], Parent: fs[2], Lang: fs[3]})
	}
	return l, sc.Err()
}

func hexName(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// writeIDs writes the task list, heads first, tasks by repository in the
// order given.
func writeIDs(w io.Writer, l idList) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# rtch ranking training corpus: bug-fix commits of the repositories of")
	fmt.Fprintln(bw, "# ../shared/eval/train-repos.txt, selected by bench/traincorpus select (rules in")
	fmt.Fprintln(bw, "# docs/decisions/ranker.md). Columns: repo, commit, parent, language.")
	repos := make([]string, 0, len(l.Heads))
	for r := range l.Heads {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	for _, r := range repos {
		fmt.Fprintf(bw, "# head %s %s\n", r, l.Heads[r])
	}
	for _, t := range l.Tasks {
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\n", t.Repo, t.Commit, t.Parent, t.Lang)
	}
	return bw.Flush()
}

// sampleKey orders a repository's candidate commits for sampling: a hash,
// so the sample spreads over the whole history and does not depend on
// when the mirror was fetched beyond the head it was read at.
func sampleKey(repo, commit string) string {
	h := sha256.Sum256([]byte(repo + " " + commit))
	return hex.EncodeToString(h[:])
}
