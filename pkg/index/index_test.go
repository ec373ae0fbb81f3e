package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/fields"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/walk"
)

var testTerms = []string{"parse", "error", "buffer", "writer", "string", "http", "server", "reader", "read", "len",
	"go", "x", "utf", "err", "b", "source of truth", "do not use"}

// scanHits is what a scan of the bytes reports, in the form Hits gives.
func scanHits(m *match.Matcher, data []byte, keyed bool) []string {
	var out []string
	lines := match.NewLines(data)
	m.Scan(data, func(t, s, e int) bool {
		ln, ls, _ := lines.At(s)
		out = append(out, fmt.Sprint(t, ln, s-ls, keyed && fields.IsKeyAt(data, e)))
		return true
	})
	return out
}

// TestHitsAreTheScan: on real files, the hits the stored words give are the
// matches a scan of the bytes gives, in the same order, for terms of word
// bytes and the stored phrases alike.
func TestHitsAreTheScan(t *testing.T) {
	var words []string
	var phrases []string
	for _, w := range testTerms {
		if Simple(w) {
			words = append(words, w)
		} else {
			phrases = append(phrases, w)
		}
	}
	wm, pm, all := match.New(words), match.New(phrases), match.New(append(append([]string{}, words...), phrases...))
	phraseIdx := []int{}
	for k := range phrases {
		phraseIdx = append(phraseIdx, len(words)+k)
	}
	n := 0
	for _, dir := range []string{"strings", "net/http", "encoding/json"} {
		root := filepath.Join(runtime.GOROOT(), "src", dir)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil || strings.ContainsRune(string(data), 0) {
				return nil
			}
			keyed := strings.HasSuffix(p, ".json")
			f, ok := Extract(p, data, pm)
			if !ok {
				return nil
			}
			fl, err := decodeFile(f.Encode())
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			hits, err := fl.Hits(wm, phraseIdx, nil)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, fmt.Sprint(h.Term, h.Line, h.Col, h.Key))
			}
			want := scanHits(all, data, keyed)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s: hits from the index differ from the scan:\n got %v\nwant %v", p, got[:min(len(got), 20)], want[:min(len(want), 20)])
			}
			if fl.Lines != match.CountLines(data) || fl.Bytes != int64(len(data)) {
				t.Fatalf("%s: lines %d bytes %d, want %d %d", p, fl.Lines, fl.Bytes, match.CountLines(data), len(data))
			}
			n++
			return nil
		})
	}
	if n < 100 {
		t.Skipf("only %d GOROOT files", n)
	}
}

func TestLineFacts(t *testing.T) {
	data := []byte("# Title\r\n\r\ntext # not\rfunc (r *R) Parse(x int) {\n## Two\n")
	f, _ := Extract("a.md", data, nil)
	fl, _ := decodeFile(f.Encode())
	if !fl.Heading(1) || fl.Heading(2) || fl.Heading(3) || !fl.Heading(5) || fl.Lines != 5 {
		t.Fatalf("heads %v lines %d", fl.Heads, fl.Lines)
	}
	g, _ := Extract("a.go", data, nil)
	gl, _ := decodeFile(g.Encode())
	if !gl.InDef(4, 12) || gl.InDef(4, 17) || gl.InDef(3, 0) {
		t.Fatalf("defs %v", gl.Defs)
	}
}

func TestPatternMayHold(t *testing.T) {
	f, _ := Extract("x.go", []byte("see go.mod and readme\nthe go\nmod line\nfoo-bar.baz\n"), nil)
	fl, _ := decodeFile(f.Encode())
	cases := map[string]bool{"go.mod": true, "go/mod": true, "readme.vendor": false, "foo-bar.baz": true,
		"bar.baz": true, "oo-bar": true, "the.mod": false, "line.foo": false, "--mod": true, "readme.": true,
		// the separators' bytes are not kept: "the go" may be "the.go"
		"the.go": true}
	for term, want := range cases {
		got, _ := fl.MayHold([]Pattern{NewPattern(term)}, nil)
		if got != want {
			t.Errorf("MayHold(%q) = %v, want %v", term, got, want)
		}
	}
}

