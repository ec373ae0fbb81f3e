package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// source is one entry of pkg/protect/model/sources.json: the files of a
// public repository at a pinned commit that match include, read as format.
type source struct {
	Repo     string `json:"repo"`
	Commit   string `json:"commit"`
	Include  string `json:"include"`
	Format   string `json:"format"` // csv:<column>, yaml:<field>, json:<field>, jsonl:<field>, json-lists, regex:<re>, lines, chunks
	Group    string `json:"group"`  // injection, or the benign group
	MaxFiles int    `json:"max_files"`
	// Measure marks a benign source that is only measured: its rows are
	// scored like the others (by the model trained without their fold) and
	// reported, but never trained on and never set the threshold. It holds
	// plain user requests, which the dev set's plain task injections
	// resemble word for word: their false-positive rate is reported, not
	// tuned away.
	Measure bool `json:"measure"`
}

// row is one training text with its group and the key its fold derives
// from (rows of one file share a fold, so no file is split across folds).
type row struct {
	text, group, source, id, foldKey string
	dev                              bool // a shared dev row
	measure                          bool // measured only (source.Measure)
}

func (r row) injection() bool { return r.group == "injection" }

// chunkLines is the size of the pieces long files are cut into: the shape
// rtch-hydrate feeds the probe.
const chunkLines = 40

func loadSources(file string) ([]source, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var s []source
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for i, src := range s {
		if src.Measure && src.Group == "injection" {
			return nil, fmt.Errorf("%s: entry %d (%s): only a benign source can be measured only", file, i+1, src.Repo)
		}
	}
	return s, nil
}

// readSource returns the rows of s from its bare mirror DIR/owner+name/repo.
func readSource(dir string, s source) ([]row, error) {
	git := filepath.Join(dir, strings.ReplaceAll(s.Repo, "/", "+"), "repo")
	re, err := regexp.Compile(s.Include)
	if err != nil {
		return nil, fmt.Errorf("%s: include: %v", s.Repo, err)
	}
	out, err := exec.Command("git", "--git-dir="+git, "ls-tree", "-r", "--name-only", s.Commit).Output()
	if err != nil {
		return nil, fmt.Errorf("git --git-dir=%s ls-tree %s: %v (fetch the repository: make probe-sources)", git, s.Commit, err)
	}
	var paths []string
	for p := range strings.Lines(string(out)) {
		if p = strings.TrimSuffix(p, "\n"); re.MatchString(p) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s@%s: no file matches %s", s.Repo, s.Commit, s.Include)
	}
	paths = sample(paths, s.MaxFiles)
	var rows []row
	for _, p := range paths {
		b, err := exec.Command("git", "--git-dir="+git, "show", s.Commit+":"+p).Output()
		if err != nil {
			return nil, fmt.Errorf("git show %s:%s: %v", s.Commit, p, err)
		}
		texts, err := parse(s.Format, b)
		if err != nil {
			return nil, fmt.Errorf("%s@%s:%s: %v", s.Repo, s.Commit, p, err)
		}
		for i, t := range texts {
			if strings.TrimSpace(t) == "" {
				continue
			}
			rows = append(rows, row{text: t, group: s.Group, source: s.Repo,
				id: fmt.Sprintf("%s:%s#%d", s.Repo, p, i), foldKey: s.Repo + ":" + p, measure: s.Measure})
		}
	}
	return rows, nil
}

// sample keeps at most n paths (all when n is 0), chosen by a hash of the
// path so the choice does not favour one directory.
func sample(paths []string, n int) []string {
	if n <= 0 || len(paths) <= n {
		return paths
	}
	sort.Slice(paths, func(i, j int) bool { return hash(paths[i]) < hash(paths[j]) })
	paths = paths[:n]
	sort.Strings(paths)
	return paths
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// parse splits a file into texts.
func parse(format string, b []byte) ([]string, error) {
	kind, field, _ := strings.Cut(format, ":")
	switch kind {
	case "lines":
		return strings.Split(string(b), "\n"), nil
	case "chunks":
		lines := strings.SplitAfter(string(b), "\n")
		var out []string
		for i := 0; i < len(lines); i += chunkLines {
			out = append(out, strings.Join(lines[i:min(i+chunkLines, len(lines))], ""))
		}
		return out, nil
	case "csv":
		recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil || len(recs) == 0 {
			return nil, fmt.Errorf("csv: %v", err)
		}
		col := -1
		for i, h := range recs[0] {
			if h == field {
				col = i
			}
		}
		if col < 0 {
			return nil, fmt.Errorf("csv: no column %q", field)
		}
		var out []string
		for _, r := range recs[1:] {
			out = append(out, r[col])
		}
		return out, nil
	case "json", "jsonl", "json-lists":
		return parseJSON(kind, field, b)
	case "regex":
		return parseRegex(field, b)
	case "yaml":
		var m map[string]any
		if err := yaml.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("yaml: %v", err)
		}
		s, ok := m[field].(string)
		if !ok {
			return nil, fmt.Errorf("yaml: no string field %q", field)
		}
		return []string{s}, nil
	}
	return nil, fmt.Errorf("unknown format %q", format)
}

// devRow is one row of the shared injections-dev or benign-dev file.
type devRow struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Category string `json:"category"`
	Source   string `json:"source"`
}

// readDev returns the shared dev rows: injections, and benign rows in group
// dev_security (security discussions) or dev_benign.
func readDev(dir string) ([]row, error) {
	var rows []row
	for _, name := range []string{"injections-dev.jsonl", "benign-dev.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		n := 0
		for line := range strings.Lines(string(b)) {
			n++
			if strings.TrimSpace(line) == "" {
				continue
			}
			var d devRow
			if err := json.Unmarshal([]byte(line), &d); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, err)
			}
			g := "injection"
			switch {
			case name == "benign-dev.jsonl" && strings.Contains(d.Category, "security_discussion"):
				g = "dev_security"
			case name == "benign-dev.jsonl":
				g = "dev_benign"
			}
			rows = append(rows, row{text: d.Text, group: g, source: d.Source, id: d.ID, foldKey: d.ID, dev: true})
		}
	}
	return rows, nil
}

// readAll returns the dev rows, then the rows of every source in order,
// less those decontaminate drops against the dev rows and the held-out
// rows of heldOutFile (read for that only, never trained on).
func readAll(mirrors, eval, sourcesFile, heldOutFile string) ([]row, error) {
	dev, err := readDev(eval)
	if err != nil {
		return nil, err
	}
	heldOut, err := readSources(mirrors, heldOutFile)
	if err != nil {
		return nil, err
	}
	ext, err := readSources(mirrors, sourcesFile)
	if err != nil {
		return nil, err
	}
	return append(dev, decontaminate(dev, heldOut, ext, os.Stderr)...), nil
}

// readSources returns the rows of every source of a source list, in order.
func readSources(mirrors, file string) ([]row, error) {
	srcs, err := loadSources(file)
	if err != nil {
		return nil, err
	}
	var rows []row
	for _, s := range srcs {
		r, err := readSource(mirrors, s)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}
