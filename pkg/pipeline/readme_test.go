package pipeline_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildlint"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchmcp"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
	"github.com/rtch/rtch/pkg/pipeline"
)

const readme = "../../README.md"

// The README's sample brief is generated: this test runs the pipeline on
// testdata/fixtures/sample and fails when the README shows anything else.
// make readme-sample (UPDATE_README=1) rewrites the block.
func TestReadmeSample(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "sample")
	if out, err := exec.Command("cp", "-r", "../../testdata/fixtures/sample", tree).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	args := []string{
		"--goal=find where the record stream reader reports malformed lines",
		"--profile=code_path", "--fanout=normal", "--risk=read_only", "--output-kind=hydration_packet",
		"--enough=the file and lines that implement it are hydrated",
	}
	var out bytes.Buffer
	stages := append(pipeline.Lane(args), pipeline.Packet("--format=md", "--now=2026-12-01T00:00:00Z"))
	noZoneEnv := func(k string) string {
		if k == "RTCH_ZONE_ROOT" {
			return ""
		}
		return os.Getenv(k)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Dir: tree, Getenv: noZoneEnv}, stages, nil, &out); err != nil {
		t.Fatal(err)
	}
	brief := out.String()
	if real, err := filepath.EvalSymlinks(tree); err == nil {
		brief = strings.ReplaceAll(brief, real, "sample")
	}
	brief = strings.ReplaceAll(brief, tree, "sample")
	want := sampleBlock(brief)

	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)(<!-- readme-sample[^\n]*-->\n)(.*?)(<!-- /readme-sample -->)")
	m := re.FindSubmatchIndex(text)
	if m == nil {
		t.Fatal("README.md has no <!-- readme-sample --> block")
	}
	got := string(text[m[4]:m[5]])
	if got == want {
		return
	}
	if os.Getenv("UPDATE_README") != "" {
		updated := string(text[:m[4]]) + want + string(text[m[5]:])
		if err := os.WriteFile(readme, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("README.md's sample brief is stale; run make readme-sample.\nwant:\n%s\ngot:\n%s", want, got)
}

// sampleBlock is the brief up to its first chunk's heading, fenced.
func sampleBlock(brief string) string {
	var b strings.Builder
	b.WriteString("```\n")
	for _, l := range strings.SplitAfter(brief, "\n") {
		b.WriteString(l)
		if strings.HasPrefix(l, "### ") {
			break
		}
	}
	b.WriteString("```\n")
	return b.String()
}

// The README names the Go version go.mod requires.
func TestReadmeNamesTheGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	text, _ := os.ReadFile(readme)
	if want := "Go " + string(m[1]) + " or newer"; !strings.Contains(string(text), want) {
		t.Fatalf("README.md does not say %q (go.mod's go line)", want)
	}
}

// One exit-code table is true for every tool: the README's table is the
// shared codes, and its exceptions name exactly the tools whose --help lists
// codes of their own, with the same codes.
func TestExitCodeTable(t *testing.T) {
	tools := []*cli.Tool{
		rtchintake.Tool(), rtchzone.Tool(), rtchscout.Tool(), rtchprobe.Tool(), rtchhydrate.Tool(),
		rtchpacket.Tool(), guildrecall.Tool(), guildbundle.Tool(), guildlint.Tool(), rtchmcp.Tool(),
	}
	text, _ := os.ReadFile(readme)
	sec := regexp.MustCompile(`(?s)## Exit codes\n(.*?)\n## `).FindSubmatch(text)
	if sec == nil {
		t.Fatal("README.md has no ## Exit codes section")
	}
	for _, row := range []string{"| 0 | ok |", "| 1 | ran and failed |", "| 2 | usage, configuration or missing input (nothing done) |", "| 130 | interrupted |"} {
		if !bytes.Contains(sec[1], []byte(row)) {
			t.Errorf("README exit-code table lacks %q", row)
		}
	}
	for _, tl := range tools {
		var help bytes.Buffer
		cli.Run(context.Background(), tl, []string{"--help"}, nil, &help, &bytes.Buffer{})
		codes := help.String()[strings.Index(help.String(), "\nexit codes:\n"):]
		own := len(tl.ExitCodes) > 0 || tl.BaseExitCodes != nil
		bullet := regexp.MustCompile("(?ms)^- `" + regexp.QuoteMeta(tl.Name) + "`:(.*?)(?:\n- |\n\n|\\z)").FindSubmatch(sec[1])
		if own != (bullet != nil) {
			t.Errorf("%s: codes of its own %v, an exception in the README %v\n%s", tl.Name, own, bullet != nil, codes)
			continue
		}
		for _, c := range append(append([][2]string{}, tl.BaseExitCodes...), tl.ExitCodes...) {
			if !regexp.MustCompile(`\b` + c[0] + `\b`).Match(bullet[1]) {
				t.Errorf("%s: exit code %s (%s) is not in the README's exceptions", tl.Name, c[0], c[1])
			}
		}
	}
}
