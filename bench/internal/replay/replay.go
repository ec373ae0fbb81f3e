// Package replay holds what the replay tools (bench/rankreplay,
// bench/briefreplay) share: the task files, one stage run in a task's tree,
// and the saved stream of a task's first stages, written as bench/eval
// runs them.
package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/evalscore"
)

// Enough is bench/eval's fixed --enough text.
const Enough = "the files and line ranges that must change to resolve the task are located and hydrated"

// ReadTasks reads the task files, in order, and names each task's set (its
// file's base name without .jsonl).
func ReadTasks(files []string) ([]evalscore.Task, map[string]string, error) {
	var all []evalscore.Task
	sets := map[string]string{}
	for _, tf := range files {
		f, err := os.Open(tf)
		if err != nil {
			return nil, nil, err
		}
		ts, err := evalscore.ReadTasks(f, tf)
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		for _, t := range ts {
			sets[t.ID] = strings.TrimSuffix(filepath.Base(tf), ".jsonl")
		}
		all = append(all, ts...)
	}
	return all, sets, nil
}

// Tree is a task's checked-out tree in bench/eval's cache.
func Tree(cache string, t evalscore.Task) string {
	owner, name, _ := strings.Cut(t.Repo, "/")
	return filepath.Join(cache, owner+"+"+name, t.Commit)
}

// Save writes the stream of intake | zone and then each of stages (a tool
// and its arguments) of bin for a task, as bench/eval runs them, to stream
// (through a temporary file, so a failed run leaves none).
func Save(t evalscore.Task, tree, bin, stream string, stages ...[]string) error {
	goal, err := os.CreateTemp("", "replay-goal-")
	if err != nil {
		return err
	}
	defer os.Remove(goal.Name())
	goal.WriteString(t.Intent)
	goal.Close()
	in, err := Stage(tree, filepath.Join(bin, "rtch-intake"), nil, "--goal-file", goal.Name(), "--profile", "code_path",
		"--fanout", "normal", "--risk", "read_only", "--output-kind", "hydration_packet", "--enough", Enough)
	if err != nil {
		return err
	}
	if in, err = Stage(tree, filepath.Join(bin, "rtch-zone"), in, "--dir", tree); err != nil {
		return err
	}
	for _, st := range stages {
		if in, err = Stage(tree, filepath.Join(bin, st[0]), in, st[1:]...); err != nil {
			return err
		}
	}
	tmp := stream + ".tmp"
	if err := os.WriteFile(tmp, in, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, stream)
}

// Stage runs one tool in the tree with stdin in, as bench/eval does
// (RTCH_ZONE_ROOT set to the tree).
func Stage(tree, tool string, in []byte, args ...string) ([]byte, error) {
	c := exec.Command(tool, args...)
	c.Dir = tree
	c.Env = append(os.Environ(), "RTCH_ZONE_ROOT="+tree)
	c.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", filepath.Base(tool), err, lastLine(errb.String()))
	}
	return out.Bytes(), nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// Files is a repeatable flag of file names.
type Files []string

func (l *Files) String() string     { return strings.Join(*l, ",") }
func (l *Files) Set(s string) error { *l = append(*l, s); return nil }

// Each calls fn for 0..n-1, jobs calls at a time.
func Each(n, jobs int, fn func(i int)) {
	idx := make(chan int)
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				fn(i)
			}
		}()
	}
	for i := range n {
		idx <- i
	}
	close(idx)
	wg.Wait()
}

// WriteJSON writes v, indented, to path; nothing when path is "".
func WriteJSON(path string, v any) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// ReadByID reads the results an earlier run wrote with WriteJSON, keyed by
// id(result), so a run can list the tasks whose outcome changed.
func ReadByID[T any](path string, id func(T) string) (map[string]T, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var prev []T
	if err := json.Unmarshal(b, &prev); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	at := make(map[string]T, len(prev))
	for _, p := range prev {
		at[id(p)] = p
	}
	return at, nil
}

// BySet groups results by their set, the sets in first-seen order.
func BySet[T any](res []T, set func(T) string) (names []string, by map[string][]T) {
	by = map[string][]T{}
	for _, r := range res {
		s := set(r)
		if by[s] == nil {
			names = append(names, s)
		}
		by[s] = append(by[s], r)
	}
	return names, by
}
