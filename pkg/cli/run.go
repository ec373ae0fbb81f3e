package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/secret"
)

// Run parses args, wires the streams and runs the tool; it returns the exit code.
func Run(ctx context.Context, t *Tool, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Exec(ctx, t, Invocation{Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr}).Code
}

// Invocation is one run of a tool: what a process would get from its parent.
// A caller that runs tools in-process (rtch-mcp, pkg/pipeline) fills in Dir,
// Getenv and Progress instead of changing the process's own.
type Invocation struct {
	// Args are the command-line arguments after the tool's name.
	Args []string
	// Stdin, Stdout and Stderr are the standard streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Dir stands for the working directory when a tool looks for its zone or
	// project root and when -o is relative; "" is the process's working
	// directory. Other file arguments are opened as given, so a caller that
	// sets Dir passes them absolute.
	Dir string
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
	// Progress, when set, receives each progress line of long work (the text
	// of Env.Progressf) whether or not stderr is a terminal.
	Progress func(string)
	// Resident is what a long-lived host keeps between runs (a file listing,
	// open indexes); nil for a tool run as a process.
	Resident *Resident
}

// Result is how a run ended.
type Result struct {
	// Code is the exit code.
	Code int
	// Complete says the output was written whole: the run succeeded, or it
	// ended with a code after a complete stream (a gate code).
	Complete bool
}

// protocolFlag is the flag parser's error for -o or --jq.
var protocolFlag = regexp.MustCompile(`not defined: -(o|-?jq)$`)

// Exec runs the tool for one invocation and returns how it ended.
func Exec(ctx context.Context, t *Tool, inv Invocation) Result {
	args, stdin, stdout, stderr := inv.Args, inv.Stdin, inv.Stdout, inv.Stderr
	// Diagnostics quote file text too (a frontmatter value, a config key):
	// stderr passes the redactor, each write whole.
	stderrIsTerminal := isTerminal(stderr)
	stderr = secret.Diagnostics(stderr)
	getenv := inv.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var c commonFlags
	fs := t.newFlagSet(&c)
	diag := func(level, format string, a ...any) {
		fmt.Fprintf(stderr, "%s: %s: %s\n", t.Name, level, fmt.Sprintf(format, a...))
	}
	args, ok := t.takeVerb(args)
	if !ok {
		diag("error", "the first argument is the command: %s %s", t.Name, t.Verb)
		diag("hint", "usage: %s", firstLine(t.Usage))
		return Result{Code: t.usageCode()}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(stdout, t, fs)
			return Result{Code: ExitOK, Complete: true}
		}
		diag("error", "%v", err)
		switch {
		case t.Protocol && protocolFlag.MatchString(err.Error()):
			diag("hint", "%s speaks its protocol on standard output, which its client reads: -o would hold every reply back until the end and --jq would filter the protocol's messages", t.Name)
		case t.Protocol && strings.HasSuffix(err.Error(), "not defined: -config"):
			diag("hint", "every call of %s reads the served root's .rtch.toml (and .guild/config.toml): put the settings there", t.Name)
		default:
			diag("hint", "run '%s --help' for usage", t.Name)
		}
		return Result{Code: t.usageCode()}
	}
	if c.help {
		writeHelp(stdout, t, fs)
		return Result{Code: ExitOK, Complete: true}
	}
	if c.version {
		fmt.Fprintf(stdout, "%s %s\n", t.Name, VersionString())
		return Result{Code: ExitOK, Complete: true}
	}

	var filter record.Filter
	if c.jqExpr != "" {
		f, err := compileJQ(c.jqExpr)
		if err != nil {
			diag("error", "--jq: %v", err)
			return Result{Code: t.usageCode()}
		}
		filter = f
	}

	env := &Env{
		Tool:             t,
		Args:             fs.Args(),
		Stdin:            stdin,
		Stderr:           stderr,
		Quiet:            c.quiet,
		ConfigPath:       c.configPath,
		StderrIsTerminal: stderrIsTerminal,
		Getenv:           getenv,
		Dir:              inv.Dir,
		Resident:         inv.Resident,
		progress:         inv.Progress,
	}

	outArg, outPath := c.outPath, c.outPath
	if outPath != "" {
		outPath = env.Path(outPath)
		if err := refuseInputAsOutput(outPath, stdin, t); err != nil {
			diag("error", "%v", err)
			return Result{Code: t.usageCode()}
		}
	}

	switch t.Stdin {
	case StreamIn:
		if isTerminal(stdin) {
			diag("error", "no record stream on standard input")
			diag("hint", "pipe the previous stage into it, e.g. %s", firstLine(t.Example))
			return Result{Code: t.usageCode()}
		}
		env.In = record.NewReader(stdin, "stdin")
	case OptionalStream:
		if stdin != nil && !isTerminal(stdin) && !isEmptyDevice(stdin) {
			env.In = record.NewReader(stdin, "stdin")
		}
	}

	// Output goes to a buffered stdout, or to a pending file committed only when
	// the stream is complete.
	var (
		pending *atomicfile.Pending
		bw      *bufio.Writer
	)
	if outPath != "" {
		p, err := atomicfile.CreateIn(env.Dir, outArg, 0o644)
		if err != nil {
			diag("error", "-o %s: %v", outPath, err)
			return Result{Code: t.usageCode()}
		}
		pending = p
		bw = bufio.NewWriterSize(p, 256<<10)
	} else {
		bw = bufio.NewWriterSize(stdout, 64<<10)
	}
	// What this stage writes (records it emits, rendered text) passes the
	// secret redactor, line by line: the output boundary. Records passed
	// through were written by an upstream stage's boundary (or are the
	// user's own input) and go out as read, byte for byte (see
	// docs/decisions/protect.md, "Redaction").
	sw := secret.NewWriter(bw)
	env.Stdout = sw
	env.Out = record.NewWriter(sw, filter)
	env.Out.PassTo(sw.Passed())

	runErr := t.Run(ctx, env)
	flushErr := sw.Flush()
	if err := bw.Flush(); flushErr == nil {
		flushErr = err
	}

	code := exitCode(ctx, t, runErr)
	complete := runErr == nil
	var ee *ExitError
	if errors.As(runErr, &ee) && ee.Complete {
		complete = true
	}
	if flushErr != nil && runErr == nil {
		diag("error", "write: %v", flushErr)
		code, complete = ExitFailed, false
	}
	if pending != nil {
		if complete && code != ExitInterrupted {
			if err := pending.Commit(); err != nil {
				diag("error", "-o %s: %v", outPath, err)
				if code == ExitOK {
					code = ExitFailed
				}
			}
		}
		pending.Cleanup()
	}
	if runErr != nil {
		reportError(diag, runErr, code)
	}
	return Result{Code: code, Complete: complete && code != ExitInterrupted}
}

