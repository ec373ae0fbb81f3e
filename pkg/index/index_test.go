package index

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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
	cases := map[string]bool{"go.mod": true, "go/mod": false, "readme.vendor": false, "foo-bar.baz": true,
		"bar.baz": true,
		// the matcher's boundary rules: "oo" does not start a word in "foo"
		"oo-bar": false, "the.mod": false, "line.foo": false, "--mod": false, "-bar": true,
		// the run before a word is the run after the word before it on
		// its line: "mod" opens its line, "-" ends the run before "bar"
		"-mod": false, " mod": false, "\nmod": true, " line": true, ".baz": true, "-baz": false,
		// "readme" ends its line: no run after it starts with "."
		"readme.": false, "readme,": false, "foo-": true,
		"the.go": false, "the go": true, " go": true, ".": true, "-.": false, "(": false}
	for term, want := range cases {
		got, _ := fl.MayHold([]Pattern{NewPattern(term)}, nil)
		if got != want {
			t.Errorf("MayHold(%q) = %v, want %v", term, got, want)
		}
	}
	// A compound's other spellings: content-type is matched in
	// CONTENT_TYPE, whose separator is not the term's.
	g, _ := Extract("x.go", []byte("env := \"CONTENT_TYPE\"\n"), nil)
	gl, _ := decodeFile(g.Encode())
	if own, _ := gl.MayHold([]Pattern{NewPattern("content-type")}, nil); own {
		t.Error("the term's own pattern holds another separator")
	}
	if all, _ := gl.MayHold(Patterns("content-type"), nil); !all {
		t.Error("Patterns leaves out the spelling content_type")
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
	// digests on lines of their own code: no output shows them line to
	// line, as the body of a key
	vectors := "package a\n\nvar sums = []string{\n"
	for i := range 4 {
		vectors += fmt.Sprintf("\t\"%x\", // parse\n", sha256.Sum256([]byte{byte(i)}))
	}
	if _, ok := Extract("a_test.go", []byte(vectors+"}\n"), nil); !ok {
		t.Error("a file holding test vectors was not indexed")
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
	b[len(b)-footerLen-3] ^= 1 // in the table
	os.WriteFile(filepath.Join(dir, "index"), b, 0o600)
	if _, warn, err := Open(dir, fp); err != nil || !strings.Contains(warn, "checksum") {
		t.Errorf("a damaged index: warning %q, err %v", warn, err)
	}
}

// savedTree indexes the files of GOROOT package dirs through Put, Save and
// Open, as the scout does, and returns the opened index with the files and
// their bytes.
func savedTree(t *testing.T, phrases *match.Matcher, dirs ...string) (*Index, []walk.File, map[string][]byte) {
	t.Helper()
	data := map[string][]byte{}
	for _, d := range dirs {
		root := filepath.Join(runtime.GOROOT(), "src", d)
		filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || strings.ContainsRune(string(b), 0) {
				return nil
			}
			rel, _ := filepath.Rel(filepath.Join(runtime.GOROOT(), "src"), p)
			data[filepath.ToSlash(rel)] = b
			return nil
		})
	}
	ix, files := savedFiles(t, phrases, data)
	if len(files) < 20 {
		t.Skipf("only %d GOROOT files", len(files))
	}
	return ix, files, data
}

// savedFiles indexes files (bytes by path) through Put, Save and Open and
// returns the opened index with the files it holds, in path order.
func savedFiles(t *testing.T, phrases *match.Matcher, data map[string][]byte) (*Index, []walk.File) {
	t.Helper()
	dir := t.TempDir()
	fp := Fingerprint("t")
	ix, _, err := Open(dir, fp)
	if err != nil {
		t.Fatal(err)
	}
	var files []walk.File
	for _, p := range slices.Sorted(maps.Keys(data)) {
		b := data[p]
		f := walk.File{Path: p, Size: int64(len(b)), ID: walk.Ident{Dev: 1, Ino: uint64(len(files) + 1), MtimeNs: 1, CtimeNs: 1}}
		if fx, ok := Extract(f.Path, b, phrases); ok {
			fx.Names = testNames(b)
			ix.Put(f, time.Now(), fx)
			files = append(files, f)
		}
	}
	if _, err := ix.Save(files); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix, warn, err := Open(dir, fp)
	if err != nil || warn != "" {
		t.Fatal(err, warn)
	}
	t.Cleanup(ix.Close)
	return ix, files
}

// testNames stand in for the scout's names of a file: its first words,
// folded.
func testNames(b []byte) []string {
	var out []string
	for _, w := range bytes.FieldsFunc(b, func(r rune) bool { return r < 0x80 && !wordByte(byte(r)) }) {
		if len(out) == 8 {
			break
		}
		out = append(out, strings.ToLower(string(w)))
	}
	return out
}

