package docs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

// faqRoot stands for the temporary tree in the FAQ's messages.
const faqRoot = "/src/project"

// run runs tool in process in dir and returns its stderr, the directory
// spelt as faqRoot.
func run(t *testing.T, tool *cli.Tool, dir string, stdin []byte, args ...string) (stdout []byte, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cli.Exec(context.Background(), tool, cli.Invocation{Args: args, Stdin: bytes.NewReader(stdin),
		Stdout: &out, Stderr: &errb, Dir: dir, Getenv: func(string) string { return "" }})
	return out.Bytes(), strings.ReplaceAll(errb.String(), dir, faqRoot)
}

func write(t *testing.T, dir, rel, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyFixture copies testdata/fixtures/NAME into a temporary directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "fixtures", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// faqDiagnostics runs the situations the FAQ describes and returns every
// diagnostic line the tools print in them.
func faqDiagnostics(t *testing.T) string {
	var all strings.Builder

	sample := copyFixture(t, "sample")
	intake, _ := run(t, rtchintake.Tool(), sample, nil, "--goal", "the router state", "--profile", "code_path",
		"--fanout", "normal", "--risk", "read_only", "--output-kind", "hydration_packet", "--enough", "x")
	zone, _ := run(t, rtchzone.Tool(), sample, intake)
	_, scoutErr := run(t, rtchscout.Tool(), sample, zone, "--no-index")
	all.WriteString(scoutErr)

	gated := t.TempDir()
	write(t, gated, "audit-logs/decisions.jsonl", `{"id":"ADR-7","title":"retries","status":"draft"}`+"\n")
	write(t, gated, "audit-logs/corrections.jsonl", `{"type":"record_correction","correction_id":"c1","target_record_id":"ADR-7","target_surface":"audit-logs/decisions.jsonl","patch":{"status":"accepted"},"supersedes":[],"lifecycle_state":"authorized","effective_at":"2024-05-01T00:00:00Z"}`+"\n")
	_, corrected := run(t, rtchzone.Tool(), gated, nil, "--gate-only")
	all.WriteString(corrected)
	write(t, gated, "audit-logs/corrections.jsonl", `{"type":"record_correction","correction_id":"c1","target_record_id":"ADR-7","target_surface":"audit-logs/decisions.jsonl","patch":{"status":"accepted"},"supersedes":[],"lifecycle_state":"authorized","effective_at":"2024-05-01T00:00:00Z"}`+"\n"+
		`{"type":"record_correction","correction_id":"c2","target_record_id":"ADR-9","target_surface":"audit-logs/decisions.jsonl","patch":{"status":"accepted"},"supersedes":[],"lifecycle_state":"authorized","effective_at":"2024-05-01T00:00:00Z"}`+"\n")
	_, blocked := run(t, rtchzone.Tool(), gated, nil, "--gate-only")
	all.WriteString(blocked)

	badConfig := t.TempDir()
	write(t, badConfig, ".rtch.toml", "[hydrate]\nwindw = 3\n")
	_, configErr := run(t, rtchzone.Tool(), badConfig, nil, "--gate-only")
	all.WriteString(configErr)

	badGuild := t.TempDir()
	write(t, badGuild, ".guild/config.toml", "[caps]\nchunk_tokenz = 3\n")
	_, guildErr := run(t, guildrecall.Tool(), badGuild, nil, "--cwd", badGuild, "--query", "retries")
	all.WriteString(guildErr)

	wiki := copyFixture(t, "wiki-project")
	_, bundleErr := run(t, guildbundle.Tool(), wiki, nil, "--cwd", wiki, "--plan", filepath.Join(wiki, ".guild", "plan", "invoice-retries.md"),
		"--all", "--run-id", "run-2026-11-30")
	all.WriteString(bundleErr)
	return all.String()
}

// TestFAQQuotesWhatToolsPrint fails when a diagnostic the FAQ or the guide
// quotes is not what the tool prints in the situation they describe.
func TestFAQQuotesWhatToolsPrint(t *testing.T) {
	var quoted []string
	for _, page := range []string{"faq.md", "guide.md"} {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		quoted = append(quoted, regexp.MustCompile(`(?m)^(?:rtch|guild)-[a-z]+: (?:warning|error): .*$`).FindAllString(string(text), -1)...)
	}
	if len(quoted) < 6 {
		t.Fatalf("faq.md and guide.md quote %d diagnostics, want every one of their situations", len(quoted))
	}
	printed := faqDiagnostics(t)
	for _, q := range quoted {
		if !strings.Contains(printed, q+"\n") {
			t.Errorf("faq.md quotes %q, which no tool printed; they printed:\n%s", q, printed)
		}
	}
}
