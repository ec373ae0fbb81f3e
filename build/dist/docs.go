package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rtch/rtch/pkg/clidoc"
	"github.com/rtch/rtch/pkg/cmd/toolset"
)

// docFile is one generated file: its path under the output directory and
// its bytes.
type docFile struct {
	path string
	data []byte
}

// docFiles returns the man page and the completions of every binary.
func docFiles(version, date string) []docFile {
	tools := toolset.All()
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	var files []docFile
	for _, t := range tools {
		d := t.Doc()
		var others []string
		for _, n := range names {
			if n != d.Name {
				others = append(others, n)
			}
		}
		page := clidoc.Page{Version: "rtch " + version, Date: date, SeeAlso: others}
		files = append(files, docFile{filepath.Join("man", "man1", d.Name+".1"), []byte(clidoc.Man(d, page))})
		for _, sh := range clidoc.Shells {
			files = append(files, docFile{filepath.Join("completions", sh.Name, sh.File(d.Name)), []byte(sh.Make(d))})
		}
	}
	return files
}

// writeDocs writes the generated files under dir.
func writeDocs(dir, version, date string) error {
	for _, f := range docFiles(version, date) {
		p := filepath.Join(dir, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	return nil
}
