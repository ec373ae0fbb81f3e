//go:build unix

package walk

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/internal/sharedeval"
	"github.com/rtch/rtch/pkg/pathenc"
)

type outcome struct {
	files map[string]File
	skips map[string]Skip // from Files and Each, keyed by path
	text  map[string][]byte
	warns []string
}

func hostileTree(t *testing.T) string {
	t.Helper()
	script := sharedeval.Path(t, "hostile-tree.sh") // the shared bad-input fixture builder
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed: cannot build the hostile tree")
	}
	dir := filepath.Join(t.TempDir(), "h")
	t.Cleanup(func() {
		// Give mode-000 entries back their bits so TempDir can remove them.
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if d != nil && !d.Type().IsRegular() && !d.IsDir() {
				return nil
			}
			os.Chmod(p, 0o755)
			return nil
		})
	})
	out, err := exec.Command("bash", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return filepath.Join(dir, "repo")
}

func runAll(t *testing.T, o Options) outcome {
	t.Helper()
	res := outcome{files: map[string]File{}, skips: map[string]Skip{}, text: map[string][]byte{}}
	addSkip := func(s Skip) {
		if prev, dup := res.skips[s.Path]; dup {
			t.Errorf("%q skipped twice: %+v and %+v", s.Path, prev, s)
		}
		res.skips[s.Path] = s
	}
	o.Warn = func(format string, args ...any) {
		res.warns = append(res.warns, sprintf(format, args...))
	}
	files, err := Files(context.Background(), o, addSkip)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, dup := res.files[f.Path]; dup {
			t.Errorf("%q listed twice", f.Path)
		}
		res.files[f.Path] = f
	}
	var mu sync.Mutex
	err = Each(context.Background(), o, files, func(f File, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		res.text[f.Path] = data
		return nil
	}, addSkip)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func wantSkip(t *testing.T, res outcome, id, path, reason string) Skip {
	t.Helper()
	s, ok := res.skips[path]
	if !ok {
		t.Errorf("%s: %q not reported as a skip (want %s)", id, path, reason)
		return s
	}
	if s.Reason != reason {
		t.Errorf("%s: %q skipped as %s (%s), want %s", id, path, s.Reason, s.Detail, reason)
	}
	if _, listed := res.text[path]; listed {
		t.Errorf("%s: %q was handed on as text", id, path)
	}
	return s
}

func wantWarn(t *testing.T, res outcome, id, path string) {
	t.Helper()
	for _, w := range res.warns {
		if strings.HasPrefix(w, quote(path)+":") {
			return
		}
	}
	t.Errorf("%s: no warning names %q; warnings: %q", id, path, res.warns)
}

// TestHostileTree runs ../shared/eval/hostile-tree.sh and checks every
// walk-area case of bad-inputs.jsonl against the walker's output.
func TestHostileTree(t *testing.T) {
	checkHostile(t, hostileTree(t), Options{})
}

// TestHostileTreeGitFastPath repeats the checks with the tree made a git
// repository and listed through git ls-files.
func TestHostileTreeGitFastPath(t *testing.T) {
	needGit(t)
	root := hostileTree(t)
	git(t, root, gitEnv(t), nil, "init", "-q")
	checkHostile(t, root, Options{GitFastPath: true})
}

