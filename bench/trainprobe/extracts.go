package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/protect"
)

// extractGroups are the benign groups short extracts are cut from.
var extractGroups = map[string]bool{"docs": true, "agent_files": true, "prompt_docs": true}

// extracts returns at most n short pieces (paragraphs of 3 to 40 words) of
// the benign documentation rows, as benign rows of group "short" in their
// file's fold: the threshold is then set on short texts too.
func extracts(rows []row, n int) []row {
	if n <= 0 {
		return nil
	}
	var cands []row
	for _, r := range rows {
		if !extractGroups[r.group] {
			continue
		}
		for i, p := range strings.Split(r.text, "\n\n") {
			w := len(strings.Fields(protect.ModelView(p)))
			if w < 3 || w > 40 {
				continue
			}
			cands = append(cands, row{text: p, group: "short", source: r.source,
				id: fmt.Sprintf("%s/p%d", r.id, i), foldKey: r.foldKey})
		}
	}
	if len(cands) <= n {
		return cands
	}
	sort.SliceStable(cands, func(i, j int) bool { return hash(cands[i].id) < hash(cands[j].id) })
	cands = cands[:n]
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].id < cands[j].id })
	return cands
}
