package clidoc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/toolset"
)

var page = Page{Version: "rtch v1.2.3", Date: "2026-12-04", SeeAlso: []string{"rtch-zone", "rtch-scout"}}

// TestEveryFlagIsDocumented fails when a flag one of the binaries accepts is
// missing from its man page or from any of its completions.
func TestEveryFlagIsDocumented(t *testing.T) {
	for _, tool := range toolset.All() {
		d := tool.Doc()
		if len(d.Flags) < 7 {
			t.Fatalf("%s: only %d flags documented; the shared ones alone are 7", d.Name, len(d.Flags))
		}
		man := Man(d, page)
		bash, zsh, fish := Bash(d), Zsh(d), Fish(d)
		for _, f := range d.Flags {
			for _, n := range f.Names {
				if !strings.Contains(man, `\fB`+escape(n)+`\fR`) {
					t.Errorf("%s: man page lacks %s", d.Name, n)
				}
				if !containsWord(bash, n) {
					t.Errorf("%s: bash completion lacks %s", d.Name, n)
				}
				if !strings.Contains(zsh, n) {
					t.Errorf("%s: zsh completion lacks %s", d.Name, n)
				}
				fishOpt := " -s " + strings.TrimPrefix(n, "-")
				if strings.HasPrefix(n, "--") {
					fishOpt = " -l " + n[2:]
				}
				if !strings.Contains(fish, fishOpt+" ") {
					t.Errorf("%s: fish completion lacks %s", d.Name, n)
				}
			}
		}
	}
}

func containsWord(s, w string) bool {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\'' || r == '|' || r == ')' || r == '\n' }) {
		if f == w {
			return true
		}
	}
	return false
}

// TestManPagesRender runs every page through groff with all warnings on:
// a stray control character or an unbalanced font change fails.
func TestManPagesRender(t *testing.T) {
	groff := lookTool(t, "groff")
	for _, tool := range toolset.All() {
		d := tool.Doc()
		cmd := exec.Command(groff, "-man", "-Tutf8", "-P-cbou", "-ww")
		cmd.Stdin = strings.NewReader(Man(d, page))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Fatalf("%s: groff: %v\n%s", d.Name, err, stderr.String())
		}
		text := strings.Join(strings.Fields(strings.ReplaceAll(string(out), "‐", "-")), " ")
		for _, want := range []string{d.Summary[:20], "EXIT STATUS", "--quiet", "130 interrupted"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: rendered page lacks %q", d.Name, want)
			}
		}
	}
}

func TestManEscapesControlLines(t *testing.T) {
	d := cli.Doc{Name: "x", Summary: "s", Usage: "x [flags]", Description: ".TH evil\n'also\nback\\slash\n\n  indented -o\n  block"}
	man := Man(d, page)
	for _, want := range []string{"\\&.TH evil\n", "\\&'also\n", "back\\eslash\n", ".nf\n.RS 4\nindented \\-o\nblock\n.RE\n.fi\n"} {
		if !strings.Contains(man, want) {
			t.Errorf("man page lacks %q:\n%s", want, man)
		}
	}
}

// TestBashCompletes sources each script in a real bash and asks it to
// complete a flag's prefix and a file flag's value.
func TestBashCompletes(t *testing.T) {
	bash := lookTool(t, "bash")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "intake.json"), nil, 0o644)
	for _, tool := range toolset.All() {
		d := tool.Doc()
		script := filepath.Join(dir, d.Name)
		os.WriteFile(script, []byte(Bash(d)), 0o644)
		fn := "_" + strings.ReplaceAll(d.Name, "-", "_")
		prog := `source "$1"; COMP_WORDS=("` + d.Name + `" --qui); COMP_CWORD=1; ` + fn + `; echo "${COMPREPLY[*]}";`
		want := "--quiet\n"
		if f := fileFlag(d); f != "" {
			prog += `COMP_WORDS=("` + d.Name + `" ` + f + ` int); COMP_CWORD=2; ` + fn + `; echo "${COMPREPLY[*]}"`
			want += "intake.json\n"
		}
		cmd := exec.Command(bash, "--norc", "-c", prog, "bash", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", d.Name, err, out)
		}
		if got := string(out); got != want {
			t.Errorf("%s: bash completed %q, want %q", d.Name, got, want)
		}
	}
}

// TestZshCompletionsParse checks each function with zsh's parser.
func TestZshCompletionsParse(t *testing.T) {
	zsh := lookTool(t, "zsh")
	for _, tool := range toolset.All() {
		d := tool.Doc()
		cmd := exec.Command(zsh, "-n", "-c", Zsh(d))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: zsh -n: %v\n%s", d.Name, err, out)
		}
	}
}

// TestFishCompletes loads each script into a real fish and asks it for the
// completions of a flag's prefix.
func TestFishCompletes(t *testing.T) {
	fish := lookTool(t, "fish")
	dir := t.TempDir()
	for _, tool := range toolset.All() {
		d := tool.Doc()
		script := filepath.Join(dir, d.Name+".fish")
		os.WriteFile(script, []byte(Fish(d)), 0o644)
		cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C "`+d.Name+` --qui"`, script)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", d.Name, err, out)
		}
		if !strings.HasPrefix(string(out), "--quiet\t") {
			t.Errorf("%s: fish completed %q, want --quiet with its description", d.Name, out)
		}
	}
}

func lookTool(t *testing.T, name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (.ci/run installs it): %v", name, err)
	}
	return p
}

// fileFlag is the long name of d's first flag that takes a FILE ("" when
// it has none: rtch-mcp takes directories and addresses).
func fileFlag(d cli.Doc) string {
	for _, f := range d.Flags {
		if f.Arg == "FILE" {
			return f.Names[len(f.Names)-1]
		}
	}
	return ""
}
