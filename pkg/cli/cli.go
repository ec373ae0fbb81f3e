// Package cli is the command framework shared by every rtch and guild binary: flag
// parsing with the common flags (-h/--help, --version, --jq, -o, --config,
// -q/--quiet), diagnostics on stderr as "tool: error|warning|hint: …", exit codes,
// atomic -o output, interrupt handling and the record stream plumbing.
//
// A command is a Tool value; its Run function gets an *Env and returns an error.
// The error decides the exit code: nil is 0, a *ExitError carries its own code,
// a usage or configuration problem is 2 (see Usage), an interrupt is 130, and
// anything else is 1.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/internal/hugeheap"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/secret"
)

// Exit codes shared by every binary.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// StdinMode says how a tool uses standard input.
type StdinMode int

const (
	// NoStdin: the tool never reads standard input.
	NoStdin StdinMode = iota
	// StreamIn: the tool needs a record stream on stdin (a terminal gets a hint
	// and exit 2).
	StreamIn
	// OptionalStream: the tool reads a record stream when stdin is not a terminal
	// and works from flags alone otherwise.
	OptionalStream
)

// Tool describes one binary.
type Tool struct {
	// Name is the binary name, e.g. "rtch-zone".
	Name string
	// Summary is a one-line description.
	Summary string
	// Usage is the synopsis line(s) after "usage: ".
	Usage string
	// Verb, when set, is the word that must open the arguments ("ask" of
	// `rtch ask …`): the flags and arguments follow it. Help and version
	// need none.
	Verb string
	// Description is free text shown after the synopsis.
	Description string
	// Example is a real pipeline example.
	Example string
	// ExitCodes lists tool-specific exit codes beyond 0/1/2/130, e.g.
	// {"3", "gate status corrected (--gate-only)"}.
	ExitCodes [][2]string
	// BaseExitCodes, when set, replace the standard 0/1/2 lines of --help for a
	// tool whose codes differ from the toolkit's (guild-lint).
	BaseExitCodes [][2]string
	// ConfigFile names the configuration file --config replaces in the help
	// text; default ".rtch.toml at the zone root".
	ConfigFile string
	// UsageExitCode, when non-zero, is the exit code of a usage error (bad
	// flags, Usage errors) instead of 2.
	UsageExitCode int
	// Stdin says how the tool uses standard input.
	Stdin StdinMode
	// NoRecords marks tools whose stdout is not a record stream (guild-lint
	// prints verdict objects); --jq then filters those objects the same way.
	NoRecords bool
	// Protocol marks a tool whose standard output is a protocol its client
	// reads (rtch-mcp): it has no --jq and no -o, which would filter the
	// protocol's messages or hold every reply back until the end, and no
	// --config: every call reads the served root's own configuration.
	Protocol bool
	// Flags registers the tool's own flags.
	Flags func(fs *flag.FlagSet)
	// Inputs returns files named by flags that the tool reads, so -o may refuse
	// to overwrite one of them. Called after flag parsing; may be nil.
	Inputs func() []string
	// Run does the work.
	Run func(ctx context.Context, env *Env) error
	// HugeHeap is about what the tool's heap grows to in a run, in bytes:
	// Main backs that much of it with huge pages (pkg/internal/hugeheap),
	// worth it for a stage whose heap grows to tens of megabytes; 0 for
	// none.
	HugeHeap int
}

// Env is what Run works with.
type Env struct {
	// Tool is the running tool.
	Tool *Tool
	// Args are the positional arguments after the flags.
	Args []string
	// Stdin is standard input; In is non-nil when a record stream is to be read.
	Stdin io.Reader
	In    *record.Reader
	// Out writes records (pass-through and emitted); Stdout is the same
	// destination for tools that print something else.
	Out    *record.Writer
	Stdout io.Writer
	// Stderr receives diagnostics.
	Stderr io.Writer
	// Quiet silences warnings, hints and progress (never errors).
	Quiet bool
	// ConfigPath is the --config value ("" when not given).
	ConfigPath string
	// StderrIsTerminal tells whether progress may be shown.
	StderrIsTerminal bool
	// Getenv reads the environment.
	Getenv func(string) string
	// Dir stands for the working directory ("" is the process's): where a tool
	// starts looking for its zone or project root (Invocation.Dir).
	Dir string
	// Resident is what an in-process host keeps between runs (nil from a
	// shell): Invocation.Resident.
	Resident *Resident
	// progress relays progress lines to an in-process caller.
	progress func(string)
}

// Path resolves a relative file name against Dir.
func (e *Env) Path(name string) string {
	if e.Dir == "" || name == "" || name == "-" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(e.Dir, name)
}

