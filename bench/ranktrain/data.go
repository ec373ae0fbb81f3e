package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/rank"
)

// query is one task's candidates: rows of features (rank.FeatureNames,
// then the history columns) in the hand-written ranking's order, and
// which of them are gold.
type query struct {
	ID, Repo, Lang string
	Gold           int // gold files of the task, in the candidates or not
	Rows           [][]float64
	Labels         []int
}

// dataset is a features file as bench/traincorpus features writes it.
type dataset struct {
	Names []string // every column: the lane's features, then history
	Lane  int      // how many of Names are the lane's
	// Current is true when the lane's columns are this build's
	// rank.FeatureNames: only then may a model for the lane be trained.
	Current bool
	Queries []query
	Errors  int // tasks the file holds without candidates (their error)
}

// readDataset reads the first limit tasks of a features file (every task
// when limit is 0); errors name the file and line.
func readDataset(file string, limit int) (*dataset, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	ds := &dataset{}
	no := 0
	for sc.Scan() {
		no++
		if limit > 0 && no > limit+1 {
			break
		}
		if no == 1 {
			var h struct {
				Kind    string   `json:"kind"`
				Names   []string `json:"names"`
				History []string `json:"history"`
			}
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Kind != "traincorpus.features" {
				return nil, fmt.Errorf("%s:1: not a features file", file)
			}
			ds.Current = strings.Join(h.Names, ",") == strings.Join(rank.FeatureNames, ",")
			ds.Names = append(append([]string{}, h.Names...), h.History...)
			ds.Lane = len(h.Names)
			continue
		}
		var t struct {
			ID     string      `json:"id"`
			Repo   string      `json:"repo"`
			Lang   string      `json:"lang"`
			Gold   []string    `json:"gold"`
			Error  string      `json:"error"`
			Labels []int       `json:"labels"`
			F      [][]float64 `json:"f"`
			H      [][]float64 `json:"h"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, no, err)
		}
		if t.Error != "" {
			ds.Errors++
			continue
		}
		if len(t.F) != len(t.Labels) || len(t.H) != len(t.F) {
			return nil, fmt.Errorf("%s:%d: %d rows, %d labels, %d history rows", file, no, len(t.F), len(t.Labels), len(t.H))
		}
		q := query{ID: t.ID, Repo: t.Repo, Lang: t.Lang, Gold: len(t.Gold), Labels: t.Labels}
		for i, r := range t.F {
			if len(r) != ds.Lane || len(t.H[i]) != len(ds.Names)-ds.Lane {
				return nil, fmt.Errorf("%s:%d: row %d has %d+%d columns, want %d+%d", file, no, i+1, len(r), len(t.H[i]), ds.Lane, len(ds.Names)-ds.Lane)
			}
			q.Rows = append(q.Rows, append(r, t.H[i]...))
		}
		ds.Queries = append(ds.Queries, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", file, no+1, err)
	}
	if no == 0 {
		return nil, fmt.Errorf("%s: empty", file)
	}
	return ds, nil
}

// folds assigns each repository to one of k folds: the repositories of
// each language in name order, dealt round-robin, so every fold holds
// every language and no repository is in two.
func folds(qs []query, k int) map[string]int {
	byLang := map[string][]string{}
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.Repo] {
			seen[q.Repo] = true
			byLang[q.Lang] = append(byLang[q.Lang], q.Repo)
		}
	}
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	out := map[string]int{}
	next := 0
	for _, l := range langs {
		rs := byLang[l]
		sort.Strings(rs)
		for _, r := range rs {
			out[r] = next % k
			next++
		}
	}
	return out
}