func checkHostile(t *testing.T, root string, o Options) {
	o.Root = root
	res := runAll(t, o)

	// W01: symlink loops end the walk (we got here) and are reported.
	wantSkip(t, res, "W01", "wiki/loop_self", ReasonSymlinkLoop)
	wantSkip(t, res, "W01", "wiki/a/b/loop_up", ReasonSymlinkLoop)
	wantWarn(t, res, "W01", "wiki/loop_self")

	// W02: escapes are never read and never listed.
	for _, p := range []string{"docs/escape.md", "docs/escape_abs.md"} {
		wantSkip(t, res, "W02", p, ReasonSymlinkEscape)
		wantWarn(t, res, "W02", p)
	}
	for p, b := range res.text {
		if strings.Contains(string(b), "secret outside root") {
			t.Errorf("W02: text from outside the root read via %q", p)
		}
	}

	// W03: dangling symlink: warning, skip.
	wantSkip(t, res, "W03", "docs/dangling.md", ReasonDanglingSymlink)
	wantWarn(t, res, "W03", "docs/dangling.md")

	// W04: the alias is not followed; the bytes are indexed once, under
	// the target's own path.
	wantSkip(t, res, "W04", "docs/alias.md", ReasonSymlink)
	if string(res.text["docs/real.md"]) != "# Real\n" {
		t.Errorf("W04: docs/real.md text = %q", res.text["docs/real.md"])
	}

	// W05, W06: NUL early and after 64 KiB are both binary.
	wantSkip(t, res, "W05", "docs/W05_nul_early.md", ReasonBinary)
	if s := wantSkip(t, res, "W06", "docs/W06_nul_late.md", ReasonBinary); !strings.Contains(s.Detail, "70001") {
		t.Errorf("W06: detail %q does not give the NUL's offset 70001", s.Detail)
	}

	// W07: the 2 GiB sparse file is skipped by size, never read.
	if s := wantSkip(t, res, "W07", "docs/W07_huge_sparse.md", ReasonTooLarge); s.SizeBytes != 2<<30 {
		t.Errorf("W07: size %d, want %d", s.SizeBytes, 2<<30)
	}
	// Even when asked directly, Read refuses it by fstat before reading:
	// the heap does not grow by anything like its size.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, s := Read(File{Path: "docs/W07_huge_sparse.md", Abs: filepath.Join(root, "docs/W07_huge_sparse.md")}, 0)
	runtime.ReadMemStats(&after)
	if s == nil || s.Reason != ReasonTooLarge {
		t.Errorf("W07: Read = %+v, want too_large", s)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("W07: Read allocated %d bytes for a file it must not read", grew)
	}
	wantSkip(t, res, "W08", "docs/W08_one_10MB_line.md", ReasonTooLarge)

	// W09: an empty file is text with no bytes, no error.
	if b, ok := res.text["docs/W09_empty.md"]; !ok || len(b) != 0 {
		t.Errorf("W09: empty file: text %q, handed on %v", b, ok)
	}

	// W10, W10b: invalid UTF-8 decodes to valid UTF-8, never to '<'.
	for _, p := range []string{"docs/W10_invalid_utf8.md", "docs/W10b_overlong_surrogate.md"} {
		s := DecodeText(res.text[p])
		if !utf8.ValidString(s) || !strings.ContainsRune(s, utf8.RuneError) {
			t.Errorf("W10: %q decoded to %q", p, s)
		}
		if strings.ContainsAny(s, "<>") {
			t.Errorf("W10b: %q decoded to markup: %q", p, s)
		}
	}
	if s := DecodeText(res.text["docs/W10b_overlong_surrogate.md"]); s != "overlong \ufffd\ufffd/guild:recall\ufffd\ufffd and surrogate \ufffd\ufffd\ufffd\n" {
		t.Errorf("W10b: decoded %q", s)
	}

	// W11: UTF-16 with a BOM holds NULs: binary, and said so.
	if s := wantSkip(t, res, "W11", "docs/W11_utf16le_bom.md", ReasonBinary); !strings.Contains(s.Detail, "UTF-16") {
		t.Errorf("W11: detail %q does not name UTF-16", s.Detail)
	}

	// W12-W15: BOM, CRLF, CR-only, no final newline.
	if s := DecodeText(res.text["docs/W12_utf8_bom_frontmatter.md"]); !strings.HasPrefix(s, "---\n") {
		t.Errorf("W12: BOM not stripped: %q", s)
	}
	lineCases := map[string][]string{
		"docs/W13_crlf.md":    {"---", "title: crlf", "tags: [a, b]", "---", "body line 1", "body line 2"},
		"docs/W14_cr_only.md": {"---", "title: cr only", "---", "body"},
		"docs/W15_no_eol.md":  {"no trailing newline"},
	}
	for p, want := range lineCases {
		if got := Lines(DecodeText(res.text[p])); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("W13-15: Lines(%s) = %q, want %q", p, got, want)
		}
	}

	// W16: FIFO and socket skipped by type before opening (a FIFO open
	// would hang this test); the /dev/zero link is an escape.
	// git ls-files never lists special files, so the fast path does not
	// see them at all (documented); they are still never opened.
	for _, p := range []string{"docs/W16_fifo.md", "docs/W16_socket.md"} {
		if _, err := os.Lstat(filepath.Join(root, p)); err != nil {
			continue
		}
		if o.GitFastPath {
			if _, ok := res.files[p]; ok {
				t.Errorf("W16: %q listed", p)
			}
			res.skips[p] = Skip{Path: p, Reason: ReasonSpecial} // for the completeness check below
			continue
		}
		wantSkip(t, res, "W16", p, ReasonSpecial)
	}
	wantSkip(t, res, "W16", "docs/W16_devzero.md", ReasonSymlinkEscape)

	// W18: odd names stay distinct paths, byte for byte.
	for _, p := range []string{"docs/W18 space.md", "docs/-W18_leading_dash.md", "docs/W18_newline_\nx.md",
		"docs/W18_bad_name_\xff.md", "docs/W18_caf\xc3\xa9.md", "docs/W18_cafe\xcc\x81.md", "docs/README.md", "docs/readme.md"} {
		if _, err := os.Lstat(filepath.Join(root, p)); err != nil {
			t.Logf("W18: %q not created here (the script tolerates that): %v", p, err)
			continue
		}
		if _, ok := res.text[pathenc.Encode(p)]; !ok {
			t.Errorf("W18: %q not listed (as %q)", p, pathenc.Encode(p))
		}
	}

	// W19: 300 levels deep.
	deep := "deep"
	for i := 1; i <= 300; i++ {
		deep += "/d" + strconv.Itoa(i)
	}
	if string(res.text[deep+"/W19_deep.md"]) != "# deep\n" {
		t.Errorf("W19: deep file not read")
	}

	// W20: LFS pointer recognised, not indexed as content.
	wantSkip(t, res, "W20", "docs/W20_lfs_pointer.md", ReasonLFSPointer)

	// Completeness: every non-directory entry of the tree (seen by an
	// independent walk that does not follow links) is either handed on
	// as text or reported as a skip; nothing disappears silently.
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if d == nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = pathenc.Encode(filepath.ToSlash(rel)) // as the walk spells it
		if rel == ".git" || strings.HasPrefix(rel, ".git/") {
			return nil
		}
		_, text := res.text[rel]
		_, skipped := res.skips[rel]
		if text == skipped {
			t.Errorf("%q: handed on %v, skipped %v: want exactly one", rel, text, skipped)
		}
		return nil
	})
}

