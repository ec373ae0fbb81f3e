package noescape

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchmcp"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// The test binary is rtch-mcp too, started as a subprocess over stdio.
func TestMain(m *testing.M) {
	if os.Getenv("NOESCAPE_RTCH_MCP") != "" {
		os.Exit(rtchmcp.Main())
	}
	os.Exit(m.Run())
}

const fixture = "../../../testdata/fixtures/wiki-project"

// recallQuery reaches the vendor notes page, which the probe quarantines:
// recall then appends a security event.
const recallQuery = "SEPA partner returned debits"

// writer is one way the toolkit writes into a project: a setup of the
// clean tree (configuration) and the tools run over it.
type writer struct {
	name  string
	setup func(t *testing.T, root string)
	run   func(t *testing.T, s *sandbox) error
	// transient are files it writes only while it works (SQLite's journal,
	// WAL and shared-memory files), which a clean run leaves no trace of.
	transient []string
	// alone: it changes the process's working directory or environment, so
	// it does not run beside the others.
	alone bool
}

// sandbox is the fixed place every case runs in: the tree is rebuilt at
// the same path each time, so what the tools name after it (a packet's
// id) is the same in every case.
type sandbox struct {
	root, outside string
	env           map[string]string
}

func (s *sandbox) getenv(k string) string {
	if v, ok := s.env[k]; ok {
		return v
	}
	return os.Getenv(k)
}