// TestDictionaryAnswersAsEachFile: the hits and terms the dictionary gives
// an entry are those the matcher finds over the entry's own words, and its
// candidates hold exactly where File.MayHold says.
func TestDictionaryAnswersAsEachFile(t *testing.T) {
	var words, phrases []string
	for _, w := range testTerms {
		if Simple(w) {
			words = append(words, w)
		} else {
			phrases = append(phrases, w)
		}
	}
	wm, pm := match.New(words), match.New(phrases)
	phraseIdx := []int{len(words), len(words) + 1}
	ix, files, _ := savedTree(t, pm, "strings", "net/http", "encoding/json")
	dictionaryAgrees(t, ix, files, wm, phraseIdx, true)
}

// dictionaryAgrees checks every file's dictionary answers against its
// entry's own; strong asks that the patterns and words split the files.
func dictionaryAgrees(t *testing.T, ix *Index, files []walk.File, wm *match.Matcher, phraseIdx []int, strong bool) {
	t.Helper()
	nwords := len(wm.Terms())
	dw := ix.Words(wm)
	if dw == nil {
		t.Fatal("no dictionary")
	}
	pats := []Pattern{NewPattern("strings.builder"), NewPattern("go.mod"), NewPattern("http.server"), NewPattern("json:\"")}
	cands := ix.Candidates(pats)
	held, matched := 0, 0
	queryNames := []string{"zqxjunique", "absent name", "strings", "package"}
	namesHeld := ix.NamesHeld(queryNames)
	if namesHeld == nil {
		t.Fatal("no names dictionary")
	}
	for _, f := range files {
		fl, ok := ix.Lookup(f)
		if !ok {
			t.Fatalf("%s: not answered for", f.Path)
		}
		has := false
		eachWord(fl.Names, func(w []byte) { has = has || slices.Contains(queryNames, string(w)) })
		if namesHeld[fl.entry] != has {
			t.Fatalf("%s: the names dictionary says %v, the entry's names %q", f.Path, namesHeld[fl.entry], fl.Names)
		}
		want, _ := fl.Hits(wm, phraseIdx, nil)
		got, err := dw.Hits(fl, phraseIdx, nil)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: dictionary hits differ (%v):\n got %v\nwant %v", f.Path, err, got[:min(len(got), 10)], want[:min(len(want), 10)])
		}
		ws, ds := make([]bool, nwords), make([]bool, nwords)
		fl.Terms(wm, ws)
		dw.Terms(fl, ds)
		if fmt.Sprint(ws) != fmt.Sprint(ds) || dw.Has(fl.entry) != slices.Contains(ws, true) {
			t.Fatalf("%s: dictionary terms %v, the file's %v", f.Path, ds, ws)
		}
		mayWant, _ := fl.MayHold(pats, nil)
		if cands.Holds(fl) != mayWant || (mayWant && !cands.May(fl.entry)) {
			t.Fatalf("%s: candidates hold %v, MayHold %v", f.Path, cands.Holds(fl), mayWant)
		}
		if mayWant {
			held++
		}
		if len(want) > 0 {
			matched++
		}
	}
	if strong && (held == 0 || held == len(files) || matched == 0 || matched == len(files)) {
		t.Fatalf("a weak test: %d of %d files may hold a pattern, %d match a word", held, len(files), matched)
	}
}

// TestDictionaryFollowsRewrites: a rewrite that keeps most entries brings
// the old dictionary up to date (rows renumbered, a removed file's and an
// edited file's old words dropped, new words added), and it answers as
// the entries do.
func TestDictionaryFollowsRewrites(t *testing.T) {
	t.Run("in memory", followRewrites)
	t.Run("on scratch files", func(t *testing.T) {
		littleMemory(t)
		followRewrites(t)
	})
}

// littleMemory makes the tapes spill to scratch files after 64 bytes and
// the full build lay its lists out 256 bytes at a time, for the test.
func littleMemory(t *testing.T) {
	mem, chunk := tapeMem, chunkBytes
	t.Cleanup(func() { tapeMem, chunkBytes = mem, chunk })
	tapeMem, chunkBytes = 64, 256
}