// TestToctou changes files between Files and Each (W21): a vanished file,
// one replaced by a FIFO, one by a symlink, one grown past the cap. Each
// must report them all and carry on.
func TestToctou(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"gone.md": "x", "fifo.md": "x", "link.md": "x", "grow.md": "x", "ok.md": "ok"})
	o := Options{Root: dir, MaxFileSize: 100}
	var warns []string
	o.Warn = func(f string, a ...any) { warns = append(warns, sprintf(f, a...)) }
	files, err := Files(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Remove(filepath.Join(dir, "gone.md")))
	must(os.Remove(filepath.Join(dir, "fifo.md")))
	if err := mkfifo(filepath.Join(dir, "fifo.md")); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	must(os.Remove(filepath.Join(dir, "link.md")))
	must(os.Symlink("ok.md", filepath.Join(dir, "link.md")))
	must(os.WriteFile(filepath.Join(dir, "grow.md"), []byte(strings.Repeat("g", 500)), 0o644))
	got := map[string]string{}
	var read []string
	err = Each(context.Background(), o, files, func(f File, b []byte) error {
		read = append(read, f.Path)
		return nil
	}, func(s Skip) { got[s.Path] = s.Reason })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gone.md": ReasonUnreadable, "fifo.md": ReasonSpecial, "link.md": ReasonSymlink, "grow.md": ReasonTooLarge}
	if sprintf("%v", got) != sprintf("%v", want) {
		t.Errorf("skips = %v, want %v", got, want)
	}
	if sprintf("%q", read) != `["ok.md"]` {
		t.Errorf("read %q", read)
	}
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "gone.md: unreadable") {
		t.Errorf("warnings = %q", warns)
	}
}

