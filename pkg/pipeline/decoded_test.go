package pipeline_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/pipeline"
)

// Renderings through one rtchpacket.Decoded print what rtch-packet prints
// on the stream itself, in every format and when they run at once; only
// the first reads its input (the others are given none), and a stream
// that does not decode fails every one of them with its error.
func TestPacketOnDecodesOnce(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"retry/budget.go": "package retry\n\n// Budget is the webhook retry budget.\nfunc Budget() int { return 3 }\n",
		"retry/doc.md":    "# Retry\n\nThe webhook retry budget is kept in Budget.\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := pipeline.Options{Dir: dir, Getenv: noZone}
	run := func(st pipeline.Stage, stdin string) (string, error) {
		var out bytes.Buffer
		_, err := pipeline.Run(context.Background(), opt, []pipeline.Stage{st}, strings.NewReader(stdin), &out)
		return out.String(), err
	}
	var lane bytes.Buffer
	args := []string{"--goal=where is the webhook retry budget kept", "--profile=code_path", "--fanout=normal", "--risk=read_only",
		"--output-kind=hydration_packet", "--enough=the retry budget is hydrated"}
	if _, err := pipeline.Run(context.Background(), opt, pipeline.Lane(args), nil, &lane); err != nil {
		t.Fatal(err)
	}
	stream := lane.String()
	formats := []string{"json", "md", "yaml"}
	want := map[string]string{}
	for _, f := range formats {
		out, err := run(pipeline.Packet("--format="+f, "--now=0"), stream)
		if err != nil || out == "" {
			t.Fatalf("%s: %v %q", f, err, out)
		}
		want[f] = out
	}

	d := &rtchpacket.Decoded{}
	for i, f := range formats {
		in := stream
		if i > 0 {
			in = ""
		}
		if out, err := run(pipeline.PacketOn(d, "--format="+f, "--now=0"), in); err != nil || out != want[f] {
			t.Fatalf("%s through the decoded stream (%v):\n%s\nwant:\n%s", f, err, out, want[f])
		}
	}

	d = &rtchpacket.Decoded{}
	got := make([]string, len(formats))
	var wg sync.WaitGroup
	for i, f := range formats {
		wg.Go(func() { got[i], _ = run(pipeline.PacketOn(d, "--format="+f, "--now=0"), stream) })
	}
	wg.Wait()
	for i, f := range formats {
		if got[i] != want[f] {
			t.Fatalf("%s at once with the others:\n%s\nwant:\n%s", f, got[i], want[f])
		}
	}

	d = &rtchpacket.Decoded{}
	for i, f := range formats {
		in := "{\"kind\":\n"
		if i > 0 {
			in = stream
		}
		if _, err := run(pipeline.PacketOn(d, "--format="+f), in); err == nil || !strings.Contains(err.Error(), "stdin:1") {
			t.Fatalf("%s after a broken stream: %v", f, err)
		}
	}
}