// TestBuildInLittleMemory: with the entries and postings on scratch files
// and the lists laid out a few words at a time, Save writes the index it
// writes in memory, byte for byte, and leaves no scratch file behind.
func TestBuildInLittleMemory(t *testing.T) {
	ix, _, _ := savedTree(t, nil, "strings", "bufio")
	want, err := os.ReadFile(filepath.Join(ix.dir, fileName))
	if err != nil {
		t.Fatal(err)
	}
	littleMemory(t)
	ix2, _, _ := savedTree(t, nil, "strings", "bufio")
	got, err := os.ReadFile(filepath.Join(ix2.dir, fileName))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the index built in little memory differs (%v): %d and %d bytes", err, len(got), len(want))
	}
	ents, _ := os.ReadDir(ix2.dir)
	for _, e := range ents {
		if e.Name() != fileName && e.Name() != lockName {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func followRewrites(t *testing.T) {
	ix, files, data := savedTree(t, nil, "strings", "bytes", "bufio")
	wm := match.New([]string{"parse", "error", "buffer", "writer", "string", "reader", "zqxjunique", "len", "b"})
	now := time.Now()
	var next []walk.File
	for i, f := range files {
		switch {
		case i == 3: // removed
			continue
		case i == 5: // edited: new words, old ones gone
			b := append([]byte("// zqxjunique parses the Writer\n"), data[f.Path][len(data[f.Path])/2:]...)
			f.Size, f.ID.Ino = int64(len(b)), f.ID.Ino+1000
			fx, _ := Extract(f.Path, b, nil)
			fx.Names = testNames(b)
			ix.Put(f, now, fx)
		}
		next = append(next, f)
		if i == 7 { // added after it
			nf := walk.File{Path: f.Path + "_new.go", Size: 40, ID: walk.Ident{Dev: 1, Ino: 9999, MtimeNs: 1, CtimeNs: 1}}
			b := []byte("package x // ZqxjUnique buffer readers\n")
			fx, _ := Extract(nf.Path, b, nil)
			fx.Names = testNames(b)
			ix.Put(nf, now, fx)
			next = append(next, nf)
		}
	}
	if wrote, err := ix.Save(next); !wrote || err != nil {
		t.Fatal(wrote, err)
	}
	dir, fp := ix.dir, ix.fp
	ix.Close()
	ix2, warn, err := Open(dir, fp)
	if err != nil || warn != "" {
		t.Fatal(err, warn)
	}
	defer ix2.Close()
	dictionaryAgrees(t, ix2, next, wm, nil, false)
	if d := ix2.dict(); d == nil || bytes.Contains(d.text, []byte("\nzqxjunique\n")) == false {
		t.Fatal("the edited file's new word is not in the dictionary")
	}
	if held := ix2.NamesHeld([]string{"zqxjunique"}); held == nil || len(slices.DeleteFunc(slices.Clone(held), func(b bool) bool { return !b })) != 2 {
		t.Fatal("the names dictionary does not hold the edited and the added file's new name")
	}
}

// TestDamagedSectionsAreFoundWhenUsed: a damaged dictionary or entry is
// found when first used, warned of once, read around (no answer from it),
// and makes Save rewrite the index.
func TestDamagedSectionsAreFoundWhenUsed(t *testing.T) {
	ix, files, _ := savedTree(t, nil, "strings", "bytes", "bufio")
	good, err := os.ReadFile(filepath.Join(ix.dir, fileName))
	if err != nil {
		t.Fatal(err)
	}
	foot := good[len(good)-footerLen:]
	dictOff, namesOff := int64(binary.LittleEndian.Uint64(foot[16:])), int64(binary.LittleEndian.Uint64(foot[24:]))
	sepsOff := int64(binary.LittleEndian.Uint64(foot[32:]))
	victim := ix.table[len(ix.table)/2]
	cases := map[string]int64{"dictionary": (dictOff + namesOff) / 2, "names dictionary": (namesOff + sepsOff) / 2,
		"separators dictionary": (sepsOff + ixTableOff(good)) / 2, "entry": victim.off + victim.len/2}
	for name, at := range cases {
		b := append([]byte(nil), good...)
		b[at] ^= 0x55
		if err := os.WriteFile(filepath.Join(ix.dir, fileName), b, 0o600); err != nil {
			t.Fatal(err)
		}
		dix, warn, err := Open(ix.dir, ix.fp)
		if err != nil || warn != "" {
			t.Fatalf("%s: a damaged %s is found at open: %v %q", name, name, err, warn)
		}
		var warnings []string
		dix.warn = func(s string) { warnings = append(warnings, s) }
		m := match.New([]string{"string"})
		switch name {
		case "dictionary":
			if dix.Words(m) != nil || dix.Candidates(nil) != nil {
				t.Fatal("a damaged dictionary was used")
			}
			dix.Words(m)
		case "names dictionary":
			if dix.NamesHeld([]string{"package"}) != nil {
				t.Fatal("a damaged names dictionary was used")
			}
			if dix.Words(m) == nil {
				t.Fatal("a damaged names dictionary took the words' with it")
			}
		case "separators dictionary":
			// Every entry may hold a separator term: each is decoded and
			// asked (Holds) instead of trusting the damaged section.
			c := dix.Candidates([]Pattern{NewPattern("%#@!")})
			if c == nil || !c.May(0) || !c.May(len(dix.table)-1) {
				t.Fatal("a damaged separators dictionary was used")
			}
		case "entry":
			vf := files[slices.IndexFunc(files, func(f walk.File) bool { return f.Path == victim.path })]
			if _, ok := dix.Lookup(vf); ok {
				t.Fatal("a damaged entry was answered for")
			}
			if dix.Holds(vf) {
				t.Fatal("a damaged entry is still trusted, so its file would not be stored again")
			}
			if _, ok := dix.Lookup(files[0]); !ok {
				t.Fatal("an undamaged entry is not answered for")
			}
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "rebuilding it") || !strings.Contains(warnings[0], name) {
			t.Fatalf("%s: want one warning naming it, got %q", name, warnings)
		}
		if wrote, err := dix.Save(files); !wrote || err != nil {
			t.Fatalf("%s: Save did not rewrite the damaged index: %v %v", name, wrote, err)
		}
		dix.Close()
	}
}

// ixTableOff is the table offset an index file's footer gives.
func ixTableOff(b []byte) int64 {
	return int64(binary.LittleEndian.Uint64(b[len(b)-footerLen:]))
}
