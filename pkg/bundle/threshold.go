package bundle

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/rtch/rtch/pkg/plan"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// Thresholds of the mandatory-invocation rule.
const (
	MaxInlineSources = 3   // more source files than this make assembly mandatory
	MaxInlineLines   = 500 // so does any source longer than this
)

// Threshold reports, for the lanes named by taskIDs (every lane when empty),
// whether formal assembly is mandatory: more than 3 source files, a source over
// 500 lines, a depends-on contract, a cross-repo workspace, or deep rigor with a
// borderline signal (exactly 3 sources, or a source over 400 lines). The
// sources of a lane are its refs and the codebase map's files.
func Threshold(opt Options, taskIDs []string, deep bool) ([]schema.BundleThreshold, error) {
	if !slugRE.MatchString(opt.RunID) {
		return nil, inputErr("run id %q is not a slug (letters, digits, '.', '_', '-')", opt.RunID)
	}
	planAbs := opt.PlanPath
	if !filepath.IsAbs(planAbs) {
		planAbs = filepath.Join(opt.Root, opt.PlanPath)
	}
	rel := relTo(opt.Root, planAbs)
	data, err := os.ReadFile(planAbs)
	if err != nil {
		return nil, inputErr("plan %s: %v", rel, unwrapPath(err))
	}
	p, err := plan.Parse(rel, data)
	if err != nil {
		return nil, &InputError{err}
	}
	lanes := p.Order()
	if len(taskIDs) > 0 {
		lanes = nil
		for _, id := range taskIDs {
			ln := p.Lane(id)
			if ln == nil {
				return nil, inputErr("plan %s has no lane %q", rel, id)
			}
			lanes = append(lanes, ln)
		}
	}
	_, wsErr := os.Stat(filepath.Join(opt.Root, ".guild", "workspace.json"))
	crossRepo := wsErr == nil
	var out []schema.BundleThreshold
	for _, ln := range lanes {
		files := map[string]bool{}
		for _, r := range ln.Refs {
			files[path.Clean(r)] = true
		}
		for _, e := range opt.Map {
			files[path.Clean(e.Path)] = true
		}
		var names []string
		for f := range files {
			names = append(names, f)
		}
		sort.Strings(names)
		longest, longestN := "", -1
		for _, f := range names {
			if n, ok := countLines(filepath.Join(opt.Root, filepath.FromSlash(f))); ok && n > longestN {
				longest, longestN = f, n
			}
		}
		t := schema.BundleThreshold{
			Envelope:   record.Env(schema.KindBundleThreshold, schema.V1, opt.RunID, ln.TaskID),
			TaskID:     ln.TaskID,
			Specialist: ln.Owner,
			Triggers:   []string{},
			Reasons:    []string{},
			DependsOn:  append([]string{}, ln.DependsOn...),
		}
		t.SourceFiles = len(names)
		if longestN >= 0 {
			t.LongestSource = fmt.Sprintf("%s:%d", longest, longestN)
		}
		fire := func(trigger, format string, args ...any) {
			t.Triggers = append(t.Triggers, trigger)
			t.Reasons = append(t.Reasons, fmt.Sprintf(format, args...))
		}
		if len(names) > MaxInlineSources {
			fire("source_files", "the lane references %d source files (more than %d)", len(names), MaxInlineSources)
		}
		if longestN > MaxInlineLines {
			fire("long_source", "%s has %d lines (more than %d)", longest, longestN, MaxInlineLines)
		}
		if len(ln.DependsOn) > 0 {
			fire("depends_on", "the lane reads the upstream contract of %v", ln.DependsOn)
		}
		if crossRepo {
			fire("cross_repo", ".guild/workspace.json registers sub-guilds, so the corpus spans repositories")
		}
		if deep && len(t.Triggers) == 0 && (len(names) == MaxInlineSources || longestN > MaxInlineLines*4/5) {
			fire("deep_rigor_borderline", "deep rigor with a borderline signal (%d source files, longest %d lines)", len(names), max(longestN, 0))
		}
		t.Mandatory = len(t.Triggers) > 0
		out = append(out, t)
	}
	return out, nil
}

// countLines counts the lines of a regular file; ok is false when it cannot be
// read.
func countLines(p string) (int, bool) {
	f, err := os.Open(p)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
	}
	return n, sc.Err() == nil
}