func TestBOMAndSecretFilesAreNotIndexed(t *testing.T) {
	if _, ok := Extract("a.go", []byte("\ufeffpackage a\n"), nil); ok {
		t.Error("a file with a byte-order mark was indexed")
	}
	if _, ok := Extract("a.go", []byte("key := \"AKIA"+"ZQ3DRSTUVWXY2345\"\n"), nil); ok {
		t.Error("a file holding an AWS key id was indexed")
	}
	if _, ok := Extract("a.go", []byte("var x = 0x1234567890abcdef1234 // parse\n"), nil); !ok {
		t.Error("a file holding a long hex number was not indexed")
	}
}

// TestSaveOpenLookup: entries are trusted only for the identity they were
// read with, racy ones never; removed files drop out; a damaged file opens
// empty with a warning.
func TestSaveOpenLookup(t *testing.T) {
	dir := t.TempDir()
	fp := Fingerprint("x")
	ix, warn, err := Open(dir, fp)
	if err != nil || warn != "" {
		t.Fatal(err, warn)
	}
	now := time.Now()
	old := walk.File{Path: "a.go", Size: 10, ID: walk.Ident{Dev: 1, Ino: 2, MtimeNs: now.Add(-time.Hour).UnixNano(), CtimeNs: 5}}
	young := walk.File{Path: "b.go", Size: 10, ID: walk.Ident{Dev: 1, Ino: 3, MtimeNs: now.UnixNano(), CtimeNs: 5}}
	gone := walk.File{Path: "c.go", Size: 10, ID: walk.Ident{Dev: 1, Ino: 4, MtimeNs: 1, CtimeNs: 5}}
	for _, f := range []walk.File{old, young, gone} {
		fx, _ := Extract(f.Path, []byte("package a\n"), nil)
		ix.Put(f, now, fx)
	}
	if wrote, err := ix.Save([]walk.File{old, young, gone}); !wrote || err != nil {
		t.Fatal(wrote, err)
	}
	ix2, warn, err := Open(dir, fp)
	if err != nil || warn != "" {
		t.Fatal(err, warn)
	}
	if _, ok := ix2.Lookup(old); !ok {
		t.Error("an unchanged old file is not answered for")
	}
	if _, ok := ix2.Lookup(young); ok {
		t.Error("a racily clean entry was trusted")
	}
	changed := old
	changed.ID.CtimeNs++
	if _, ok := ix2.Lookup(changed); ok {
		t.Error("a file whose ctime changed was answered for")
	}
	if wrote, _ := ix2.Save([]walk.File{old}); !wrote {
		t.Error("a removed file did not make Save write")
	}
	ix2.Close()
	ix3, _, _ := Open(dir, fp)
	if _, ok := ix3.Lookup(gone); ok || len(ix3.table) != 1 {
		t.Errorf("a removed file is still in the index: %d entries", len(ix3.table))
	}
	if wrote, _ := ix3.Save([]walk.File{old}); wrote {
		t.Error("Save wrote an unchanged index")
	}
	ix3.Close()
	ix4, warn, _ := Open(dir, Fingerprint("y"))
	if _, ok := ix4.Lookup(old); ok || warn != "" {
		t.Errorf("an index of another fingerprint was used (warning %q)", warn)
	}
	ix4.Close()
	b, _ := os.ReadFile(filepath.Join(dir, "index"))
	b[len(b)-30] ^= 1
	os.WriteFile(filepath.Join(dir, "index"), b, 0o600)
	if _, warn, err := Open(dir, fp); err != nil || !strings.Contains(warn, "checksum") {
		t.Errorf("a damaged index: warning %q, err %v", warn, err)
	}
}
