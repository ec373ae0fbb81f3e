package rtchprobe

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

// The goal of the staleness tests: the twelve words, so most files
// match, plus a dotted name and a phrase the index answers only by reading.
const indexGoal = "command runnable parse flag help output execute error context writer buffer token strings.Builder"

// laneRun is rtch-intake | rtch-zone | rtch-scout | rtch-probe over root,
// in process, with extra flags for the scout and the probe (which run
// without -q, so their warnings show); it returns the probe's output,
// stderr and the progress lines.
func laneRun(t *testing.T, root string, flags ...string) (out, stderr string, progress []string) {
	t.Helper()
	return goalRun(t, root, indexGoal, flags...)
}

// goalRun is laneRun for another goal.
func goalRun(t *testing.T, root, goal string, flags ...string) (out, stderr string, progress []string) {
	t.Helper()
	stages := []struct {
		tool *cli.Tool
		args []string
	}{
		{rtchintake.Tool(), []string{"-q", "--goal", goal, "--profile", "code_path", "--fanout", "normal", "--risk", "read_only",
			"--output-kind", "hydration_packet", "--enough", "the test is done"}},
		{rtchzone.Tool(), []string{"-q"}},
		{rtchscout.Tool(), append([]string{"--no-timing"}, flags...)},
		{Tool(), flags},
	}
	var in []byte
	var errs strings.Builder
	for _, st := range stages {
		var e string
		in, e = runStage(t, root, st.tool, st.args, in, func(s string) {
			if strings.Contains(s, "index:") {
				progress = append(progress, s)
			}
		})
		errs.WriteString(e)
	}
	return string(in), errs.String(), progress
}

// runStage runs one stage of the lane over root in process, with in on
// its stdin, and returns its stdout and stderr.
func runStage(t *testing.T, root string, tool *cli.Tool, args []string, in []byte, progress func(string)) ([]byte, string) {
	t.Helper()
	getenv := func(k string) string {
		if k == "RTCH_ZONE_ROOT" {
			return root
		}
		return os.Getenv(k)
	}
	var o, e bytes.Buffer
	res := cli.Exec(context.Background(), tool, cli.Invocation{Args: args, Stdin: bytes.NewReader(in), Stdout: &o, Stderr: &e,
		Getenv: getenv, Progress: progress})
	if res.Code != 0 {
		t.Fatalf("%s %v: exit %d: %s", tool.Name, args, res.Code, e.String())
	}
	return o.Bytes(), e.String()
}

// copyTree copies a GOROOT package tree (Go, testdata of every kind) and
// adds files the other scans read, then ages every file so no entry is
// racily clean.
func copyTree(t *testing.T, pkg string) string {
	t.Helper()
	src := filepath.Join(runtime.GOROOT(), "src", pkg)
	if _, err := os.Stat(src); err != nil {
		t.Skipf("no GOROOT sources: %v", err)
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	write(t, root, "README.md", "# Command output\n\nThe writer is the source of truth for the buffer.\n\n## Parse flags\n\nDo not use token.\n")
	write(t, root, "config.json", `{"command": "run", "flag": {"help": true}, "token": "abc"}`+"\n")
	write(t, root, "ci.yaml", "command: build\nerror:\n  context: writer\n")
	write(t, root, "bom.go", "\ufeffpackage bom\n\nfunc Parse() error { return nil }\n")
	write(t, root, "blob.bin", "parse\x00error\x00")
	write(t, root, "crlf.txt", "parse\r\nerror\rcontext\r\n")
	age(t, root)
	return root
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

var aged = time.Now().Add(-time.Hour)

// age sets every file's mtime an hour back (the index does not trust an
// entry whose file changed less than two seconds before it was read).
func age(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, aged, aged)
		}
		return nil
	})
}

// warmReads is what a warm probe over copyTree says it read: bom.go (a
// byte-order mark) alone. The entries place strings.Builder (a term of
// other bytes than word bytes) as a scan would, and tell the scout which
// files hold it (scoutReads).
const warmReads = "index: read 1 files"

