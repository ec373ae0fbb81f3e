package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/pipeline"
)

// A stage that declines ends the chain with its own message, and the stages
// after it, reading a dead pipe, are not blamed.
func TestFirstFailingStageIsTheError(t *testing.T) {
	var out bytes.Buffer
	stages := append(pipeline.Lane([]string{"--goal= "}), pipeline.Packet("--format=md"))
	res, err := pipeline.Run(context.Background(), pipeline.Options{Dir: t.TempDir()}, stages, nil, &out)
	var se *pipeline.StageError
	if !errors.As(err, &se) || se.Tool != "rtch-intake" || se.Code != 2 {
		t.Fatalf("err %v (%#v)", err, se)
	}
	if !strings.HasPrefix(err.Error(), "rtch-intake: error: intake declined: missing ") {
		t.Fatalf("message %q", err)
	}
	if len(res.Codes) != 6 || out.Len() != 0 {
		t.Fatalf("codes %v, output %q", res.Codes, out.String())
	}
}

// A cancelled chain returns the context's error.
func TestCancelledChain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := pipeline.Run(ctx, pipeline.Options{Dir: t.TempDir()}, pipeline.Lane([]string{"--goal=x", "--enough=y", "--profile=code_path", "--fanout=normal", "--risk=read_only", "--output-kind=hydration_packet"}), nil, &bytes.Buffer{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}