// fresh rebuilds the tree from the fixture, with the writer's setup, and
// empties the outside directory.
func (s *sandbox) fresh(t *testing.T, w *writer) {
	t.Helper()
	for _, d := range []string{s.root, s.outside} {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.CopyFS(s.root, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(s.outside, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(s.root, ".rtch.toml"), "[index]\ndir = \".rtch/index\"\n")
	write(t, filepath.Join(s.root, ".guild/config.toml"), "[index]\nwiki_file_threshold = 2\n")
	if w.setup != nil {
		w.setup(t, s.root)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// exec runs one tool in process in the tree and returns its stdout; a
// failure is an error naming the tool and its diagnostics.
func (s *sandbox) exec(tool *cli.Tool, stdin []byte, args ...string) ([]byte, error) {
	var out, errs bytes.Buffer
	res := cli.Exec(context.Background(), tool, cli.Invocation{Args: args, Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errs,
		Dir: s.root, Getenv: s.getenv})
	if res.Code != 0 {
		return out.Bytes(), fmt.Errorf("%s %s: exit %d: %s", tool.Name, strings.Join(args, " "), res.Code, errs.Bytes())
	}
	return out.Bytes(), nil
}

// lane is rtch-intake | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate.
func (s *sandbox) lane() ([]byte, error) {
	stream, err := s.exec(rtchintake.Tool(), nil, "-q", "--goal", "how are failed invoice payments retried", "--profile", "mixed",
		"--fanout", "normal", "--risk", "read_only", "--output-kind", "hydration_packet", "--enough", "the retry policy is hydrated")
	for _, tool := range []*cli.Tool{rtchzone.Tool(), rtchscout.Tool(), rtchprobe.Tool(), rtchhydrate.Tool()} {
		if err != nil {
			return nil, err
		}
		stream, err = s.exec(tool, stream, "-q")
	}
	return stream, err
}

// mcpCall starts rtch-mcp (this test binary) over stdio on the tree and
// calls one tool through the SDK's client.
func (s *sandbox) mcpCall(t *testing.T, name string, args map[string]any) error {
	cmd := exec.Command(os.Args[0], "--root", s.root)
	cmd.Env = append(os.Environ(), "NOESCAPE_RTCH_MCP=1")
	for k, v := range s.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "noescape", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("rtch-mcp: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return fmt.Errorf("%s: %s", name, b.String())
	}
	return nil
}

var sqliteFiles = []string{".guild/indexes/wiki.sqlite-journal", ".guild/indexes/wiki.sqlite-wal", ".guild/indexes/wiki.sqlite-shm"}

// writers are every way a tool writes into a project.
func writers(t *testing.T) []*writer {
	ws := []*writer{
		{name: "guild-recall", transient: sqliteFiles, run: func(t *testing.T, s *sandbox) error {
			_, err := s.exec(guildrecall.Tool(), nil, "--cwd", s.root, "--query", recallQuery)
			return err
		}},
		{name: "guild-recall --run-id", transient: sqliteFiles, run: func(t *testing.T, s *sandbox) error {
			_, err := s.exec(guildrecall.Tool(), nil, "--cwd", s.root, "--query", recallQuery, "--run-id", "r1")
			return err
		}},
		{name: "rtch lane, rtch-packet --persist -o", setup: func(t *testing.T, root string) {
			if err := os.Mkdir(filepath.Join(root, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, run: func(t *testing.T, s *sandbox) error {
			stream, err := s.lane()
			if err == nil {
				_, err = s.exec(rtchpacket.Tool(), stream, "--persist", "--now", "2026-11-18T00:00:00Z", "-o", "out/packet.ndjson")
			}
			return err
		}},
		{name: "rtch-scout --graph", alone: true, run: func(t *testing.T, s *sandbox) error {
			// As a user runs it from the project: a relative --graph is
			// confined to the working directory.
			wd, _ := os.Getwd()
			if err := os.Chdir(s.root); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(wd)
			_, err := s.exec(rtchscout.Tool(), nil, "--graph", ".guild/indexes/knowledge-graph.json", "--root", ".")
			return err
		}},
		{name: "guild-bundle", run: func(t *testing.T, s *sandbox) error {
			_, err := s.exec(guildbundle.Tool(), nil, "--cwd", s.root, "--plan", filepath.Join(s.root, ".guild/plan/invoice-retries.md"),
				"--all", "--run-id", "run-x")
			return err
		}},
		{name: "rtch-mcp guild_recall", transient: sqliteFiles, run: func(t *testing.T, s *sandbox) error {
			return s.mcpCall(t, "guild_recall", map[string]any{"query": recallQuery, "run_id": "m1"})
		}},
		{name: "rtch-mcp rtch_context --persist", run: func(t *testing.T, s *sandbox) error {
			return s.mcpCall(t, "rtch_context", map[string]any{"goal": "how are failed invoice payments retried",
				"enough": "the retry policy is hydrated", "persist": true})
		}},
	}
	if os.Getenv(pgtest.EnvDSN) != "" {
		dsn, drop, err := pgtest.NewDatabase(context.Background(), pgtest.Admin(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(drop)
		ws = append(ws, &writer{name: "guild-recall postgres", alone: true,
			setup: func(t *testing.T, root string) {
				write(t, filepath.Join(root, ".guild/config.toml"), "[index]\nwiki_file_threshold = 2\nbackend = \"postgres\"\n")
			},
			run: func(t *testing.T, s *sandbox) error {
				// pgfts reads DATABASE_URL from the process's environment.
				t.Setenv("DATABASE_URL", dsn)
				_, err := s.exec(guildrecall.Tool(), nil, "--cwd", s.root, "--query", recallQuery)
				return err
			}})
	}
	return ws
}

// snapshot is every entry under dir: a file's content hash, "dir", or a
// link's target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "link " + target
		case d.IsDir():
			out[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// written is what the tree holds after a run that it did not before, or
// holds changed: files only (slash paths).
func written(before, after map[string]string) []string {
	var out []string
	for p, v := range after {
		if v != "dir" && before[p] != v {
			out = append(out, filepath.ToSlash(p))
		}
	}
	sort.Strings(out)
	return out
}

// prefixes are p's components as paths: a, a/b, a/b/c.
func prefixes(p string) []string {
	var out []string
	parts := strings.Split(p, "/")
	for i := range parts {
		out = append(out, path.Join(parts[:i+1]...))
	}
	return out
}

// placement is one symlink planted.
type placement struct {
	at   string // slash path in the tree
	kind string // "dir" (to an outside directory), "file" (to an outside file), "dangling" (to nothing, outside)
}

// plant replaces at with a link out of the tree. What the tree held there
// moves to the link's target, so the tools find their inputs through the
// link and go on to write.
func (s *sandbox) plant(t *testing.T, pl placement) {
	t.Helper()
	at := filepath.Join(s.root, filepath.FromSlash(pl.at))
	target := filepath.Join(s.outside, "target")
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := os.Lstat(at)
	switch {
	case pl.kind == "dangling":
		target = filepath.Join(s.outside, "nothing-here")
		os.RemoveAll(at)
	case err == nil:
		if err := os.Rename(at, target); err != nil {
			t.Fatal(err)
		}
	case pl.kind == "dir":
		if err := os.Mkdir(target, 0o755); err != nil {
			t.Fatal(err)
		}
	default:
		write(t, target, "the user's file, untouched\n")
	}
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

// TestNoWriteEscapesTheTree runs every writer once on a clean tree to find
// every file it writes there, then again with a symlink out of the tree
// planted at each component of each such path (a directory link at each
// directory, a link to an existing file and a dangling one at the file),
// and fails on any byte, file or directory that appears or changes
// outside.
func TestNoWriteEscapesTheTree(t *testing.T) {
	var mu sync.Mutex
	escapes, links, places := 0, 0, map[string]bool{}
	t.Cleanup(func() {
		t.Logf("write escapes: %d of %d planted links, at every component of %d places the tools write", escapes, links, len(places))
	})
	for _, w := range writers(t) {
		t.Run(w.name, func(t *testing.T) {
			if !w.alone {
				t.Parallel()
			}
			base := t.TempDir()
			s := &sandbox{root: filepath.Join(base, "tree"), outside: filepath.Join(base, "outside")}
			s.env = map[string]string{"XDG_CACHE_HOME": filepath.Join(base, "cache"), "SOURCE_DATE_EPOCH": "1795000000", "RTCH_ZONE_ROOT": s.root}
			files, cases := discover(t, s, w)
			e := 0
			for _, pl := range cases {
				s.fresh(t, w)
				s.plant(t, pl)
				before := snapshot(t, s.outside)
				err := w.run(t, s)
				if d := diff(before, snapshot(t, s.outside)); d != "" {
					e++
					t.Errorf("a %s link at %s: written outside the tree: %s (the run: %v)", pl.kind, pl.at, d, err)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			escapes, links = escapes+e, links+len(cases)
			for _, f := range files {
				places[f] = true
			}
		})
	}
}

// discover runs w on a clean tree and returns the files it writes there
// (with its transient ones) and the links to plant: one at each
// directory of each path, two at each file.
func discover(t *testing.T, s *sandbox, w *writer) ([]string, []placement) {
	t.Helper()
	s.fresh(t, w)
	before := snapshot(t, s.root)
	if err := w.run(t, s); err != nil {
		t.Fatalf("on a clean tree: %v", err)
	}
	files := append(written(before, snapshot(t, s.root)), w.transient...)
	if len(files) == len(w.transient) {
		t.Fatalf("wrote nothing in the tree: the test would prove nothing")
	}
	t.Logf("writes %s", strings.Join(files, ", "))
	var cases []placement
	seen := map[string]bool{}
	for _, f := range files {
		ps := prefixes(f)
		for i, p := range ps {
			kinds := []string{"dir"}
			if i == len(ps)-1 {
				kinds = []string{"file", "dangling"}
			}
			for _, k := range kinds {
				if !seen[p+" "+k] {
					seen[p+" "+k] = true
					cases = append(cases, placement{p, k})
				}
			}
		}
	}
	return files, cases
}

// diff names what changed between two snapshots of the outside directory.
func diff(before, after map[string]string) string {
	var d []string
	for p, v := range after {
		switch w, ok := before[p]; {
		case !ok:
			d = append(d, "new "+p)
		case w != v:
			d = append(d, "changed "+p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			d = append(d, "removed "+p)
		}
	}
	sort.Strings(d)
	return strings.Join(d, ", ")
}