// check runs the lane with and without the index and wants the same bytes.
func check(t *testing.T, root, ixDir, step string) []string {
	t.Helper()
	want, _, _ := laneRun(t, root, "--no-index")
	got, stderr, progress := laneRun(t, root, "--index", ixDir)
	if got != want {
		t.Fatalf("%s: output with the index differs from --no-index:\n%s", step, firstDiff(want, got))
	}
	if strings.Contains(stderr, "warning") {
		t.Fatalf("%s: unexpected warning: %s", step, stderr)
	}
	return progress
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

// TestIndexAnswersTermsOfEveryKind: goals whose terms are dotted names,
// paths, compounds the code spells otherwise (Content-Type and
// CONTENT_TYPE), quoted values with punctuation, runs of separators alone
// and code: the warm lane's output is --no-index's, byte for byte.
func TestIndexAnswersTermsOfEveryKind(t *testing.T) {
	root := copyTree(t, "net/http/cgi")
	write(t, root, "hard.go", "package cgi\n\n// Wait parses \"1.5s\" and 1.5; x1.5 is not 1,5 nor 11.5.\n"+
		"const env = \"CONTENT_TYPE\"\n"+
		"var body = \"{\\\"ok\\\": true, \\\"waited\\\": \\\"%s\\\"}\\n\" // a.b, a. b, /api/v1/items, :8080\n")
	age(t, root)
	ix := filepath.Join(t.TempDir(), "ix")
	goalRun(t, root, indexGoal, "--index", ix) // builds it
	for _, goal := range []string{
		`time: ParseDuration returns a confusing error for a missing unit like "1.5"`,
		`the Content-Type header is wrong`,
		`keep-alive and x-content-type-options`,
		`net/url: Parse accepts "a.b" as a host and drops "/api/v1/items" on :8080`,
		"fmt.Fprintf(w, \"{\\\"ok\\\": true, \\\"waited\\\": \\\"%s\\\"}\\n\", d) prints `: \\` and `{\\`",
		"regexp ^(a+)+$ with [a-z]*\\d{2,}|(?i)foo.*bar and a b c d e f",
	} {
		want, _, _ := goalRun(t, root, goal, "--no-index")
		got, stderr, _ := goalRun(t, root, goal, "--index", ix)
		if got != want || strings.Contains(stderr, "warning") {
			t.Fatalf("%q: output with the index differs from --no-index (%s):\n%s", goal, stderr, firstDiff(want, got))
		}
	}
}

const scoutReads = "read 1 of"

func TestIndexFollowsEditsAddsRemovesRenames(t *testing.T) {
	root := copyTree(t, "strings")
	ix := filepath.Join(t.TempDir(), "ix")
	check(t, root, ix, "first run (builds)")
	p := check(t, root, ix, "warm, unchanged")
	if len(p) != 2 || !strings.Contains(p[0], scoutReads) || !strings.Contains(p[1], warmReads) {
		t.Fatalf("a warm run over an unchanged tree: want %q, got %q", warmReads, p)
	}
	// An edit that keeps the size and the mtime: only ctime tells.
	b, _ := os.ReadFile(filepath.Join(root, "compare.go"))
	b = bytes.Replace(b, []byte("func Compare(a, b string) int"), []byte("func Parsers(a, b string) int"), 1)
	write(t, root, "compare.go", string(b))
	os.Chtimes(filepath.Join(root, "compare.go"), aged, aged)
	p = check(t, root, ix, "after an edit keeping size and mtime")
	if want := "read 2 of"; !strings.Contains(p[0], want) {
		t.Fatalf("the scout did not read exactly the edited file more: want %q, got %q", want, p)
	}
	write(t, root, "docs/new.md", "# Token writer\n\nparse the command output\n")
	write(t, root, "newfile.go", "package strings\n\n// Runnable parses a flag.\nfunc Runnable() error { return nil }\n")
	age(t, root)
	check(t, root, ix, "after adding files")
	if err := os.Remove(filepath.Join(root, "reader.go")); err != nil {
		t.Fatal(err)
	}
	check(t, root, ix, "after removing a file")
	if err := os.Rename(filepath.Join(root, "replace.go"), filepath.Join(root, "docs", "replaced.go")); err != nil {
		t.Fatal(err)
	}
	check(t, root, ix, "after renaming a file")
	// A file edited just now is racily clean: read again on every run.
	write(t, root, "newfile.go", "package strings\n\n// Buffer parses a token.\nfunc Buffer() error { return nil }\n")
	check(t, root, ix, "after an edit of a young file")
	check(t, root, ix, "again, the young file unchanged")
}

// TestIndexAnswersForTheZoneNames: the zone's manifest and truth files are
// terms of every lane; the index keeps their names' matches, so a warm run
// reads none of the files that name them. A file whose only match is a
// phrase asked for (source of truth) is answered with its hits, though it
// holds names not asked too.
func TestIndexAnswersForTheZoneNames(t *testing.T) {
	root := copyTree(t, "strings")
	write(t, root, "go.mod", "module example.com/strings\n")
	write(t, root, "docs/pin.md", "Edit go.mod to pin it.\n")
	write(t, root, "docs/agents.md", "See AGENTS.md and the README.md here.\n")
	write(t, root, "docs/more.md", "Keep package.json as it is.\n")
	write(t, root, "docs/truth.md", "It is the single source of truth, not package.json.\n")
	age(t, root)
	ix := filepath.Join(t.TempDir(), "ix")
	check(t, root, ix, "first run (builds)")
	if p := check(t, root, ix, "warm"); len(p) != 2 || !strings.Contains(p[1], warmReads) {
		t.Fatalf("the warm probe read files that name the zone's files: want %q, got %q", warmReads, p)
	}
}

func TestIndexCorruptOrOtherVersionIsRebuiltWithOneWarning(t *testing.T) {
	root := copyTree(t, "bufio")
	ix := filepath.Join(t.TempDir(), "ix")
	want, _, _ := laneRun(t, root, "--no-index")
	laneRun(t, root, "--index", ix)
	file := filepath.Join(ix, "index")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"flipped byte": func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b },
		// the later sections: the dictionary (checked when first used),
		// the table (at open)
		"flipped byte in the dictionary": func(b []byte) []byte { b[len(b)*85/100] ^= 0xff; return b },
		"flipped byte in the table":      func(b []byte) []byte { b[len(b)-100] ^= 0xff; return b },
		"torn":                           func(b []byte) []byte { return b[:len(b)/3] },
		"other version":                  func(b []byte) []byte { b[8] = 99; return b },
		"empty":                          func([]byte) []byte { return nil },
	}
	for name, fn := range damage {
		if err := os.WriteFile(file, fn(append([]byte(nil), good...)), 0o600); err != nil {
			t.Fatal(err)
		}
		got, stderr, _ := laneRun(t, root, "--index", ix)
		if got != want {
			t.Fatalf("%s: output differs from --no-index:\n%s", name, firstDiff(want, got))
		}
		section := map[string]string{"flipped byte": "the entry of", "flipped byte in the dictionary": "the dictionary",
			"flipped byte in the table": "in the table"}[name]
		if n := strings.Count(stderr, "warning"); n != 1 || !strings.Contains(stderr, "rebuilding it") || !strings.Contains(stderr, section) {
			t.Fatalf("%s: want one warning that the index is rebuilt, got:\n%s", name, stderr)
		}
		if _, stderr, p := laneRun(t, root, "--index", ix); stderr != "" || !strings.Contains(p[0], scoutReads) {
			t.Fatalf("%s: the rebuilt index is not used: %q %q", name, stderr, p)
		}
	}
}

