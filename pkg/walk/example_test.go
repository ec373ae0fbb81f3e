package walk_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/walk"
)

// A stage lists the files once, reads them in parallel, and reports
// every skip.
func Example() {
	root, _ := os.MkdirTemp("", "walk-example")
	defer os.RemoveAll(root)
	os.Mkdir(filepath.Join(root, ".git"), 0o755) // .gitignore counts in a work tree
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n"), 0o644)
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\r\n\r\nfunc main() {}\r\n"), 0o644)
	os.WriteFile(filepath.Join(root, "debug.log"), []byte("ignored\n"), 0o644)
	os.WriteFile(filepath.Join(root, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00"), 0o644)

	o := walk.Options{Root: root}
	report := func(s walk.Skip) { fmt.Printf("skip %s: %s (%s)\n", s.Path, s.Reason, s.Detail) }
	files, err := walk.Files(context.Background(), o, report)
	if err != nil {
		fmt.Println(err)
		return
	}
	var mu sync.Mutex
	lines := map[string]int{}
	err = walk.Each(context.Background(), o, files, func(f walk.File, data []byte) error {
		n := len(walk.Lines(walk.DecodeText(data)))
		mu.Lock()
		lines[f.Path] = n
		mu.Unlock()
		return nil
	}, report)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join([]string{files[0].Path, files[1].Path}, " "), "listed;", lines["main.go"], "lines in main.go")
	// Output:
	// skip logo.png: binary (NUL byte at offset 8)
	// logo.png main.go listed; 3 lines in main.go
}
