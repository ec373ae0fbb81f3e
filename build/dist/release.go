package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// defaultPlatforms are the platforms a release is built for.
var defaultPlatforms = []string{
	"linux/amd64", "linux/arm64",
	"darwin/amd64", "darwin/arm64",
	"windows/amd64", "windows/arm64",
}

// cliPkg is where -ldflags stamps the version and build time.
const cliPkg = "github.com/rtch/rtch/pkg/cli"

type releaseOptions struct {
	out, version, date string
	platforms          []string
	// packages is the go build pattern of the binaries.
	packages string
	// when is the commit's time.
	when time.Time
}

var versionRE = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// checkRelease refuses a release whose version, platforms or output
// directory would give something other than a clean, complete set.
func checkRelease(o *releaseOptions) error {
	if !versionRE.MatchString(o.version) {
		return usagef("--version %q: want a semantic version such as v1.2.3", o.version)
	}
	for _, p := range o.platforms {
		if strings.Count(p, "/") != 1 {
			return usagef("--platforms: %q is not os/arch", p)
		}
	}
	if err := checkPluginVersion(strings.TrimPrefix(o.version, "v")); err != nil {
		return err
	}
	if entries, err := os.ReadDir(o.out); err == nil {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "rtch-") {
				return usagef("--out %s already holds %s: a release goes into a directory of its own", o.out, e.Name())
			}
		}
	}
	return nil
}

// pluginManifests are the files that state the Claude Code plugin's
// version, which a release must carry.
var pluginManifests = []string{"plugin/.claude-plugin/plugin.json", ".claude-plugin/marketplace.json"}

// checkPluginVersion refuses a release whose plugin manifests state another
// version: a user who installs the plugin from the release's commit would
// be told the wrong one.
func checkPluginVersion(want string) error {
	for _, f := range pluginManifests {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("run dist from the repository's root: %w", err)
		}
		var m struct {
			Version string `json:"version"`
			Plugins []struct {
				Version string `json:"version"`
			} `json:"plugins"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		got := m.Version
		if len(m.Plugins) > 0 {
			got = m.Plugins[0].Version
		}
		if got != want {
			return usagef("%s states version %q, not %q: set it (and commit) before the release", f, got, want)
		}
	}
	return nil
}

// commitTime is the time of the commit being built: $SOURCE_DATE_EPOCH when
// set (a build from an archive, outside git), else HEAD's commit time.
func commitTime() (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, usagef("SOURCE_DATE_EPOCH=%q: %v", s, err)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	out, err := exec.Command("git", "log", "-1", "--format=%ct", "HEAD").Output()
	if err != nil {
		return time.Time{}, fmt.Errorf("no commit time: git log -1 HEAD failed (%v); outside git set SOURCE_DATE_EPOCH", err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("git log -1 --format=%%ct: %q: %v", out, err)
	}
	return time.Unix(n, 0).UTC(), nil
}

// release builds and packs every platform, then writes the checksums file.
func release(ctx context.Context, o releaseOptions, stdout io.Writer) error {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	common, err := commonEntries(o)
	if err != nil {
		return err
	}
	var archives []string
	for _, p := range o.platforms {
		name, err := releasePlatform(ctx, o, p, common)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		archives = append(archives, name)
		fmt.Fprintln(stdout, filepath.Join(o.out, name))
	}
	sums, err := checksums(o.out, archives)
	if err != nil {
		return err
	}
	name := "rtch-" + o.version + "-checksums.txt"
	fmt.Fprintln(stdout, filepath.Join(o.out, name))
	return os.WriteFile(filepath.Join(o.out, name), sums, 0o644)
}

// commonEntries are the files every archive holds besides the binaries:
// LICENSE, README.md, the man pages and the completions.
func commonEntries(o releaseOptions) ([]entry, error) {
	var es []entry
	for _, f := range []string{"LICENSE", "README.md"} {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("run dist from the repository's root: %w", err)
		}
		es = append(es, entry{name: f, mode: 0o644, data: data})
	}
	for _, f := range docFiles(o.version, o.date) {
		es = append(es, entry{name: filepath.ToSlash(f.path), mode: 0o644, data: f.data})
	}
	return es, nil
}

// releasePlatform cross-compiles the binaries for one platform and writes
// its archive; it returns the archive's file name.
func releasePlatform(ctx context.Context, o releaseOptions, platform string, common []entry) (string, error) {
	goos, goarch, _ := strings.Cut(platform, "/")
	base := "rtch-" + o.version + "-" + goos + "-" + goarch
	bins, err := os.MkdirTemp("", "rtch-dist-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(bins)
	if err := goBuild(ctx, o, goos, goarch, bins); err != nil {
		return "", err
	}
	es, err := binaryEntries(bins)
	if err != nil {
		return "", err
	}
	for _, e := range common {
		es = append(es, e)
	}
	for i := range es {
		es[i].name = path.Join(base, es[i].name)
	}
	var buf bytes.Buffer
	name := base + ".tar.gz"
	if goos == "windows" {
		name = base + ".zip"
		err = zipArchive(&buf, es, o.when)
	} else {
		err = tarGz(&buf, es, o.when)
	}
	if err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(o.out, name), buf.Bytes(), 0o644)
}

// goBuild builds the binaries for one platform into dir: no cgo, no local
// paths, no build id, the version and the commit time stamped in.
func goBuild(ctx context.Context, o releaseOptions, goos, goarch, dir string) error {
	ldflags := fmt.Sprintf("-s -w -buildid= -X %s.Version=%s -X %s.BuildTime=%s",
		cliPkg, o.version, cliPkg, o.when.Format(time.RFC3339))
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=auto", "-ldflags", ldflags, "-o", dir+string(filepath.Separator), o.packages)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=-mod=readonly")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, stderr.String())
	}
	return nil
}

// binaryEntries reads the built binaries, executable.
func binaryEntries(dir string) ([]entry, error) {
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var es []entry
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			return nil, err
		}
		es = append(es, entry{name: f.Name(), mode: 0o755, data: data})
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("go build wrote no binary")
	}
	return es, nil
}

// checksums is the sha256sum-format list of the archives, sorted by name.
func checksums(dir string, names []string) ([]byte, error) {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	var b bytes.Buffer
	for _, n := range sorted {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return b.Bytes(), nil
}
