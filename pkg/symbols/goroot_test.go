package symbols

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// goRootFiles lists the Go files under $GOROOT/src.
func goRootFiles(tb testing.TB) []string {
	var files []string
	root := filepath.Join(runtime.GOROOT(), "src")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		tb.Skip("no GOROOT sources")
	}
	return files
}

// parserNames lists "line:name" for every top-level declared name go/parser sees.
func parserNames(fset *token.FileSet, f *ast.File) []string {
	var out []string
	add := func(id *ast.Ident) {
		if id != nil && id.Name != "_" {
			out = append(out, strings.Join([]string{itoa(fset.Position(id.Pos()).Line), id.Name}, ":"))
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestGoAgainstParser compares the line scanner with go/parser over GOROOT.
// It reads ~90 MB, so it runs only with RTCH_GOROOT_SYMBOLS=1.
func TestGoAgainstParser(t *testing.T) {
	if os.Getenv("RTCH_GOROOT_SYMBOLS") == "" {
		t.Skip("set RTCH_GOROOT_SYMBOLS=1 to compare with go/parser over GOROOT")
	}
	var files, missed, extra, total int
	for _, p := range goRootFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			continue // testdata with deliberate syntax errors
		}
		files++
		want := parserNames(fset, f)
		var got []string
		for _, s := range Extract(p, src) {
			got = append(got, lineName(s.Line, s.Name))
		}
		sort.Strings(got)
		w, g := map[string]bool{}, map[string]bool{}
		for _, x := range want {
			w[x] = true
		}
		for _, x := range got {
			g[x] = true
		}
		for x := range w {
			if !g[x] {
				missed++
				if missed <= 10 {
					t.Logf("missed %s %s", p, x)
				}
			}
		}
		for x := range g {
			if !w[x] {
				extra++
				if extra <= 10 {
					t.Logf("extra %s %s", p, x)
				}
			}
		}
		total += len(w)
	}
	t.Logf("%d files, %d declared names, %d missed, %d extra", files, total, missed, extra)
	if float64(missed+extra) > 0.01*float64(total) {
		t.Errorf("line scanner disagrees with go/parser on more than 1%% of names")
	}
}

func lineName(line int, name string) string { return strings.Join([]string{itoa(line), name}, ":") }

func BenchmarkGoRoot(b *testing.B) {
	var srcs [][]byte
	var names []string
	var n int64
	for _, p := range goRootFiles(b) {
		src, err := os.ReadFile(p)
		if err == nil {
			srcs = append(srcs, src)
			names = append(names, p)
			n += int64(len(src))
		}
	}
	b.SetBytes(n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			Extract(names[j], src)
		}
	}
}
