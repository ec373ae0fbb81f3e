package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/rtch/rtch/bench/internal/trees"
	"io"
	"sort"
	"strings"
)

// selectOptions configure `traincorpus select`.
type selectOptions struct {
	Repos   []repoSpec
	Mirrors string
	Eval    map[string]bool // repositories that must not train anything
	PerRepo int
	Heads   map[string]string // pinned heads; a repository not in it is read at HEAD
	Log     io.Writer
}

// selectTasks reads every repository's history from its head and keeps
// at most PerRepo commits that pass the rules, sampled by sampleKey.
func selectTasks(o selectOptions) (idList, error) {
	l := idList{Heads: map[string]string{}}
	for _, spec := range o.Repos {
		if o.Eval[strings.ToLower(spec.Repo)] {
			return l, fmt.Errorf("%s is an evaluation repository: it may not train anything", spec.Repo)
		}
		ids, head, err := selectRepo(spec, o)
		if err != nil {
			return l, err
		}
		l.Heads[spec.Repo] = head
		l.Tasks = append(l.Tasks, ids...)
	}
	return l, nil
}

// selectRepo is one repository's share of the corpus.
func selectRepo(spec repoSpec, o selectOptions) ([]taskID, string, error) {
	gitDir, err := trees.FindGitDir(o.Mirrors, spec.Repo)
	if err != nil {
		return nil, "", err
	}
	head := o.Heads[spec.Repo]
	if head == "" {
		out, err := git(gitDir, "rev-parse", "HEAD")
		if err != nil {
			return nil, "", err
		}
		head = strings.TrimSpace(string(out))
	}
	type cand struct {
		id  taskID
		key string
	}
	var cands []cand
	reasons := map[string]int{}
	seen := map[string]bool{}
	total := 0
	bc, err := newBlobReader(gitDir, true)
	if err != nil {
		return nil, "", err
	}
	defer bc.close()
	err = logCommits(gitDir, head, false, func(c commitInfo) error {
		total++
		j, why, err := accept(gitDir, bc, c)
		if err != nil {
			return err
		}
		if why == "" {
			first, _, _ := strings.Cut(j.Intent, "\n")
			dup := strings.ToLower(first) + "\x00" + strings.Join(j.Gold, "\x00")
			if seen[dup] {
				why = "repeats an earlier commit"
			}
			seen[dup] = true
		}
		if why != "" {
			reasons[why]++
			return nil
		}
		cands = append(cands, cand{taskID{Repo: spec.Repo, Commit: c.Hash, Parent: c.Parents[0], Lang: spec.Lang}, sampleKey(spec.Repo, c.Hash)})
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", spec.Repo, err)
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].key < cands[j].key })
	keep := min(len(cands), o.PerRepo)
	var ids []taskID
	for _, c := range cands[:keep] {
		ids = append(ids, c.id)
	}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "traincorpus: %s at %.12s: %d commits, %d pass, %d kept; left out: %s\n",
			spec.Repo, head, total, len(cands), keep, reasonList(reasons))
	}
	return ids, head, nil
}

func reasonList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", k, m[k])
	}
	return b.String()
}

// task is one training task as `traincorpus tasks` writes it: the
// go-commits format (bench/eval and evalscore read it) plus the language
// and the gold functions.
type task struct {
	Repo          string                `json:"repo"`
	Parent        string                `json:"parent"`
	Commit        string                `json:"commit"`
	Lang          string                `json:"lang"`
	Intent        string                `json:"intent"`
	GoldFiles     []string              `json:"gold_files"`
	GoldLines     map[string][][2]int   `json:"gold_lines"`
	GoldFunctions map[string][]goldFunc `json:"gold_functions"`
}

// expandRepo builds the tasks of one repository's ids from its mirror. An
// id whose commit no longer passes the rules, or whose parent differs, is
// an error naming it: the list and the rules must agree.
func expandRepo(gitDir string, ids []taskID, w io.Writer) error {
	br, err := newBlobReader(gitDir, false)
	if err != nil {
		return err
	}
	defer br.close()
	bc, err := newBlobReader(gitDir, true)
	if err != nil {
		return err
	}
	defer bc.close()
	for _, id := range ids {
		t, err := expandTask(gitDir, br, bc, id)
		if err != nil {
			return fmt.Errorf("%s@%s: %v", id.Repo, id.Commit, err)
		}
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func expandTask(gitDir string, br, bc *blobReader, id taskID) (task, error) {
	var c *commitInfo
	err := logCommits(gitDir, id.Commit, true, func(ci commitInfo) error { c = &ci; return nil })
	if err != nil {
		return task{}, err
	}
	if c == nil || c.Hash != id.Commit {
		return task{}, fmt.Errorf("commit not found")
	}
	if len(c.Parents) != 1 || c.Parents[0] != id.Parent {
		return task{}, fmt.Errorf("parent is %v, the list says %s", c.Parents, id.Parent)
	}
	j, why, err := accept(gitDir, bc, *c)
	if err != nil {
		return task{}, err
	}
	if why != "" {
		return task{}, fmt.Errorf("no longer a task: %s", why)
	}
	lines, err := goldLines(gitDir, id.Parent, id.Commit, j.Gold)
	if err != nil {
		return task{}, err
	}
	t := task{Repo: id.Repo, Parent: id.Parent, Commit: id.Commit, Lang: id.Lang, Intent: j.Intent, GoldFiles: j.Gold,
		GoldLines: map[string][][2]int{}, GoldFunctions: map[string][]goldFunc{}}
	for _, g := range j.Gold {
		t.GoldLines[g] = lines[g]
		src, ok, err := br.read(id.Parent + ":" + g)
		if err != nil {
			return task{}, err
		}
		if !ok {
			return task{}, fmt.Errorf("%s is not in the parent's tree", g)
		}
		if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
			continue // binary: no functions
		}
		if fs := goldFunctions(g, src, lines[g]); len(fs) > 0 {
			t.GoldFunctions[g] = fs
		}
	}
	return t, nil
}