// TestToctouDirSwap: a directory swapped for a symlink to outside the
// root between Files and Each must not lead a read out of the root, by
// Each or by Read.
func TestToctouDirSwap(t *testing.T) {
	if !openat2Available() {
		t.Skip("no openat2 here: only the last path component is protected (documented)")
	}
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeTree(t, base, map[string]string{"root/d/in.md": "inside\n", "root/ok.md": "ok\n", "outside/in.md": "SECRET\n"})
	files, err := Files(context.Background(), Options{Root: root}, nil)
	if err != nil || len(files) != 2 {
		t.Fatal(err, files)
	}
	if err := os.Rename(filepath.Join(root, "d"), filepath.Join(base, "d_old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside", filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	skips := map[string]Skip{}
	err = Each(context.Background(), Options{Root: root}, files, func(f File, b []byte) error {
		if strings.Contains(string(b), "SECRET") {
			t.Errorf("%s: read outside the root through a swapped directory", f.Path)
		}
		return nil
	}, func(s Skip) { skips[s.Path] = s })
	if err != nil {
		t.Fatal(err)
	}
	s, ok := skips["d/in.md"]
	if !ok || (s.Reason != ReasonSymlink && s.Reason != ReasonSymlinkEscape) {
		t.Errorf("d/in.md: skip %+v, want symlink", s)
	}
	if data, s := Read(files[0], 0); data != nil || s == nil {
		t.Errorf("Read(%s) = %q, %+v", files[0].Path, data, s)
	}
}

// TestEachStopsOnError: the first callback error ends Each and is
// returned; cancellation is returned too.
func TestEachStopsOnError(t *testing.T) {
	dir := t.TempDir()
	m := map[string]string{}
	for i := 0; i < 50; i++ {
		m["f"+strconv.Itoa(i+1)] = "x"
	}
	writeTree(t, dir, m)
	files, err := Files(context.Background(), Options{Root: dir}, nil)
	if err != nil || len(files) != 50 {
		t.Fatal(err, len(files))
	}
	boom := os.ErrInvalid
	if err := Each(context.Background(), Options{Root: dir}, files, func(File, []byte) error { return boom }, nil); err != boom {
		t.Errorf("Each error = %v, want %v", err, boom)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Each(ctx, Options{Root: dir}, files, func(File, []byte) error { return nil }, nil); err != context.Canceled {
		t.Errorf("Each on cancelled ctx = %v", err)
	}
	if _, err := Files(ctx, Options{Root: dir}, nil); err != context.Canceled {
		t.Errorf("Files on cancelled ctx = %v", err)
	}
}

// TestHostileIgnoreFiles: a 2 GiB sparse .gitignore, a FIFO named .ignore
// and a symlinked .rtchignore are not read (warnings, no hang, flat
// memory); the walk goes on without them.
func TestHostileIgnoreFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.md": "a", "sub/b.md": "b", "sub/c.md": "c", "rules": "c.md\n", ".git/": ""})
	f, err := os.Create(filepath.Join(dir, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	if err := mkfifo(filepath.Join(dir, "sub/.ignore")); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := os.Symlink("../rules", filepath.Join(dir, "sub/.rtchignore")); err != nil {
		t.Fatal(err)
	}
	var warns []string
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	files, err := Files(context.Background(), Options{Root: dir, Warn: func(f string, a ...any) { warns = append(warns, sprintf(f, a...)) }}, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(paths(files), " "); got != "a.md rules sub/b.md sub/c.md" {
		t.Errorf("files: %s", got)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("walk allocated %d bytes: the huge .gitignore was read", grew)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], ".gitignore: not used: 2147483648 bytes") {
		t.Errorf("warnings %q", warns)
	}
}

// TestQuoteSpellsOutWhatDoesNotPrint: a path with a control character (C0
// or C1: U+009B is a terminal's CSI), a bidi override (U+202E shows
// "gpj.md" as "dm.jpg") or a zero-width character is Go-quoted in a
// diagnostic; letters of any script and spaces print as they are.
func TestQuoteSpellsOutWhatDoesNotPrint(t *testing.T) {
	for p, want := range map[string]string{
		"a\nb.go":            `"a\nb.go"`,
		"c1\u009b2J.go":      `"c1\u009b2J.go"`,
		"bidi\u202egpj.md":   `"bidi\u202egpj.md"`,
		"zero\u200bwidth.go": `"zero\u200bwidth.go"`,
		"bad\xffutf8.go":     `"bad\xffutf8.go"`,
		"q\"uote.go":         `"q\"uote.go"`,
		"naïve ключ.go":      "naïve ключ.go",
		"two words.go":       "two words.go",
	} {
		if got := quote(p); got != want {
			t.Errorf("quote(%q) = %s, want %s", p, got, want)
		}
	}
}
