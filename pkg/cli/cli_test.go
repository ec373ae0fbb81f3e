package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/record"
)

// echoTool passes the stream through and emits one record per --emit value; it
// fails with --fail after emitting.
func echoTool() *Tool {
	var emit Strings
	var fail string
	var code int
	return &Tool{
		Name:    "rtch-echo",
		Summary: "test tool",
		Usage:   "rtch-echo [flags] < stream",
		Example: "rtch-intake --goal x | rtch-echo",
		Stdin:   StreamIn,
		Flags: func(fs *flag.FlagSet) {
			fs.Var(&emit, "emit", "emit a record with this `NAME`")
			fs.StringVar(&fail, "fail", "", "fail with this message")
			fs.IntVar(&code, "code", 0, "end with this exit code after a complete stream")
		},
		Run: func(ctx context.Context, env *Env) error {
			if err := env.Each(nil); err != nil {
				return err
			}
			for _, n := range emit {
				if err := env.Out.Emit(struct {
					record.Envelope
					Name string `json:"name"`
				}{record.Env("test.echo", 1, n), n}); err != nil {
					return err
				}
			}
			if fail != "" {
				return errors.New(fail)
			}
			if code != 0 {
				return Code(code, errors.New("gate says so"))
			}
			return nil
		},
	}
}

func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), echoTool(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := run(t, "", "--help")
	if code != 0 || !strings.Contains(out, "usage: rtch-echo") || !strings.Contains(out, "130  interrupted") || !strings.Contains(out, "rtch-intake --goal x | rtch-echo") || !strings.Contains(out, "--emit NAME") {
		t.Fatalf("help: %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "-h")
	if code != 0 || !strings.HasPrefix(out, "rtch-echo — test tool") {
		t.Fatalf("-h: %d %q", code, out)
	}
	code, out, _ = run(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "rtch-echo ") {
		t.Fatalf("version: %d %q", code, out)
	}
}

func TestBadFlagIsUsage(t *testing.T) {
	code, out, errs := run(t, "", "--nope")
	if code != ExitUsage || out != "" || !strings.Contains(errs, "rtch-echo: error: flag provided but not defined: -nope") || !strings.Contains(errs, "rtch-echo: hint: run 'rtch-echo --help'") {
		t.Fatalf("%d %q %q", code, out, errs)
	}
}

// A protocol tool has no -o and no --jq: both are refused, saying why, and
// its help does not offer them.
func TestProtocolToolRefusesOutputFlags(t *testing.T) {
	tl := echoTool()
	tl.Protocol = true
	for _, args := range [][]string{{"-o", "x"}, {"--jq", "."}, {"-jq", "."}} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), tl, args, strings.NewReader(""), &out, &errb)
		if code != ExitUsage || out.Len() != 0 || !strings.Contains(errb.String(), "rtch-echo: hint: rtch-echo speaks its protocol on standard output") {
			t.Errorf("%v: %d %q", args, code, errb.String())
		}
	}
	var help bytes.Buffer
	Run(context.Background(), tl, []string{"--help"}, nil, &help, &bytes.Buffer{})
	if strings.Contains(help.String(), "--jq") || strings.Contains(help.String(), "-o FILE") {
		t.Fatalf("help offers -o or --jq:\n%s", help.String())
	}
}

func TestPassThroughThenEmit(t *testing.T) {
	in := "{\"b\":1,\"kind\":\"up\",\"n\":12345678901234567890}\n"
	code, out, errs := run(t, in, "--emit", "a")
	if code != 0 || errs != "" {
		t.Fatalf("%d %q", code, errs)
	}
	want := in + `{"kind":"test.echo","v":1,"id":"` + record.ID("test.echo", "a") + `","name":"a"}` + "\n"
	if out != want {
		t.Fatalf("got %q", out)
	}
}

func TestMalformedLineFails(t *testing.T) {
	code, _, errs := run(t, "{\"kind\":\"a\"}\nnope\n")
	if code != ExitFailed || !strings.Contains(errs, "rtch-echo: error: stdin:2: malformed record") {
		t.Fatalf("%d %q", code, errs)
	}
}

