package rtchmcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/internal/fakepg"
)

// guild_recall holds a repository's index.dsn to the user's policy as the
// command line does: every case of guild-recall's credential test, through
// rtch-mcp started over stdio (this test binary under the name rtch-mcp,
// which TestMain runs as the server) on the project, with the user's
// environment.
func TestGuildRecallRepositoryDSNGetsNoCredential(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "rtch-mcp")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	for _, c := range fakepg.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if c.UserConfig() {
				t.Skip("rtch-mcp serves the project's own configuration; a --config file is the command line's")
			}
			w := fakepg.Setup(t, c)
			cmd := exec.Command(bin, "--root", w.Root, "--no-index")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "guild_recall", Arguments: map[string]any{"query": "retry budget"}})
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, ct := range res.Content {
				if tc, ok := ct.(*mcp.TextContent); ok {
					text.WriteString(tc.Text)
				}
			}
			w.Check(t, res.IsError, text.String())
		})
	}
}
