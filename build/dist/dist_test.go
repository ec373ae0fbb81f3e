package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var when = time.Date(2026, 12, 3, 11, 33, 33, 0, time.UTC)

func sample() []entry {
	return []entry{
		{name: "rtch-1/README.md", mode: 0o644, data: []byte("readme")},
		{name: "rtch-1/bin-b", mode: 0o755, data: bytes.Repeat([]byte{1, 2, 3}, 1000)},
		{name: "rtch-1/bin-a", mode: 0o755, data: []byte("a")},
	}
}

// TestArchivesAreReproducible writes each archive kind twice from the same
// entries given in different orders: the bytes must not differ, and every
// entry must carry the fixed time, its mode and no owner.
func TestArchivesAreReproducible(t *testing.T) {
	for _, kind := range []struct {
		name  string
		write func(io.Writer, []entry, time.Time) error
		list  func(*testing.T, []byte) []string
	}{{"tar.gz", tarGz, listTarGz}, {"zip", zipArchive, listZip}} {
		var a, b bytes.Buffer
		es := sample()
		if err := kind.write(&a, es, when); err != nil {
			t.Fatal(err)
		}
		rev := sample()
		slices.Reverse(rev)
		if err := kind.write(&b, rev, when); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: same entries, different bytes", kind.name)
		}
		got := kind.list(t, a.Bytes())
		want := []string{"rtch-1/README.md 644", "rtch-1/bin-a 755", "rtch-1/bin-b 755"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: entries %v, want %v", kind.name, got, want)
		}
	}
}

func listTarGz(t *testing.T, data []byte) []string {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("gzip header carries a time %v or a name %q", zr.ModTime, zr.Name)
	}
	tr := tar.NewReader(zr)
	var out []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(when) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
			t.Errorf("%s: header %+v", h.Name, h)
		}
		out = append(out, fmt.Sprintf("%s %o", h.Name, h.Mode))
	}
}

func listZip(t *testing.T, data []byte) []string {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range zr.File {
		if !f.Modified.Equal(when) {
			t.Errorf("%s: time %v", f.Name, f.Modified)
		}
		out = append(out, fmt.Sprintf("%s %o", f.Name, f.Mode().Perm()))
	}
	return out
}

func TestCheckReleaseRefuses(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "rtch-v0.0.9-checksums.txt"), nil, 0o644)
	plugin := pluginVersion(t)
	for _, c := range []struct {
		o    releaseOptions
		want string
	}{
		{releaseOptions{version: "1.2.3", out: t.TempDir()}, "semantic version"},
		{releaseOptions{version: "v1.2", out: t.TempDir()}, "semantic version"},
		{releaseOptions{version: "v" + plugin, out: t.TempDir(), platforms: []string{"linux"}}, "not os/arch"},
		{releaseOptions{version: "v" + plugin, out: out, platforms: defaultPlatforms}, "already holds rtch-v0.0.9-checksums.txt"},
		{releaseOptions{version: "v" + plugin + "-rc.9", out: t.TempDir(), platforms: defaultPlatforms}, "plugin.json states version"},
	} {
		err := checkRelease(&c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.o, err, c.want)
		}
	}
	ok := releaseOptions{version: "v" + plugin, out: t.TempDir(), platforms: defaultPlatforms}
	if err := checkRelease(&ok); err != nil {
		t.Errorf("a clean release refused: %v", err)
	}
}

func pluginVersion(t *testing.T) string {
	data, err := os.ReadFile(pluginManifests[0])
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), `"version": "`)
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// TestReleaseIsReproducible builds one binary for windows/arm64 twice, as
// make release builds them all, and fails when the two archives differ,
// when an archive lacks the man pages, completions, LICENSE or README, or
// when the binary holds the build directory's path.
func TestReleaseIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles a binary twice; skipped with -short")
	}
	t.Chdir(filepath.Join("..", ".."))
	wd, _ := os.Getwd()
	o := releaseOptions{version: "v" + pluginVersion(t), date: "2026-12-03", when: when,
		platforms: []string{"windows/arm64"}, packages: "./cmd/rtch-zone"}
	var sums [2][]byte
	var archive []byte
	for i := range sums {
		o.out = t.TempDir()
		if err := checkRelease(&o); err != nil {
			t.Fatal(err)
		}
		if err := release(context.Background(), o, io.Discard); err != nil {
			t.Fatal(err)
		}
		sums[i], _ = os.ReadFile(filepath.Join(o.out, "rtch-"+o.version+"-checksums.txt"))
		archive, _ = os.ReadFile(filepath.Join(o.out, "rtch-"+o.version+"-windows-arm64.zip"))
	}
	if len(sums[0]) == 0 || !bytes.Equal(sums[0], sums[1]) {
		t.Fatalf("two builds of the same commit differ:\n%s\n%s", sums[0], sums[1])
	}
	names := listZip(t, archive)
	base := "rtch-" + o.version + "-windows-arm64/"
	for _, want := range []string{"rtch-zone.exe 755", "LICENSE 644", "README.md 644", "man/man1/rtch-mcp.1 644",
		"completions/bash/guild-lint 644", "completions/zsh/_rtch-probe 644", "completions/fish/rtch-hydrate.fish 644"} {
		if !slices.Contains(names, base+want) {
			t.Errorf("archive lacks %s: %v", want, names)
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := zr.Open(base + "rtch-zone.exe")
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := io.ReadAll(f)
	if len(bin) < 1<<20 || bytes.Contains(bin, []byte(wd)) {
		t.Errorf("rtch-zone.exe (%d bytes) holds the build directory %s (no -trimpath?)", len(bin), wd)
	}
}
