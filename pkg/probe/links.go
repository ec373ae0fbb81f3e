package probe

import (
	"context"
	"sort"
	"sync"

	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/refs"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/walk"
)

// useLinks reads the w.SpreadPool best ranked files again (a bounded second
// read of a few files, not a second pass over the tree) and links each of
// the w.SpreadSources best to the pool files whose definitions it uses.
func useLinks(ctx context.Context, wo walk.Options, files []walk.File, index map[string]int, scored []rank.Scored, w rank.Weights) ([]rank.Link, error) {
	pool := min(w.SpreadPool, len(scored))
	sources := min(w.SpreadSources, pool)
	var read []walk.File
	for _, s := range scored[:pool] {
		if refs.Lang(s.Path) == "" {
			continue
		}
		if i, ok := index[s.Path]; ok {
			read = append(read, files[i])
		}
	}
	isSource := map[string]bool{}
	for _, s := range scored[:sources] {
		isSource[s.Path] = true
	}
	var mu sync.Mutex
	defs := map[string][]string{}
	rs := map[string]*refs.Refs{}
	err := walk.Each(ctx, wo, read, func(f walk.File, data []byte) error {
		var names []string
		seen := map[string]bool{}
		for _, s := range symbols.Extract(f.Path, data) {
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
			}
		}
		var r *refs.Refs
		if isSource[f.Path] {
			r = refs.Read(f.Path, data)
		}
		mu.Lock()
		defs[f.Path] = names
		if r != nil {
			rs[f.Path] = r
		}
		mu.Unlock()
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	var links []rank.Link
	for _, src := range scored[:sources] {
		r := rs[src.Path]
		if r == nil {
			continue
		}
		for _, dst := range scored[:pool] {
			if n := r.Uses(dst.Path, defs[dst.Path]); n > 0 {
				links = append(links, rank.Link{From: src.Path, To: dst.Path, Uses: n})
			}
		}
	}
	sort.SliceStable(links, func(i, j int) bool {
		if links[i].From != links[j].From {
			return links[i].From < links[j].From
		}
		return links[i].To < links[j].To
	})
	return links, nil
}
