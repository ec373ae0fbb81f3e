// Command dist makes what the toolkit ships besides its binaries, and the
// release archives that hold them all:
//
//	go run ./build/dist docs --out DIR
//	go run ./build/dist release --version v1.2.3 --out DIR
//
// docs writes DIR/man/man1/<tool>.1 and DIR/completions/{bash,zsh,fish}/…
// for every binary, generated from its flag definitions (pkg/clidoc).
// release cross-compiles every binary for each platform and writes one
// archive per platform (tar.gz, zip for windows) holding the binaries, the
// man pages, the completions, LICENSE and README.md, plus a SHA-256
// checksums file. The same commit gives the same bytes: builds use
// -trimpath and no build id, every archive entry carries the commit's time,
// and entries are written in a fixed order (docs/decisions/release.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

const usage = `usage: dist docs --out DIR [--version V] [--date YYYY-MM-DD]
       dist release --version vX.Y.Z --out DIR [--platforms os/arch,…] [--packages ./cmd/...]

docs writes the man pages and shell completions of every binary into DIR.
release builds every binary for each platform (default: linux, darwin and
windows on amd64 and arm64) and writes the archives and a checksums file
into DIR, which must not hold an earlier release's files.

The commit time (git log -1 HEAD, or $SOURCE_DATE_EPOCH) stamps the
binaries' build time, the man pages' date and every archive entry.

Exit codes: 0 ok, 1 failed, 2 usage.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, stdout)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "dist: error: %v\ndist: hint: dist --help lists the commands\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "dist: error: %v\n", err)
	return 1
}

type usageError struct{ error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func dispatch(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usagef("name a command: docs or release")
	}
	fs := flag.NewFlagSet("dist "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o releaseOptions
	var platforms string
	fs.StringVar(&o.out, "out", "", "")
	fs.StringVar(&o.version, "version", "", "")
	fs.StringVar(&o.date, "date", "", "")
	fs.StringVar(&platforms, "platforms", strings.Join(defaultPlatforms, ","), "")
	fs.StringVar(&o.packages, "packages", "./cmd/...", "")
	switch args[0] {
	case "docs", "release":
	case "-h", "--help", "help":
		return flag.ErrHelp
	default:
		return usagef("unknown command %q", args[0])
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if o.out == "" {
		return usagef("--out DIR is required")
	}
	when, err := commitTime()
	if err != nil {
		return err
	}
	o.when = when
	if o.date == "" {
		o.date = when.Format("2006-01-02")
	}
	if args[0] == "docs" {
		if o.version == "" {
			o.version = "(devel)"
		}
		return writeDocs(o.out, o.version, o.date)
	}
	o.platforms = strings.Split(platforms, ",")
	if err := checkRelease(&o); err != nil {
		return err
	}
	return release(ctx, o, stdout)
}