func TestIndexConcurrentRuns(t *testing.T) {
	root := copyTree(t, "bufio")
	ix := filepath.Join(t.TempDir(), "ix")
	want, _, _ := laneRun(t, root, "--no-index")
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], _, _ = laneRun(t, root, "--index", ix)
		}()
	}
	wg.Wait()
	for i, o := range outs {
		if o != want {
			t.Fatalf("run %d of 4 concurrent runs differs:\n%s", i, firstDiff(want, o))
		}
	}
	if got, stderr, _ := laneRun(t, root, "--index", ix); got != want || stderr != "" {
		t.Fatalf("after concurrent runs: %q\n%s", stderr, firstDiff(want, got))
	}
	leftovers(t, ix)
}

// leftovers fails on a temporary left in the index directory.
func leftovers(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".rtchtmp") {
			t.Fatalf("temporary left behind: %s", e.Name())
		}
	}
}

// TestIndexBuildKilledMidWrite kills a real rtch-scout process while it
// writes the index (its temporary is there) and checks that the next run
// is correct and leaves no temporary.
func TestIndexBuildKilledMidWrite(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs SIGKILL and the Linux temporary naming")
	}
	root := copyTree(t, "net/http")
	dir := t.TempDir()
	ix := filepath.Join(dir, "ix")
	scoutBin := filepath.Join(dir, "rtch-scout")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, scoutBin); err != nil {
		t.Fatal(err)
	}
	want, _, _ := laneRun(t, root, "--no-index")
	zone := zoneStream(t, root)
	killed := false
	for try := 0; try < 20 && !killed; try++ {
		os.RemoveAll(ix)
		cmd := exec.Command(scoutBin, "-q", "--index", ix)
		cmd.Stdin = bytes.NewReader(zone)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
	poll:
		for {
			select {
			case <-done:
				break poll
			default:
			}
			if m, _ := filepath.Glob(filepath.Join(ix, ".index.*.rtchtmp")); len(m) > 0 {
				cmd.Process.Signal(syscall.SIGKILL)
				<-done
				killed = true
				break poll
			}
			time.Sleep(200 * time.Microsecond)
		}
	}
	if !killed {
		t.Fatal("never caught the scout writing its index in 20 tries")
	}
	if m, _ := filepath.Glob(filepath.Join(ix, ".index.*.rtchtmp")); len(m) == 0 {
		t.Fatal("the killed writer left no temporary: the test did not kill it mid-write")
	}
	if _, err := os.Stat(filepath.Join(ix, "index")); err == nil {
		t.Fatal("an index file exists after the only writer was killed before its rename")
	}
	got, stderr, _ := laneRun(t, root, "--index", ix)
	if got != want || stderr != "" {
		t.Fatalf("the run after the kill: %q\n%s", stderr, firstDiff(want, got))
	}
	leftovers(t, ix)
	_, _, p := laneRun(t, root, "--index", ix)
	_, _, again := laneRun(t, root, "--index", ix)
	if !strings.Contains(p[0], "index: read") || p[0] != again[0] {
		t.Fatalf("the index written after the kill is not used: %q then %q", p, again)
	}
}

