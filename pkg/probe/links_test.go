package probe

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/walk"
)

func TestUseLinks(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n")
	write("create/create.go", "package create\n\nimport \"example.com/m/api\"\n\nfunc run() { createRelease(); api.Fetch() }\n")
	write("create/http.go", "package create\n\nfunc createRelease() {}\nfunc unused() {}\n")
	write("api/client.go", "package api\n\nfunc Fetch() {}\n")
	write("view/view.go", "package view\n\nfunc createRelease() {}\n")
	wo := walk.Options{Root: root}
	files, err := walk.Files(context.Background(), wo, nil)
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, f := range files {
		index[f.Path] = i
	}
	var scored []rank.Scored
	for i, p := range []string{"create/create.go", "view/view.go", "api/client.go", "create/http.go"} {
		scored = append(scored, rank.Scored{File: rank.File{Path: p}, Score: float64(10 - i)})
	}
	w := rank.Default
	w.SpreadSources = 1
	links, err := useLinks(context.Background(), wo, files, index, scored, w)
	if err != nil {
		t.Fatal(err)
	}
	want := []rank.Link{
		{From: "create/create.go", To: "api/client.go", Uses: 1},
		{From: "create/create.go", To: "create/http.go", Uses: 1},
	}
	if !reflect.DeepEqual(links, want) {
		t.Fatalf("links %v, want %v", links, want)
	}
}
