package guildrecall

import (
	"bytes"
	"context"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/internal/fakepg"
)

// TestRepositoryDSNGetsNoCredential points a repository's index.dsn (and,
// for contrast, the user's own configuration) at real listening servers
// that ask for a cleartext password, and checks what each receives: a
// server the user did not allow is never contacted (exit 2, naming the key
// and the file), and no server a repository names receives the user's
// password unless the user said so.
func TestRepositoryDSNGetsNoCredential(t *testing.T) {
	for _, c := range fakepg.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			w := fakepg.Setup(t, c)
			var stdout, stderr bytes.Buffer
			res := cli.Exec(context.Background(), Tool(), cli.Invocation{Args: append(w.Args(), "--query", "retry budget"), Stdout: &stdout, Stderr: &stderr})
			if c.Refused() && res.Code != 2 {
				t.Errorf("refused with exit %d, want 2", res.Code)
			}
			w.Check(t, res.Code != 0, stderr.String())
		})
	}
}
