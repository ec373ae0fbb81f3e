// Package mcpserver starts the built rtch-mcp on a tree for a benchmark
// and asks it rtch_context questions over stdio through the SDK's client,
// timing each one: the client's wall time and the server's CPU across it
// (bench/internal/timing.ProcessCPU).
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/bench/internal/timing"
)

// Epoch pins the packets' generated_at, so that two servers' briefs can be
// compared byte for byte.
const Epoch = "1767225600"

// Enough is the questions' halting definition.
const Enough = "the bench is done"

// Server is one rtch-mcp under test.
type Server struct {
	cs      *mcp.ClientSession
	cmd     *exec.Cmd
	Started time.Time
}

// Start runs bin/rtch-mcp --root root with flags and connects to it.
func Start(bin, root string, flags ...string) (*Server, error) {
	cmd := exec.Command(filepath.Join(bin, "rtch-mcp"), append([]string{"--root", root}, flags...)...)
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+Epoch)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "rtch-bench", Version: "0"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, err
	}
	return &Server{cs: cs, cmd: cmd, Started: started}, nil
}

// Close ends the session and waits for the server to exit.
func (s *Server) Close() {
	s.cs.Close()
	s.cmd.Wait()
}

// PID is the server's process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// ToolError is an rtch_context call answered with isError: the call ran,
// and its time is measured.
type ToolError struct{ Text string }

func (e *ToolError) Error() string { return "rtch_context: " + e.Text }

// Ask is one rtch_context call with goal, in the md format: its wall and
// CPU time and the brief; a *ToolError with both when the tool answered
// with an error.
func (s *Server) Ask(goal string) (timing.Sample, string, error) {
	pid := s.PID()
	c0 := timing.ProcessCPU(pid)
	t0 := time.Now()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rtch_context",
		Arguments: map[string]any{"goal": goal, "enough": Enough}})
	wall := time.Since(t0).Seconds()
	if err != nil {
		return timing.Sample{}, "", err
	}
	x := timing.Sample{Wall: wall, CPU: timing.ProcessCPU(pid) - c0}
	if len(res.Content) == 0 {
		return x, "", errors.New("rtch_context: no content")
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return x, text, &ToolError{text}
	}
	return x, text, nil
}

// Memory is the server's peak and current resident size in MB (VmHWM,
// VmRSS).
func (s *Server) Memory() (peak, now float64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.PID()))
	if err != nil {
		return 0, 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		var kb float64
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			peak = kb / 1024
		}
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			now = kb / 1024
		}
	}
	return peak, now, nil
}
