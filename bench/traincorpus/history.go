package main

import (
	"math"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/bm25"
)

// historyDepth is how many commits before the parent the history features
// read.
const historyDepth = 2000

// historyNames are the columns of a candidate's h: what the repository's
// history before the task says of the file. The lane cannot compute them
// on a tree without its history (the evaluation's trees are archives), so
// they are measured on the corpus only (bench/ranktrain --history).
var historyNames = []string{
	"h_touch",    // log(1 + commits among the last historyDepth that changed the file)
	"h_age",      // how far back its last change is: position / historyDepth, 1 if none
	"h_fixes",    // log(1 + those of them whose message says it fixes something)
	"h_msg",      // sum of the normalised BM25 similarity to the goal of the 20 most similar past messages that changed it
	"h_msg_best", // the rank (1/(1+r)) of the most similar past message that changed it
}

// pastCommit is one commit before the task's parent.
type pastCommit struct {
	message string
	files   []string
}

// history is the commits before a parent, newest first.
type history []pastCommit

// readHistory reads the historyDepth commits before parent (parent
// included, merges left out) with the files each changed.
func readHistory(gitDir, parent string) (history, error) {
	out, err := git(gitDir, "log", "--no-merges", "--no-renames", "--name-only", "-n", strconv.Itoa(historyDepth),
		"--format=%x1e%B%x1f", parent, "--")
	if err != nil {
		return nil, err
	}
	var h history
	for _, rec := range strings.Split(string(out), "\x1e") {
		msg, files, ok := strings.Cut(rec, "\x1f")
		if !ok {
			continue
		}
		c := pastCommit{message: msg}
		for _, f := range strings.Split(files, "\n") {
			if f = strings.TrimSpace(f); f != "" {
				c.files = append(c.files, f)
			}
		}
		h = append(h, c)
	}
	return h, nil
}

// features are the historyNames columns of each path.
func (h history) features(intent string, paths []string) [][]float64 {
	touch := map[string]int{}
	fixes := map[string]int{}
	last := map[string]int{}
	ix := bm25.New(bm25.Baseline)
	for i, c := range h {
		ix.Add(bm25.Tokenize(c.message))
		fix := fixWords.MatchString(c.message)
		for _, f := range c.files {
			if _, ok := last[f]; !ok {
				last[f] = i
			}
			touch[f]++
			if fix {
				fixes[f]++
			}
		}
	}
	q := bm25.Tokenize(intent)
	msg := map[string]float64{}
	best := map[string]int{}
	for r, res := range ix.Search(q, 20) {
		for _, f := range h[res.Doc].files {
			msg[f] += ix.Normalized(res.Score, q)
			if _, ok := best[f]; !ok {
				best[f] = r + 1
			}
		}
	}
	out := make([][]float64, len(paths))
	for i, p := range paths {
		age := 1.0
		if at, ok := last[p]; ok {
			age = float64(at) / historyDepth
		}
		b := 0.0
		if r, ok := best[p]; ok {
			b = 1 / (1 + float64(r))
		}
		out[i] = []float64{math.Log1p(float64(touch[p])), age, math.Log1p(float64(fixes[p])), msg[p], b}
	}
	return out
}
