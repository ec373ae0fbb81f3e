package hydrate

import (
	"path"
	"strings"

	"github.com/rtch/rtch/pkg/schema"
)

// surfaces lists the surfaces in fill order: the intake's known target first,
// then the ranking.
func (h *hydrator) surfaces() []*surface {
	var out []*surface
	seen := map[string]bool{}
	kt, ktRange := h.knownTarget()
	if kt != "" {
		sf := &surface{known: true}
		for _, rs := range h.in.Rank.Surfaces {
			if rs.Path == kt {
				sf.rs = rs
			}
		}
		if sf.rs.Path == "" {
			sf.rs = schema.RankedSurface{Path: kt, WhySelected: []string{"known_target from the intake"}, Terms: []string{"known_target"}}
		}
		if ktRange[0] > 0 {
			sf.rs.Anchors = append([]int{-1}, sf.rs.Anchors...)
		}
		out = append(out, sf)
		seen[kt] = true
	}
	for _, rs := range h.in.Rank.Surfaces {
		if seen[rs.Path] {
			continue
		}
		seen[rs.Path] = true
		out = append(out, &surface{rs: rs})
	}
	for i, sf := range out {
		sf.order = i
	}
	return out
}

// knownTarget returns the intake's known target path and optional range.
func (h *hydrator) knownTarget() (string, [2]int) {
	if h.in.Intake == nil || h.in.Intake.KnownTarget == "" {
		return "", [2]int{}
	}
	kt := h.in.Intake.KnownTarget
	if r, err := ParseRange(kt); err == nil {
		if p, err := CleanRel(h.o.Root, r.Path); err == nil {
			if r.IsWindow() {
				return p, [2]int{r.Line - h.o.Window, r.Line + h.o.Window}
			}
			return p, [2]int{r.Start, r.End}
		}
	}
	p, err := CleanRel(h.o.Root, kt)
	if err != nil {
		return "", [2]int{}
	}
	return p, [2]int{}
}

// forbiddenBy returns the forbidden assumption (or basket exclusion) that
// covers p, if any. Only path-like entries apply to paths; a sentence such as
// "the bug is in the parser" excludes nothing here.
func (h *hydrator) forbiddenBy(p string) string {
	for _, f := range h.forbidden {
		f = strings.TrimSpace(f)
		if f == "" || strings.ContainsAny(f, " \t") {
			continue
		}
		g := strings.TrimPrefix(strings.TrimSuffix(f, "/"), "./")
		if p == g || strings.HasPrefix(p, g+"/") {
			return f
		}
		if ok, _ := path.Match(g, p); ok {
			return f
		}
		if !strings.Contains(g, "/") {
			if ok, _ := path.Match(g, path.Base(p)); ok {
				return f
			}
		}
	}
	return ""
}
