package scout

import (
	"path"
	"sort"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/schema"
)

// scanNames confirms terms in file and directory names and draws the
// directory map.
func (r *run) scanNames() {
	t1 := time.Now()
	dirs := map[string]bool{}
	for i, f := range r.files {
		if !r.walked[i] {
			continue
		}
		r.nameFile(f.Path)
		d := path.Dir(f.Path)
		for d != "." && d != "/" && !dirs[d] {
			dirs[d] = true
			d = path.Dir(d)
		}
	}
	for d := range dirs {
		r.dirList = append(r.dirList, d)
	}
	sort.Strings(r.dirList)
	r.nameDirs()
	r.nameNanos = time.Since(t1).Nanoseconds()
}

// nameFile confirms the terms a file's name or path spells.
func (r *run) nameFile(p string) {
	sh := &r.res.Shape
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	seenTerm := map[int]bool{}
	// Test-subject names join the last path components with '_'
	// ("pycode_ast.py" for sphinx/pycode/ast.py).
	joined := []string{p, base, stem}
	if d := path.Dir(p); d != "." {
		joined = append(joined, path.Base(d)+"_"+base)
		if dd := path.Dir(d); dd != "." {
			joined = append(joined, path.Base(dd)+"_"+path.Base(d)+"_"+base)
		}
	}
	for k, cand := range joined {
		if ti, ok := r.termIdx[match.Fold(cand)]; ok && !seenTerm[ti] {
			seenTerm[ti] = true
			kind := "file_name"
			if cand == p || k > 2 {
				kind = "path"
			}
			addConfirm(r.res.Terms[r.terms[ti]], Confirmation{Kind: kind, Path: p, Value: cand})
			r.nameHits++
			if len(sh.Findings) < r.capN {
				sh.Findings = append(sh.Findings, schema.ShapeFinding{Scan: ScanFilenames, Path: p, Value: cand, Detail: kind})
			}
		}
	}
	// Path terms may name a suffix of a walked path ("requests/models.py"
	// for lib/requests/models.py), or a walked path may be the tail of a
	// path term (a stack frame's "/usr/lib/python3/site-packages/requests/models.py").
	fp := match.Fold(p)
	for ti, t := range r.terms {
		if !strings.Contains(t, "/") || t == fp {
			continue
		}
		if strings.HasSuffix(fp, "/"+strings.TrimPrefix(t, "/")) ||
			(strings.Contains(p, "/") && strings.HasSuffix(t, "/"+fp)) {
			addConfirm(r.res.Terms[r.terms[ti]], Confirmation{Kind: "path", Path: p, Value: t})
			r.nameHits++
		}
	}
}

// nameDirs confirms terms in directory names and fills the directory map.
func (r *run) nameDirs() {
	sh := &r.res.Shape
	for _, d := range r.dirList {
		if ti, ok := r.termIdx[match.Fold(path.Base(d))]; ok {
			addConfirm(r.res.Terms[r.terms[ti]], Confirmation{Kind: "dir_name", Path: d, Value: path.Base(d)})
			r.dirHits++
			if len(sh.Findings) < r.capN {
				sh.Findings = append(sh.Findings, schema.ShapeFinding{Scan: ScanFilenames, Path: d, Value: path.Base(d), Detail: "dir_name"})
			}
		}
		if strings.Count(d, "/") < dirMapDepth && len(sh.DirMap) < dirMapCap {
			sh.DirMap = append(sh.DirMap, d+"/")
		}
	}
}

func addConfirm(ts *TermStats, c Confirmation) {
	ts.ConfirmCount[c.Kind]++
	if len(ts.Confirmations) < LocationsPerMatch {
		ts.Confirmations = append(ts.Confirmations, c)
	}
}
