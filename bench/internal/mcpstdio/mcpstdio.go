// Package mcpstdio starts a built rtch-mcp on pipes with an SDK client, as
// a harness does, for the commands under bench/ that measure it.
package mcpstdio

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is a running rtch-mcp and the client's session to it.
type Server struct {
	Cmd *exec.Cmd
	CS  *mcp.ClientSession
}

// Start runs bin/rtch-mcp with args and env added to the process's, hands
// its stdout to the client through tap (which may read it as it arrives)
// and connects the client, named name.
func Start(bin, name string, args, env []string, tap func(io.Reader) io.Reader) (*Server, error) {
	cmd := exec.Command(filepath.Join(bin, "rtch-mcp"), args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "0"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(tap(stdout)), Writer: stdin}, nil)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, err
	}
	return &Server{Cmd: cmd, CS: cs}, nil
}

// Close ends the session and waits for the server to exit.
func (s *Server) Close() {
	s.CS.Close()
	s.Cmd.Wait()
}
