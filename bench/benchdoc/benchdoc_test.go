package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPagesMatchRuns fails when a page's generated table differs from the
// run summary it names: re-run `make bench-doc` after changing either.
func TestPagesMatchRuns(t *testing.T) {
	root := filepath.Join("..", "..")
	pages := 0
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(text, []byte("<!-- bench-doc ")) {
			return err
		}
		pages++
		got, err := renderPage(path, string(text), root)
		if err != nil {
			t.Error(err)
		} else if got != string(text) {
			t.Errorf("%s differs from its runs; run make bench-doc", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages == 0 {
		t.Fatal("no page of docs/ has a bench-doc region")
	}
}

// importFixture writes the summary of testdata/runner.json under a
// temporary root and returns the root.
func importFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := importRun(filepath.Join("testdata", "runner.json"), "abc1234", filepath.Join(root, "runs", "eval.json")); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestImportKeepsTablesCommitAndLanguage(t *testing.T) {
	r, err := readRun(filepath.Join(importFixture(t), "runs", "eval.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Commit != "abc1234" || r.Command != "go run ./bench/eval --bin B --tasks t.jsonl" {
		t.Errorf("commit %q, command %q", r.Commit, r.Command)
	}
	if len(r.Sets) != 1 || r.Sets[0].Language != "Rust" || len(r.Sets[0].Groups) != 2 {
		t.Fatalf("sets %+v", r.Sets)
	}
	if p := r.Sets[0].Groups[1].Pipeline; p == nil || p.MRR != 1 || *p.BriefLineRecall != 70 {
		t.Errorf("overall pipeline %+v", p)
	}
}

func TestRenderPageFillsEveryRegion(t *testing.T) {
	root := importFixture(t)
	page := strings.Join([]string{
		"# Page",
		"<!-- bench-doc eval-run runs/eval.json -->",
		"stale text",
		"<!-- /bench-doc -->",
		"between",
		"<!-- bench-doc eval-sets runs/eval.json -->",
		"<!-- /bench-doc -->",
		"<!-- bench-doc eval-brief runs/eval.json -->",
		"<!-- /bench-doc -->",
		"<!-- bench-doc eval-repos runs/eval.json -->",
		"<!-- /bench-doc -->",
		"<!-- bench-doc eval-misses runs/eval.json -->",
		"<!-- /bench-doc -->",
		"<!-- bench-doc eval-functions runs/eval.json -->",
		"<!-- /bench-doc -->",
		"end",
		"",
	}, "\n")
	got, err := renderPage("p.md", page, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Page\n<!-- bench-doc eval-run runs/eval.json -->\nMeasured at `abc1234` on 2026-12-04 14:23 UTC with go1.26.8:\n",
		"go run ./bench/eval --bin B --tasks t.jsonl\n```\n<!-- /bench-doc -->\nbetween\n",
		"| t | Rust | 2 | rtch | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 |\n",
		"| t | Rust | 2 | BM25 | 50.0 | 50.0 | 100.0 | 100.0 | 100.0 | 75.0 |\n",
		"| t | 100.0 | 90.0 | 61.2 | 7,695 | 7,747 (7,997) | 70.0 | 0.300 (0.250) |\n",
		"| t | a/b | 2 | BM25 | 50.0 | 50.0 | 100.0 | 100.0 | 75.0 | – | 0.100 |\n",
		"| t | **overall** | 2 | rtch | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 | 70.0 | 0.250 |\n",
		"| t | 1 | 1 | 0 | 1 | 0 | 0 | `a/b@123` |\n<!-- /bench-doc -->\n",
		"| t | rust | 2 | 50.0 | 100.0 | 100.0 | 100.0 | 61.2 | 70.0 | 55.5 |\n<!-- /bench-doc -->\nend\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendering lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "stale text") {
		t.Error("the region's old text was kept")
	}
	again, err := renderPage("p.md", got, root)
	if err != nil || again != got {
		t.Errorf("a second rendering changed the page (err %v)", err)
	}
}

func TestRenderPageErrorsNameTheLine(t *testing.T) {
	root := importFixture(t)
	for page, want := range map[string]string{
		"a\n<!-- bench-doc eval-sets runs/eval.json -->\nno end\n":              "p.md:2: region eval-sets has no",
		"<!-- bench-doc eval-nothing runs/eval.json -->\n<!-- /bench-doc -->\n": `p.md:1: unknown region kind "eval-nothing"`,
		"\n\n<!-- bench-doc eval-sets -->\n<!-- /bench-doc -->\n":               "p.md:3: want <!-- bench-doc KIND RUN -->",
		"<!-- bench-doc eval-sets runs/none.json -->\n<!-- /bench-doc -->\n":    "p.md:1: open ",
	} {
		_, err := renderPage("p.md", page, root)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("page %q: error %v, want %q", page, err, want)
		}
	}
}

func TestCheckExitsOneOnAStalePage(t *testing.T) {
	root := importFixture(t)
	page := filepath.Join(root, "p.md")
	if err := os.WriteFile(page, []byte("<!-- bench-doc eval-sets runs/eval.json -->\nold\n<!-- /bench-doc -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--check", "--root", root, page}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "differs from its runs") {
		t.Fatalf("--check exit %d, stderr %q", code, stderr.String())
	}
	if code := run([]string{"--root", root, page}, &stdout, &stderr); code != 0 {
		t.Fatalf("rendering exit %d, stderr %q", code, stderr.String())
	}
	if code := run([]string{"--check", "--root", root, page}, &stdout, &stderr); code != 0 {
		t.Fatalf("--check after rendering exit %d, stderr %q", code, stderr.String())
	}
	if code := run(nil, &stdout, &stderr); code != 2 {
		t.Fatalf("no pages: exit %d", code)
	}
}
