// Package evalscore scores file-localization rankings against tasks with known
// answers: the task files under shared/eval (real fixes with their gold files and
// gold line ranges), the metrics of SPEC §11 (acc@k, hit@k, MRR, gold-file and
// gold-line recall inside the packet's hydrated chunks) and their aggregation
// per group. It reads tasks from an io.Reader and returns values; the runner in
// bench/eval does the I/O around it.
package evalscore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// Task is one localization task: an intent, the tree it is asked against and the
// files and lines the real fix touched. Both task formats (go-commits and
// SWE-bench) decode into it.
type Task struct {
	// ID names the task in reports: instance_id when the file has one, otherwise
	// "<repo>@<first 12 hex of commit>".
	ID string `json:"id"`
	// Repo is the GitHub "owner/name" whose tree the task runs against.
	Repo string `json:"repo"`
	// Commit is the tree to search: "parent" (go-commits) or "base_commit"
	// (SWE-bench). The fix itself is never read.
	Commit string `json:"commit"`
	// Intent is the only input the tools get: the commit message or the
	// problem statement.
	Intent string `json:"-"`
	// Gold is the list of non-test files the fix modified, as in the task file
	// minus any test file (IsTestPath), sorted.
	Gold []string `json:"gold"`
	// GoldLines holds the base-side line ranges the fix touched, per gold file;
	// each range is [first, last], 1-based and inclusive.
	GoldLines map[string][][2]int `json:"-"`
	// Source is "<file>:<line>" of the task in its task file.
	Source string `json:"source"`
}

// rawTask is the union of both task-file formats.
type rawTask struct {
	InstanceID       string              `json:"instance_id"`
	Repo             string              `json:"repo"`
	Parent           string              `json:"parent"`
	BaseCommit       string              `json:"base_commit"`
	Intent           string              `json:"intent"`
	ProblemStatement string              `json:"problem_statement"`
	GoldFiles        []string            `json:"gold_files"`
	GoldLines        map[string][][2]int `json:"gold_lines"`
}

// ReadTasks decodes a JSONL task file. name is used in error messages, which name
// the file and line. A task without a repo, a commit, an intent or any non-test
// gold file is an error: a task that cannot be scored must not be skipped
// silently.
func ReadTasks(r io.Reader, name string) ([]Task, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	var tasks []Task
	no := 0
	for sc.Scan() {
		no++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var rt rawTask
		if err := json.Unmarshal(raw, &rt); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, no, err)
		}
		t, err := rt.task()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, no, err)
		}
		t.Source = fmt.Sprintf("%s:%d", name, no)
		tasks = append(tasks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, no+1, err)
	}
	return tasks, nil
}

func (rt rawTask) task() (Task, error) {
	t := Task{ID: rt.InstanceID, Repo: rt.Repo, Commit: rt.Parent, Intent: rt.Intent}
	if t.Commit == "" {
		t.Commit = rt.BaseCommit
	}
	if t.Intent == "" {
		t.Intent = rt.ProblemStatement
	}
	switch {
	case t.Repo == "" || strings.Count(t.Repo, "/") != 1:
		return t, fmt.Errorf("task has no repo of the form owner/name (got %q)", t.Repo)
	case t.Commit == "":
		return t, fmt.Errorf("task %s has neither parent nor base_commit", t.Repo)
	case strings.TrimSpace(t.Intent) == "":
		return t, fmt.Errorf("task %s@%s has neither intent nor problem_statement", t.Repo, t.Commit)
	}
	if t.ID == "" {
		t.ID = t.Repo + "@" + t.Commit[:min(12, len(t.Commit))]
	}
	t.GoldLines = map[string][][2]int{}
	seen := map[string]bool{}
	for _, g := range rt.GoldFiles {
		g = CleanPath(g)
		if seen[g] || IsTestPath(g) {
			continue
		}
		seen[g] = true
		t.Gold = append(t.Gold, g)
		t.GoldLines[g] = rt.GoldLines[g]
	}
	if len(t.Gold) == 0 {
		return t, fmt.Errorf("task %s has no non-test gold file", t.ID)
	}
	sort.Strings(t.Gold)
	return t, nil
}

// CleanPath makes a repository-relative, "/"-separated path without "./".
func CleanPath(p string) string {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	return strings.TrimPrefix(p, "./")
}

// IsTestPath reports whether a repository-relative path is a test file: a Go
// "_test.go" file, a Python "test_*.py", "*_test.py", "tests.py" or
// "conftest.py", or any file under a directory named test, tests, testing or
// testdata. Directory names are matched whole, so "src/_pytest/python.py" and
// "sympy/utilities/randtest.py" are not test files.
func IsTestPath(p string) bool {
	p = CleanPath(p)
	parts := strings.Split(p, "/")
	base := parts[len(parts)-1]
	for _, d := range parts[:len(parts)-1] {
		switch d {
		case "test", "tests", "testing", "testdata":
			return true
		}
	}
	switch {
	case strings.HasSuffix(base, "_test.go"):
		return true
	case strings.HasSuffix(base, ".py") &&
		(strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") ||
			base == "tests.py" || base == "conftest.py"):
		return true
	}
	return false
}