func TestJQFilter(t *testing.T) {
	code, out, _ := run(t, "{\"kind\":\"up\"}\n", "--emit", "a", "--emit", "b", "--jq", `.name == "b"`)
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"name":"b"`) || strings.Contains(out, `"name":"a"`) {
		t.Fatalf("%d %q", code, out)
	}
	code, _, errs := run(t, "", "--jq", ".[")
	if code != ExitUsage || !strings.Contains(errs, "--jq") {
		t.Fatalf("bad jq: %d %q", code, errs)
	}
}

func TestOutputAtomic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.ndjson")
	code, stdout, _ := run(t, "", "--emit", "a", "-o", out)
	if code != 0 || stdout != "" {
		t.Fatalf("%d %q", code, stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), `"name":"a"`) {
		t.Fatalf("%v %q", err, b)
	}
	// A failure leaves the old file and no temp file behind.
	code, _, _ = run(t, "", "--emit", "b", "--fail", "boom", "-o", out)
	if code != ExitFailed {
		t.Fatalf("code %d", code)
	}
	b2, _ := os.ReadFile(out)
	if !bytes.Equal(b, b2) {
		t.Fatal("failed run replaced the output")
	}
	fresh := filepath.Join(dir, "fresh.ndjson")
	run(t, "", "--emit", "b", "--fail", "boom", "-o", fresh)
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Fatal("failed run created the output")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("stray files: %v", ents)
	}
	// A complete stream with a gate code still commits the file.
	gated := filepath.Join(dir, "gated.ndjson")
	code, _, errs := run(t, "", "--emit", "c", "--code", "3", "-o", gated)
	if code != 3 || !strings.Contains(errs, "gate says so") {
		t.Fatalf("%d %q", code, errs)
	}
	if _, err := os.Stat(gated); err != nil {
		t.Fatal("complete stream with gate code not written")
	}
}

func TestRefuseInputAsOutput(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "in.ndjson")
	if err := os.WriteFile(p, []byte("{\"kind\":\"a\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(p)
	defer f.Close()
	var out, errb bytes.Buffer
	code := Run(context.Background(), echoTool(), []string{"-o", p}, f, &out, &errb)
	if code != ExitUsage || !strings.Contains(errb.String(), "refusing to overwrite an input") {
		t.Fatalf("%d %q", code, errb.String())
	}
	b, _ := os.ReadFile(p)
	if string(b) != "{\"kind\":\"a\"}\n" {
		t.Fatal("input changed")
	}
}

func TestInterruptedIs130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tool := echoTool()
	tool.Run = func(ctx context.Context, env *Env) error { return ctx.Err() }
	var out, errb bytes.Buffer
	if code := Run(ctx, tool, nil, strings.NewReader(""), &out, &errb); code != ExitInterrupted {
		t.Fatalf("code %d", code)
	}
}

func TestConfigUnknownKey(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.toml")
	os.WriteFile(p, []byte("[walk]\nmax_file_size = 10\nbogus = 1\n"), 0o644)
	tool := echoTool()
	tool.Run = func(ctx context.Context, env *Env) error {
		_, _, err := env.LoadConfig(dir)
		return err
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), tool, []string{"--config", p}, strings.NewReader(""), &out, &errb)
	if code != ExitUsage || !strings.Contains(errb.String(), "c.toml: unknown key walk.bogus") {
		t.Fatalf("%d %q", code, errb.String())
	}
}

func TestToolUsageCodeAndBaseExitCodes(t *testing.T) {
	tool := echoTool()
	tool.UsageExitCode = 1
	tool.BaseExitCodes = [][2]string{{"0", "all pass"}, {"1", "usage"}, {"2", "a check fails"}}
	var out, errb bytes.Buffer
	if code := Run(context.Background(), tool, []string{"--nope"}, strings.NewReader(""), &out, &errb); code != 1 {
		t.Fatalf("bad flag: code %d", code)
	}
	tool.Run = func(ctx context.Context, env *Env) error { return Usage("no input named") }
	if code := Run(context.Background(), tool, nil, strings.NewReader(""), &out, &errb); code != 1 {
		t.Fatalf("Usage error: code %d", code)
	}
	tool.Run = func(ctx context.Context, env *Env) error { return Code(2, nil) }
	if code := Run(context.Background(), tool, nil, strings.NewReader(""), &out, &errb); code != 2 {
		t.Fatalf("Code(2) must stay 2: code %d", code)
	}
	out.Reset()
	Run(context.Background(), tool, []string{"--help"}, strings.NewReader(""), &out, &errb)
	if !strings.Contains(out.String(), "  2    a check fails\n") || strings.Contains(out.String(), "ran and failed") {
		t.Fatalf("help exit codes:\n%s", out.String())
	}
}

// --version names the revision and dirty flag when the build info has them,
// and the -ldflags variables win.
func TestVersionString(t *testing.T) {
	b := BuildInfo{Version: "v0.0.0-20261201195512-aeba2a6c1234+dirty", Revision: "aeba2a6c1234", Dirty: true, Time: "2026-12-01T19:55:12Z", Go: "go1.26.8"}
	if got, want := b.String(), "v0.0.0-20261201195512-aeba2a6c1234+dirty (revision aeba2a6c1234, dirty, 2026-12-01T19:55:12Z, go1.26.8)"; got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if got := (BuildInfo{Version: "(devel)", Go: "go1.26.8"}).String(); !strings.Contains(got, "no VCS revision stamped") {
		t.Fatalf("unstamped: %q", got)
	}
	Version, Revision, BuildTime = "v1.2.3", "abc", "2026-12-01T20:00:00Z"
	defer func() { Version, Revision, BuildTime = "", "", "" }()
	if got := ReadBuildInfo(); got.Version != "v1.2.3" || got.Revision != "abc" || got.Time != "2026-12-01T20:00:00Z" {
		t.Fatalf("ldflags override: %+v", got)
	}
}

// Exec honours the invocation's directory for -o and relays progress.
func TestExecDirAndProgress(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	tool := echoTool()
	tool.Run = func(ctx context.Context, env *Env) error {
		env.Progressf("step %d/%d", 1, 2)
		return env.Out.Emit(struct {
			record.Envelope
		}{record.Env("test.echo", 1, "x")})
	}
	res := Exec(context.Background(), tool, Invocation{Args: []string{"-o", "out.ndjson"}, Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Dir: dir, Progress: func(s string) { lines = append(lines, s) }})
	if res.Code != 0 || !res.Complete {
		t.Fatalf("%+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.ndjson")); err != nil {
		t.Fatalf("-o relative to Dir: %v", err)
	}
	if len(lines) != 1 || lines[0] != "rtch-echo: step 1/2" {
		t.Fatalf("progress %q", lines)
	}
}

// A tool with a verb runs only when the verb opens its arguments; its
// flags follow the verb; help and version need none.
func TestVerbOpensTheArguments(t *testing.T) {
	var got []string
	var n int
	mk := func() *Tool {
		return &Tool{
			Name: "rtch", Verb: "ask", Summary: "s", Usage: "rtch ask [flags] QUESTION…", Stdin: NoStdin,
			Flags: func(fs *flag.FlagSet) { fs.IntVar(&n, "n", 0, "a number") },
			Run:   func(ctx context.Context, env *Env) error { got = env.Args; return nil },
		}
	}
	var out, errb bytes.Buffer
	if code := Run(context.Background(), mk(), []string{"ask", "-n", "3", "where", "is", "it"}, nil, &out, &errb); code != ExitOK || n != 3 || strings.Join(got, " ") != "where is it" {
		t.Fatalf("ask: %d n=%d args=%q %s", code, n, got, errb.String())
	}
	for _, args := range [][]string{{"where", "is", "it"}, {"-n", "3", "ask", "q"}, nil} {
		errb.Reset()
		code := Run(context.Background(), mk(), args, nil, &out, &errb)
		if code != ExitUsage || !strings.Contains(errb.String(), "rtch: error: the first argument is the command: rtch ask\nrtch: hint: usage: rtch ask [flags] QUESTION…\n") {
			t.Errorf("%q: %d %q", args, code, errb.String())
		}
	}
	for _, args := range [][]string{{"--help"}, {"-h"}, {"--version"}} {
		out.Reset()
		if code := Run(context.Background(), mk(), args, nil, &out, &errb); code != ExitOK || out.Len() == 0 {
			t.Errorf("%q: %d %q", args, code, out.String())
		}
	}
}