// zoneStream is rtch-intake | rtch-zone for root, the scout's input.
func zoneStream(t *testing.T, root string) []byte {
	t.Helper()
	var in bytes.Buffer
	res := cli.Exec(context.Background(), rtchintake.Tool(), cli.Invocation{Args: []string{"-q", "--goal", indexGoal, "--profile", "code_path",
		"--fanout", "normal", "--risk", "read_only", "--output-kind", "hydration_packet", "--enough", "done"}, Stdout: &in, Stderr: os.Stderr})
	if res.Code != 0 {
		t.Fatal("intake failed")
	}
	var out bytes.Buffer
	res = cli.Exec(context.Background(), rtchzone.Tool(), cli.Invocation{Args: []string{"-q"}, Stdin: &in, Stdout: &out, Stderr: os.Stderr,
		Getenv: func(k string) string {
			if k == "RTCH_ZONE_ROOT" {
				return root
			}
			return os.Getenv(k)
		}})
	if res.Code != 0 {
		t.Fatal("zone failed")
	}
	return out.Bytes()
}

// TestIndexHoldsNoSecret: a file holding a key the redactor masks is not
// indexed (its words would be), and the index file holds no byte of it.
func TestIndexHoldsNoSecret(t *testing.T) {
	root := copyTree(t, "bufio")
	key := "AKIA" + "ZQ3DRSTUVWXY2345" // an AWS access key id the redactor masks
	write(t, root, "deploy/creds.go", "package deploy\n\n// Token for the command writer.\nconst Token = \""+key+"\"\n")
	write(t, root, "notes.md", "# Token\n\nThe writer uses "+key+" as its token.\n")
	// Secrets the redactor knows only by what is around them: short
	// passwords after a password key, a token in a URL's credentials, a
	// PEM private key's body (base64 lines, cut into words at + and /).
	short := map[string]string{
		"deploy/db.yaml":   "command: serve\ndb_password: Parse7rx\n",
		"deploy/env.sh":    "export WRITER_PASSWORD=ctx9Flag\n",
		"deploy/README.md": "# Buffer\n\nclone https://deploy:Tok3nWr1ter@example.com/x.git for the command\n",
	}
	for p, text := range short {
		write(t, root, p, text)
	}
	age(t, root)
	ix := filepath.Join(t.TempDir(), "ix")
	check(t, root, ix, "first run")
	check(t, root, ix, "warm")
	b, err := os.ReadFile(filepath.Join(ix, "index"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(key)) || bytes.Contains(b, []byte(key[4:])) {
		t.Fatal("the index holds the secret")
	}
	for _, w := range []string{"Parse7rx", "ctx9Flag", "Tok3nWr1ter"} {
		if bytes.Contains(b, []byte(w)) {
			t.Errorf("the index holds %q, which the redactor masks by its context", w)
		}
	}
}

// TestIndexIsOnUnlessTurnedOff: without flags or configuration the lane
// keeps the index in the user cache directory and a second run answers
// from it; --no-index and [index] enabled = false leave it alone, and a
// cache directory that cannot be made is gone without, quietly; [index]
// dir puts it in the tree. Every output is --no-index's.
func TestIndexIsOnUnlessTurnedOff(t *testing.T) {
	root := copyTree(t, "bufio")
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	userDir, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	indexes := func() []string {
		m, _ := filepath.Glob(filepath.Join(userDir, "rtch", "index", "*", "index"))
		return m
	}
	want, _, _ := laneRun(t, root, "--no-index")
	if m := indexes(); len(m) != 0 {
		t.Fatalf("--no-index wrote an index: %v", m)
	}
	if got, _, _ := laneRun(t, root); got != want {
		t.Fatalf("on by default: %s", firstDiff(want, got))
	}
	if m := indexes(); len(m) != 1 {
		t.Fatalf("on by default: want one index in the user cache directory, got %v", m)
	}
	if got, _, p := laneRun(t, root); got != want || !strings.Contains(p[0], scoutReads) {
		t.Fatalf("on by default: the index is not used: %q", p)
	}
	os.RemoveAll(filepath.Join(userDir, "rtch"))
	write(t, root, ".rtch.toml", "[index]\nenabled = false\n")
	age(t, root)
	want, _, _ = laneRun(t, root, "--no-index")
	if got, _, p := laneRun(t, root); got != want || len(p) != 0 || len(indexes()) != 0 {
		t.Fatalf("[index] enabled = false: an index was used or written: %q %v", p, indexes())
	}
	os.Remove(filepath.Join(root, ".rtch.toml"))
	unusable := filepath.Join(t.TempDir(), "file")
	write(t, filepath.Dir(unusable), "file", "not a directory\n")
	t.Setenv("XDG_CACHE_HOME", unusable)
	want, _, _ = laneRun(t, root, "--no-index")
	if got, stderr, _ := laneRun(t, root); got != want || stderr != "" {
		t.Fatalf("a cache directory that cannot be made: %q\n%s", stderr, firstDiff(want, got))
	}
	write(t, root, ".rtch.toml", "[index]\ndir = \".ix\"\n")
	age(t, root)
	want, _, _ = laneRun(t, root, "--no-index")
	if got, _, _ := laneRun(t, root); got != want {
		t.Fatalf("[index] dir: %s", firstDiff(want, got))
	}
	if _, err := os.Stat(filepath.Join(root, ".ix", "index")); err != nil {
		t.Fatalf("[index] dir: %v", err)
	}
}
