package noleak

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

// run runs one tool in-process in the current directory and returns its
// stdout; stderr is collected into out too, since diagnostics reach the
// agent as well.
func run(t *testing.T, out *bytes.Buffer, tool *cli.Tool, stdin []byte, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	var in io.Reader
	if stdin != nil {
		in = bytes.NewReader(stdin)
	}
	code := cli.Run(context.Background(), tool, args, in, &stdout, &stderr)
	fmt.Fprintf(out, "== %s %s (exit %d)\n%s%s", tool.Name, strings.Join(args, " "), code, stdout.Bytes(), stderr.Bytes())
	if code != 0 && code != 3 {
		t.Logf("%s %v: exit %d: %s", tool.Name, args, code, stderr.Bytes())
	}
	return stdout.Bytes()
}

// TestNoSecretReachesAnyOutput plants 50 secrets in 33 files of a project
// with a wiki, runs every tool over it (the lane with goals that name the
// secrets, every packet format, --persist and -o, re-entry of every file and
// of a window inside a key, guild-recall, guild-bundle) and fails when any
// piece of any secret appears in anything written.
func TestNoSecretReachesAnyOutput(t *testing.T) {
	dir := projectDir(t)
	secrets, err := Fixture(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n, f := len(secrets), len(Files(secrets)); n != 50 || f != 33 {
		t.Fatalf("fixture has %d secrets in %d files, want 50 in 33", n, f)
	}
	t.Chdir(dir)
	var out bytes.Buffer
	goals := []string{
		"rotate the aws_secret_access_key and github_token in deploy config",
		"where are the password, api_key, client_secret and private_key settings read",
		"find the stripe, slack, sendgrid, twilio, mailgun and vault tokens in config and src",
	}
	for _, goal := range goals {
		intake := run(t, &out, rtchintake.Tool(), nil, "--goal", goal, "--profile", "mixed", "--fanout", "wide",
			"--risk", "read_only", "--output-kind", "hydration_packet", "--enough", "every credential setting is hydrated")
		stream := run(t, &out, rtchzone.Tool(), intake)
		stream = run(t, &out, rtchscout.Tool(), stream)
		stream = run(t, &out, rtchprobe.Tool(), stream)
		stream = run(t, &out, rtchhydrate.Tool(), stream)
		run(t, &out, rtchpacket.Tool(), stream)
		for _, format := range []string{"json", "yaml", "md"} {
			run(t, &out, rtchpacket.Tool(), stream, "--format", format)
		}
		run(t, &out, rtchpacket.Tool(), stream, "--persist", "-o", "packet.ndjson")
		run(t, &out, guildbundle.Tool(), stream, "--plan", ".guild/plan/invoice-retries.md", "--all", "--run-id", "leak-run")
		run(t, &out, guildrecall.Tool(), nil, "--query", goal)
		run(t, &out, guildrecall.Tool(), nil, "--query", goal, "--json")
	}
	for _, f := range Files(secrets) {
		run(t, &out, rtchhydrate.Tool(), nil, "--reenter", f+":L1-L200")
	}
	run(t, &out, rtchhydrate.Tool(), nil, "--reenter", "keys/server.key:L10-L40")
	run(t, &out, guildrecall.Tool(), nil, "--query", "deploy credentials signing keys staging password CI token")
	all := append(out.Bytes(), writtenFiles(t, dir)...)

	if !bytes.Contains(all, []byte("[REDACTED:")) {
		t.Fatal("no redaction mark in any output: the secrets were never read")
	}
	leaked := Leaks(secrets, all)
	for _, s := range leaked {
		t.Errorf("secret %q from %s reaches the output", s.Name, s.File)
	}
	t.Logf("%d of %d planted secrets reach the output", len(leaked), len(secrets))
	if t.Failed() {
		os.WriteFile(filepath.Join(os.TempDir(), "noleak-output.txt"), all, 0o644)
	}
}

// TestNoSecretInDiagnostics plants secrets where diagnostics quote them (a
// frontmatter value guild-recall warns about, a configuration key every
// tool refuses) and fails when any reaches stderr or stdout; it also fails
// when the diagnostics stop quoting them (the test would then prove
// nothing).
func TestNoSecretInDiagnostics(t *testing.T) {
	dir := projectDir(t)
	secrets, err := DiagnosticFixture(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out bytes.Buffer
	run(t, &out, guildrecall.Tool(), nil, "--query", "deploy credentials rotate")
	run(t, &out, guildrecall.Tool(), nil, "--query", "deploy credentials rotate", "--json")
	run(t, &out, rtchintake.Tool(), nil, "--config", "config/broken.toml", "--goal", "deploy credentials")
	run(t, &out, rtchzone.Tool(), []byte{}, "--config", "config/broken.toml")
	for _, want := range []string{`importance "[REDACTED:github-pat]"`, `confidence "[REDACTED:gitlab-pat]"`, "unknown key [REDACTED:github-pat]"} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("no diagnostic quoting a secret (%q) in\n%s", want, out.Bytes())
		}
	}
	for _, s := range Leaks(secrets, out.Bytes()) {
		t.Errorf("secret %q from %s reaches the output", s.Name, s.File)
	}
}

