// Package pipeline runs command tools in one process, chained the way a shell
// pipes the binaries: each stage is the tool's own cli.Tool, so what a chain
// prints is what `rtch-intake … | rtch-zone | … | rtch-packet` prints, with no
// second copy of any stage's wiring. rtch-mcp serves its tools through it, and
// the test that holds rtch_context to the piped binaries uses the same Lane.
package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

// Stage is one tool of a chain and its arguments.
type Stage struct {
	Tool *cli.Tool
	Args []string
}

// Lane is the rtch lane up to the chunks: rtch-intake with intakeArgs, then
// rtch-zone, rtch-scout, rtch-probe and rtch-hydrate with none. Its output is
// the stream rtch-packet reads.
func Lane(intakeArgs []string) []Stage {
	return []Stage{
		{rtchintake.Tool(), intakeArgs},
		{rtchzone.Tool(), nil},
		{rtchscout.Tool(), nil},
		{rtchprobe.Tool(), nil},
		{rtchhydrate.Tool(), nil},
	}
}

// Packet is the rtch-packet stage with args (e.g. --format md).
func Packet(args ...string) Stage { return Stage{rtchpacket.Tool(), args} }

// PacketOn is the rtch-packet stage with args reading its stream through
// d (rtchpacket.ToolOn): stages given the same stream and d decode it once.
func PacketOn(d *rtchpacket.Decoded, args ...string) Stage {
	return Stage{rtchpacket.ToolOn(d), args}
}

// Options are what every stage of a chain shares.
type Options struct {
	// Dir stands for the working directory (cli.Invocation.Dir).
	Dir string
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
	// Progress, when set, hears every progress line the stages report, and
	// "tool: done (stage i/n)" as each stage ends.
	Progress func(string)
	// Resident is what the host keeps between chains (cli.Invocation.Resident).
	Resident *cli.Resident
	// First and Of number the progress lines of a chain that is part of a
	// longer one: its first stage is stage First+1 of Of. Of 0 numbers the
	// chain alone.
	First, Of int
}

// StageDone ends the progress line of a finished stage.
const StageDone = ")"

// DoneLine is the progress line of stage i (from 1) of n, tool, when it
// ended; note, when set, says more ("kept from an earlier call").
func DoneLine(tool string, i, n int, note string) string {
	if note != "" {
		note = ", " + note
	}
	return fmt.Sprintf("%s: done (stage %d/%d%s%s", tool, i, n, note, StageDone)
}

// StageError is a stage that ended with a non-zero code before its output was
// complete: the chain's failure. Stderr holds the stage's own diagnostics, the
// CLI's message word for word.
type StageError struct {
	Tool   string
	Code   int
	Stderr string
}

func (e *StageError) Error() string {
	if s := strings.TrimSpace(e.Stderr); s != "" {
		return s
	}
	return fmt.Sprintf("%s: exit %d", e.Tool, e.Code)
}

// Result is how a chain ended.
type Result struct {
	// Diagnostics are the stages' stderr lines, in stage order.
	Diagnostics string
	// Codes are the stages' exit codes, in stage order.
	Codes []int
}

// errUpstream ends a stage's input when the stage before it failed, as a shell
// pipe's reader sees the end of a dead writer.
var errUpstream = fmt.Errorf("the previous stage failed")

// Run runs the stages concurrently, the first reading stdin (nil for none),
// each later one reading its predecessor's output through an io.Pipe, the last
// writing to out. The error is ctx's when it was cancelled, else the first
// stage (in chain order) that failed with incomplete output, as a
// *StageError. A stage that ends with a code after a complete stream (a
// blocked gate) only adds its diagnostics, as in a shell pipeline without
// pipefail; a writer that fails after its reader ended only lost its pipe,
// which a shell's SIGPIPE ends quietly, and is not blamed either.
func Run(ctx context.Context, o Options, stages []Stage, stdin io.Reader, out io.Writer) (Result, error) {
	n := len(stages)
	type end struct {
		res   cli.Result
		order int
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		ended   = 0
		ends    = make([]end, n)
		stderrs = make([]bytes.Buffer, n)
		readers = make([]*io.PipeReader, n)
		writers = make([]*io.PipeWriter, n)
	)
	for i := 1; i < n; i++ {
		readers[i], writers[i-1] = io.Pipe()
	}
	stop := context.AfterFunc(ctx, func() {
		for i := range n {
			if readers[i] != nil {
				readers[i].CloseWithError(ctx.Err())
			}
			if writers[i] != nil {
				writers[i].CloseWithError(ctx.Err())
			}
		}
	})
	defer stop()
	for i, st := range stages {
		var in io.Reader = stdin
		if readers[i] != nil {
			in = readers[i]
		}
		var w io.Writer = out
		if writers[i] != nil {
			w = writers[i]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := cli.Exec(ctx, st.Tool, cli.Invocation{
				Args: st.Args, Stdin: in, Stdout: w, Stderr: &stderrs[i],
				Dir: o.Dir, Getenv: o.Getenv, Progress: o.Progress, Resident: o.Resident,
			})
			if o.Progress != nil {
				o.Progress(DoneLine(st.Tool.Name, o.First+i+1, max(o.Of, n), ""))
			}
			mu.Lock()
			ends[i] = end{res, ended}
			ended++
			mu.Unlock()
			if writers[i] != nil {
				if res.Complete {
					writers[i].Close()
				} else {
					writers[i].CloseWithError(errUpstream)
				}
			}
			if readers[i] != nil {
				// Nothing reads this stage's input any more: its writer's next
				// write fails, as on a closed shell pipe.
				readers[i].CloseWithError(io.ErrClosedPipe)
			}
		}()
	}
	wg.Wait()
	var r Result
	var diag strings.Builder
	var failed error
	for i := range n {
		diag.Write(stderrs[i].Bytes())
		r.Codes = append(r.Codes, ends[i].res.Code)
		if failed != nil || ends[i].res.Complete || ends[i].res.Code == cli.ExitOK {
			continue
		}
		if i+1 < n && ends[i+1].order < ends[i].order {
			continue // the reader ended first; the writer only lost its pipe
		}
		failed = &StageError{Tool: stages[i].Tool.Name, Code: ends[i].res.Code, Stderr: stderrs[i].String()}
	}
	r.Diagnostics = diag.String()
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	return r, failed
}
