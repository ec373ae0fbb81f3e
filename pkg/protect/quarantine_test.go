package protect

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// A child process started by TestAppendEventConcurrent appends events and
// exits; it runs only when the environment asks for it.
func TestMain(m *testing.M) {
	if path := os.Getenv("PROTECT_APPEND_CHILD"); path != "" {
		n, _ := strconv.Atoi(os.Getenv("PROTECT_APPEND_N"))
		for i := 0; i < n; i++ {
			ev := SecurityEvent{EventType: "recall_quarantine", Decision: "blocked",
				SourcePath: fmt.Sprintf("child/%s/%d.md", os.Getenv("PROTECT_APPEND_ID"), i),
				Patterns:   []string{"override_phrase"}, RunID: "r1"}
			if err := AppendEvent(path, ev); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestAppendEventConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".guild", "runs", "r1", "logs", "security-events.jsonl")
	const goroutines, perG, procs, perP = 8, 25, 3, 40
	// other processes, started first so they overlap with the goroutines
	var cmds []*exec.Cmd
	for p := 0; p < procs; p++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PROTECT_APPEND_CHILD="+path, "PROTECT_APPEND_N="+strconv.Itoa(perP), "PROTECT_APPEND_ID="+strconv.Itoa(p))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*perG)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < perG; i++ {
				errs <- AppendEvent(path, SecurityEvent{EventType: "recall_quarantine", Decision: "blocked",
					SourcePath: fmt.Sprintf("g/%d/%d.md", g, i), Patterns: []string{"role_token"}, RunID: "r1"})
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child: %v", err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		var ev SecurityEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("%s:%d: %v: %q", path, line, err, sc.Text())
		}
		if ev.SchemaVersion != SecurityEventSchema || ev.At == "" || ev.Decision != "blocked" || len(ev.Patterns) != 1 {
			t.Errorf("%s:%d: incomplete event %+v", path, line, ev)
		}
		if seen[ev.SourcePath] {
			t.Errorf("%s:%d: duplicate event %s", path, line, ev.SourcePath)
		}
		seen[ev.SourcePath] = true
	}
	if want := goroutines*perG + procs*perP; len(seen) != want {
		t.Errorf("%d events in the log, want %d", len(seen), want)
	}
}

func TestAppendEventError(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendEvent(filepath.Join(blocker, "logs", "x.jsonl"), SecurityEvent{}); err == nil {
		t.Error("AppendEvent under a regular file succeeded")
	}
}