// projectDir is a temporary copy of the wiki-project fixture.
func projectDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../../testdata/fixtures/wiki-project")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Leaks returns the secrets any piece of which occurs in out, raw or as a
// JSON string would spell it.
func Leaks(secrets []Secret, out []byte) []Secret {
	var leaked []Secret
	for _, s := range secrets {
		for _, p := range s.Pieces {
			q, _ := json.Marshal(p)
			if bytes.Contains(out, []byte(p)) || bytes.Contains(out, q[1:len(q)-1]) {
				leaked = append(leaked, s)
				break
			}
		}
	}
	return leaked
}

// writtenFiles returns the contents of the files the tools wrote: persisted
// packets, -o files, bundles.
func writtenFiles(t *testing.T, dir string) []byte {
	var b []byte
	for _, sub := range []string{"audit-logs", ".guild/context", "packet.ndjson"} {
		filepath.WalkDir(filepath.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				b = append(append(b, "== file "+p+"\n"...), data...)
			}
			return nil
		})
	}
	if len(b) == 0 {
		t.Fatal("the tools wrote no file (persist, -o, bundles)")
	}
	return b
}

// TestCountLeaksOfBinaries runs the same check against built binaries
// named by RTCH_LEAK_BIN (a directory), to compare another build (e.g.
// main before this change) on the same fixture; it is skipped otherwise.
func TestCountLeaksOfBinaries(t *testing.T) {
	bin := os.Getenv("RTCH_LEAK_BIN")
	if bin == "" {
		t.Skip("set RTCH_LEAK_BIN to a directory of rtch binaries")
	}
	dir := projectDir(t)
	secrets, err := Fixture(dir)
	if err != nil {
		t.Fatal(err)
	}
	script := `set +e
for goal in "rotate the aws_secret_access_key and github_token in deploy config" "where are the password, api_key, client_secret and private_key settings read" "find the stripe, slack, sendgrid, twilio, mailgun and vault tokens in config and src"; do
  rtch-intake --goal "$goal" --profile mixed --fanout wide --risk read_only --output-kind hydration_packet --enough "every credential setting is hydrated" | rtch-zone | rtch-scout | rtch-probe | rtch-hydrate > s.ndjson
  cat s.ndjson
  for f in ndjson json yaml md; do rtch-packet --format $f < s.ndjson; done
  rtch-packet --persist < s.ndjson
  guild-bundle --plan .guild/plan/invoice-retries.md --all --run-id leak-run < s.ndjson
  guild-recall --query "$goal"
done
for f in ` + strings.Join(Files(secrets), " ") + `; do rtch-hydrate --reenter $f:L1-L200; done
rtch-hydrate --reenter keys/server.key:L10-L40
guild-recall --query "deploy credentials signing keys staging password CI token"
cat audit-logs/rtch/packets/* .guild/context/leak-run/* 2>/dev/null
`
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	all, _ := cmd.CombinedOutput()
	leaked := Leaks(secrets, all)
	for _, s := range leaked {
		t.Logf("leaks: %s (%s)", s.Name, s.File)
	}
	t.Logf("%s: %d of %d planted secrets reach the output (%d bytes of output)", bin, len(leaked), len(secrets), len(all))
}