// Warnf prints "tool: warning: …" unless quiet.
func (e *Env) Warnf(format string, args ...any) {
	if !e.Quiet {
		fmt.Fprintf(e.Stderr, "%s: warning: %s\n", e.Tool.Name, fmt.Sprintf(format, args...))
	}
}

// Hintf prints "tool: hint: …" unless quiet.
func (e *Env) Hintf(format string, args ...any) {
	if !e.Quiet {
		fmt.Fprintf(e.Stderr, "%s: hint: %s\n", e.Tool.Name, fmt.Sprintf(format, args...))
	}
}

// Progressf prints a progress line ("\r"-terminated) only when stderr is a
// terminal and not quiet, and hands it to the invocation's Progress hook when
// there is one.
func (e *Env) Progressf(format string, args ...any) {
	if e.progress != nil {
		e.progress(secret.String(e.Tool.Name + ": " + fmt.Sprintf(format, args...)))
	}
	if e.StderrIsTerminal && !e.Quiet {
		fmt.Fprintf(e.Stderr, "\r%s: %s\033[K", e.Tool.Name, fmt.Sprintf(format, args...))
	}
}

// ProgressDone ends a progress line.
func (e *Env) ProgressDone() {
	if e.StderrIsTerminal && !e.Quiet {
		fmt.Fprint(e.Stderr, "\r\033[K")
	}
}

// LoadConfig loads .rtch.toml: --config if given, else root/.rtch.toml if
// present. Errors are usage errors (exit 2) naming the file and key.
func (e *Env) LoadConfig(root string) (*config.Config, string, error) {
	c, path, err := config.Load(e.ConfigPath, root)
	if err != nil {
		return nil, "", Usage("%v", err)
	}
	return c, path, nil
}

// Each reads the input record stream, passes every record through unchanged and
// calls fn for each one after it has been written. It returns nil at the end of
// input and does nothing when there is no stream.
func (e *Env) Each(fn func(l record.Line) error) error {
	if e.In == nil {
		return nil
	}
	for {
		l, err := e.In.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var se *record.SyntaxError
			if errors.As(err, &se) {
				return Failed(err)
			}
			return err
		}
		if err := e.Out.Pass(l); err != nil {
			return err
		}
		if fn != nil {
			if err := fn(l); err != nil {
				return err
			}
		}
	}
}

// ExitError carries an exit code. Complete says the output stream was written
// whole (a gate code after a full stream), so -o still commits the file.
type ExitError struct {
	Code     int
	Err      error
	Complete bool
	// Hint, when set, is printed as "tool: hint: …" after the error.
	Hint string
	// usage marks errors made by Usage and UsageHint.
	usage bool
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Usage is a usage, configuration or missing-input error: exit 2 (or the tool's
// UsageExitCode), nothing done.
func Usage(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...), usage: true}
}

// UsageHint is Usage with a hint line.
func UsageHint(hint, format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...), Hint: hint, usage: true}
}

// usageCode is the exit code of a usage error for t.
func (t *Tool) usageCode() int {
	if t.UsageExitCode != 0 {
		return t.UsageExitCode
	}
	return ExitUsage
}

// Failed wraps err as a run failure (exit 1).
func Failed(err error) error { return &ExitError{Code: ExitFailed, Err: err} }

// Code ends the run with code after a complete output stream; err (may be nil)
// is printed as an error line.
func Code(code int, err error) error { return &ExitError{Code: code, Err: err, Complete: true} }

// Main runs the tool with the process's arguments and standard streams and
// returns the exit code.
func Main(t *Tool) int {
	if t.HugeHeap > 0 {
		hugeheap.Prepare(t.HugeHeap)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, t, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// writeHelp prints the help text: synopsis, description, flags, example and exit
// codes, from the same Doc the man pages and completions are made of.
func writeHelp(w io.Writer, t *Tool, fs *flag.FlagSet) {
	d := docOf(t, fs)
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s\n\nusage: %s\n", d.Name, d.Summary, d.Usage)
	if d.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", d.Description)
	}
	b.WriteString("\nflags:\n")
	for _, f := range d.Flags {
		label := strings.Join(f.Names, ", ")
		if f.Arg != "" {
			label += " " + f.Arg
		}
		def := ""
		if f.Default != "" {
			def = fmt.Sprintf(" (default %s)", f.Default)
		}
		fmt.Fprintf(&b, "  %-28s %s%s\n", label, f.Usage, def)
	}
	if d.Example != "" {
		fmt.Fprintf(&b, "\nexample:\n%s\n", indent(d.Example))
	}
	b.WriteString("\nexit codes:\n")
	for _, c := range d.ExitCodes {
		fmt.Fprintf(&b, "  %-4s %s\n", c[0], c[1])
	}
	io.WriteString(w, b.String())
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}