// takeVerb is args without the tool's verb, and whether they may go on:
// they open with the verb, or the tool has none, or they ask for help or
// the version.
func (t *Tool) takeVerb(args []string) ([]string, bool) {
	switch {
	case t.Verb == "":
		return args, true
	case len(args) > 0 && args[0] == t.Verb:
		return args[1:], true
	case len(args) > 0 && slices.Contains([]string{"-h", "-help", "--help", "-version", "--version"}, args[0]):
		return args, true
	}
	return args, false
}

func exitCode(ctx context.Context, t *Tool, err error) int {
	if err == nil {
		return ExitOK
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.usage {
			return t.usageCode()
		}
		return ee.Code
	}
	return ExitFailed
}

func reportError(diag func(level, format string, a ...any), err error, code int) {
	if code == ExitInterrupted {
		diag("error", "interrupted")
		return
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			diag("error", "%v", ee.Err)
		}
		if ee.Hint != "" {
			diag("hint", "%s", ee.Hint)
		}
		return
	}
	diag("error", "%v", err)
}

// refuseInputAsOutput rejects -o naming standard input's file or a file the tool
// reads.
func refuseInputAsOutput(out string, stdin io.Reader, t *Tool) error {
	ost, err := os.Stat(out)
	if err != nil {
		return nil // a new file cannot be an input
	}
	if f, ok := stdin.(*os.File); ok {
		if ist, err := f.Stat(); err == nil && os.SameFile(ist, ost) {
			return fmt.Errorf("-o %s is also the standard input; refusing to overwrite an input", out)
		}
	}
	if t.Inputs != nil {
		for _, in := range t.Inputs() {
			if ist, err := os.Stat(in); err == nil && os.SameFile(ist, ost) {
				return fmt.Errorf("-o %s is also the input %s; refusing to overwrite an input", out, in)
			}
		}
	}
	return nil
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0 && st.Mode()&os.ModeDevice != 0 && !isDevNull(st)
}

// isEmptyDevice reports whether stdin is /dev/null or otherwise a character
// device that is not a terminal (treated as "no stream").
func isEmptyDevice(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return v == nil
	}
	st, err := f.Stat()
	if err != nil {
		return true
	}
	return isDevNull(st)
}

func isDevNull(st os.FileInfo) bool {
	nst, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(st, nst)
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
