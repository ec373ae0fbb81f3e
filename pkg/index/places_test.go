package index

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/walk"
)

// placeTerms are words and terms with other bytes (dotted names, paths,
// quoted values, compounds) a goal holds.
var placeTerms = []string{"parse", "error", "time.second", "fmt.sprintf", "1.5", "go.mod", "net/http", "a.b", "x-y", "content-type",
	"read_line", "keep-alive", "r.url.query", "/api/v1", "0x1p-2", "err != nil", "strings.builder", "1,5",
	"e-9", "t.fatalf", "b.n", "io.eof", "json.unmarshal", "utf8.runeerror", "1.0", "s.len", "type", "y"}

// leadTerms are terms opening with a separator: flags, file suffixes,
// relative paths, ports, a quoted name's start.
var leadTerms = []string{"-1", "_test.go", ".5", "/33", "../b", "--flag", "_test", "\"a.b", ":8080", "/a.b", "-v", ".string", "/api/v1", "error"}

// TestPlacesAreTheScan: on GOROOT packages and on keyed files (YAML, TOML,
// JSON, where a key's ':' or '=' after a match counts), the words' hits
// and the patterns' places (Cands.Places) of every file whose entry can
// place them are, in order, exactly the matches a scan of its bytes
// reports; most files holding a pattern are answered without being read;
// a term closing with a separator is left to the bytes.
func TestPlacesAreTheScan(t *testing.T) {
	ix, files, data := savedTree(t, nil, "strings", "strconv", "time", "net/url", "encoding/json", "net/http/cgi", "net/textproto", "go/build")
	placed, read := placesAreTheScan(t, ix, files, data, placeTerms)
	t.Logf("%d files answered (%d pattern matches placed), %d read", len(files)-read, placed, read)
	if placed < 1000 || read > len(files)/10 {
		t.Fatalf("%d pattern matches placed, %d of %d files read: the index does not place patterns", placed, read, len(files))
	}
	keyed := map[string][]byte{
		"conf.yaml":  []byte("time.second: 1.5\nfmt.sprintf = x\nkeep-alive:\n  a.b: [\"1.5\", a.bc: 2]\n  x-yz: \"a.b\"\n"),
		"conf.toml":  []byte("[a.b]\nkeep-alive = \"1.5\"\n\"time.second\" = 1,5\nr.url.queryX = 1\n"),
		"conf.json":  []byte("{\"a.b\": {\"x-y\" : \"net/http\", \"1.5\":1.5}, \"go.mod\":\"a.bcd\"}\n"),
		"notes.text": []byte("a.b: keep-alive = 1.5\nconst env = \"CONTENT_TYPE\" // Content-Type, contentType, x_y\n"),
	}
	kix, kfiles := savedFiles(t, nil, keyed)
	if placed, read := placesAreTheScan(t, kix, kfiles, keyed, placeTerms); placed < 10 || read > 0 {
		t.Fatalf("keyed files: %d pattern matches placed, %d files read", placed, read)
	}
	for _, term := range []string{"t.run(", "(x)"} {
		pc := ix.Candidates(Patterns(term))
		for _, f := range files {
			if !strings.Contains(strings.ToLower(string(data[f.Path])), term) {
				continue
			}
			if fl, _ := ix.Lookup(f); fl == nil {
				t.Fatalf("%s: not answered for", f.Path)
			} else if _, ok := pc.Places(fl, []Spelling{{0, 0}}, nil); ok {
				t.Fatalf("%s holds %q, which its entry cannot place, but Places answers for it", f.Path, term)
			}
			break
		}
	}
}

// TestPlacesOfLeadingSeparators: a term opening with a separator is
// placed from the entry where the run before its first word is known
// (the run after the word before it on its line), exactly as a scan
// finds it; only a file where such a word opens its line, and runs as
// long as its indentation both do and do not end with the separator,
// is left to the bytes.
func TestPlacesOfLeadingSeparators(t *testing.T) {
	ix, files, data := savedTree(t, nil, "strings", "strconv", "time", "net/url", "encoding/json", "net/http/cgi", "net/textproto", "go/build", "path/filepath")
	placed, read := placesAreTheScan(t, ix, files, data, leadTerms)
	t.Logf("%d files answered (%d pattern matches placed), %d read", len(files)-read, placed, read)
	if placed < 300 || read > len(files)*2/5 {
		t.Fatalf("%d matches of terms opening with a separator placed, %d of %d files read", placed, read, len(files))
	}
	// A line's first word after runs of its length that do and do not
	// end with the separator.
	tree := map[string][]byte{"t.go": []byte("x := []int{\n\t\t-1,\n\t\t\t0,\n}\n"), "u.go": []byte("x := -1\n\t\t0\n")}
	kix, kfiles := savedFiles(t, nil, tree)
	for _, f := range kfiles {
		fl, _ := kix.Lookup(f)
		_, ok := kix.Candidates(Patterns("-1")).Places(fl, []Spelling{{0, 0}}, nil)
		if ok != (f.Path == "u.go") {
			t.Fatalf("%s: Places answers %v for \"-1\"", f.Path, ok)
		}
	}
}

// placesAreTheScan compares, file by file, the index's hits of terms with
// a scan's; it returns the pattern matches placed and the files the index
// could not place them in.
func placesAreTheScan(t *testing.T, ix *Index, files []walk.File, data map[string][]byte, placeTerms []string) (placed, read int) {
	t.Helper()
	terms := make([]string, len(placeTerms))
	for i, term := range placeTerms {
		terms[i] = match.Fold(term)
	}
	m := match.New(terms)
	var pats []Pattern
	var sp []Spelling
	rank := 0
	m.Spellings(func(s string, term int) {
		if !Simple(s) {
			pats = append(pats, NewPattern(s))
			sp = append(sp, Spelling{term, rank})
		}
		rank++
	})
	words, cands := ix.Words(m), ix.Candidates(pats)
	for _, f := range files {
		fl, ok := ix.Lookup(f)
		if !ok {
			t.Fatalf("%s: not answered for", f.Path)
		}
		hits, err := words.Hits(fl, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		ps, ok := cands.Places(fl, sp, nil)
		if !ok {
			read++
			continue
		}
		placed += len(ps)
		var got []string
		for _, h := range MergeHits(hits, ps) {
			got = append(got, fmt.Sprint(h.Term, h.Line, h.Col, h.Key))
		}
		ext := path.Ext(f.Path)
		want := scanHits(m, data[f.Path], ext == ".json" || ext == ".yaml" || ext == ".toml")
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%s: hit %d from the index %q, the scan's %q (terms %q)", f.Path, i, got[i], want[i], terms)
				}
			}
			t.Fatalf("%s: %d hits from the index, %d from the scan", f.Path, len(got), len(want))
		}
	}
	return placed, read
}
