package disposition

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/codegraph"
	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/walk"
)

// realTree copies GOROOT packages into a git repository of one commit.
func realTree(t *testing.T, dirs ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	for _, d := range dirs {
		src := filepath.Join(runtime.GOROOT(), "src", d)
		ents, err := os.ReadDir(src)
		if err != nil {
			t.Skipf("GOROOT/src/%s: %v", d, err)
		}
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				b, err := os.ReadFile(filepath.Join(src, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, d, e.Name()), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module std\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-q", "-m", "import"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2024-05-01T10:00:00Z", "GIT_COMMITTER_DATE=2024-05-01T10:00:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

func surface(t *testing.T, root string, d schema.Disposition) schema.Relations {
	t.Helper()
	res, err := codegraph.BuildTree(context.Background(), codegraph.TreeOptions{Walk: walk.Options{Root: root}})
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := graph.Build(res.Graph.File)
	if err != nil {
		t.Fatal(err)
	}
	return Surface(context.Background(), g, root, d)
}

func find(rs []schema.Relation, node string) (schema.Relation, bool) {
	for _, r := range rs {
		if r.Node == node {
			return r, true
		}
	}
	return schema.Relation{}, false
}

func TestDeleteOnGoroot(t *testing.T) {
	root := realTree(t, "net/http/httptrace", "net/http/httputil", "time", "flag")
	r := surface(t, root, schema.Disposition{Decision: "delete", Artifact: "net/http/httptrace"})
	if len(r.Resolved) != 1 || r.Resolved[0] != "go:net/http/httptrace" {
		t.Fatalf("resolved %v", r.Resolved)
	}
	if imp, ok := find(r.Serves, "go:net/http/httputil"); !ok || imp.Origin != "graph:imports" {
		t.Errorf("the importer httputil is not among the users: %+v", r.Serves)
	}
	calls := false
	for _, s := range r.Serves {
		if s.Origin == "graph:calls" || s.Origin == "graph:references" {
			calls = calls || strings.HasPrefix(s.Node, "go:net/http/httputil#")
		}
		if strings.HasPrefix(s.Node, "go:net/http/httptrace") && !strings.HasSuffix(s.Node, "_test") && s.Origin != "graph:entry_point" {
			t.Errorf("a member of the artifact listed as its user: %+v", s)
		}
	}
	if !calls {
		t.Errorf("no caller inside httputil: %+v", r.Serves)
	}
	pv := r.Provenance
	if pv == nil || pv.Origin != "git" || pv.ChangeCount != 1 || pv.LastChange != "2024-05-01" || len(pv.Authors) != 1 || pv.Authors[0] != "Ada" {
		t.Errorf("provenance %+v", pv)
	}
	if !strings.Contains(r.ClosureCheck, "before you delete net/http/httptrace") || !strings.Contains(r.ClosureCheck, "reflection") {
		t.Errorf("closure check %q", r.ClosureCheck)
	}
	for _, p := range r.Paths {
		if !strings.HasPrefix(p, "net/http/httptrace/") {
			t.Errorf("path %s is not the artifact's", p)
		}
	}
}

func TestMergeNamesTheTargetAndOverlaps(t *testing.T) {
	root := realTree(t, "time", "flag")
	r := surface(t, root, schema.Disposition{Decision: "merge", Artifact: "flag", Target: "time"})
	if len(r.Comparisons) == 0 || r.Comparisons[0].Node != "go:time" || !strings.HasPrefix(r.Comparisons[0].Relation, "the named target") {
		t.Fatalf("comparisons %+v", r.Comparisons)
	}
	if !strings.Contains(r.ClosureCheck, "before merging flag into time") {
		t.Errorf("closure check %q", r.ClosureCheck)
	}
	none := surface(t, root, schema.Disposition{Decision: "delete", Artifact: "legacy billing client"})
	if len(none.Resolved) != 0 || none.Provenance != nil || !strings.Contains(none.ClosureCheck, "names no package") {
		t.Errorf("an artifact the tree lacks: %+v", none)
	}
}
