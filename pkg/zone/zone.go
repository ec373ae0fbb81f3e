package zone

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// DefaultRungMarkers are the rung markers, outermost rung first.
var DefaultRungMarkers = []string{".federation-root", ".estate-root", ".domain-root", ".site-root", ".ticzone"}

// DefaultTruthFiles are the truth files looked for at the zone root, in the
// order they are listed; any README* follows them.
var DefaultTruthFiles = []string{"CLAUDE.md", "AGENTS.md", "SYSTEM_MAP.md", "ARCHITECTURE.md", "GLOSSARY.md", "GIT_RULES.md"}

// InstructionFiles are a rung's instruction files, the first present wins.
var InstructionFiles = []string{"CLAUDE.md", "AGENTS.md"}

// ManifestPatterns are the package manifests and registries looked for at the
// zone root (path.Match patterns on file names).
var ManifestPatterns = []string{
	"go.mod", "go.work", "package.json", "deno.json", "Cargo.toml", "pyproject.toml",
	"setup.py", "setup.cfg", "requirements*.txt", "Pipfile", "Gemfile", "*.gemspec",
	"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "composer.json",
	"mix.exs", "pubspec.yaml", "CMakeLists.txt", "meson.build", "*.csproj", "*.sln",
	"Package.swift", "*registry*.json", "*registry*.yaml", "*registry*.yml",
	"sync-manifest.json", "*manifest*.json", "*manifest*.yaml", "*manifest*.yml",
}

// FixedNames are the names the zone record may give its truth files and
// manifests whatever the tree holds: the default truth files, the common
// READMEs and the manifests named without a wildcard. They become goal-free
// terms of every lane run at such a root, so the tree index keeps their
// matches (scout.IndexedPhrases).
func FixedNames() []string {
	out := append([]string{}, DefaultTruthFiles...)
	out = append(out, "README.md", "README.rst", "README.txt")
	for _, p := range ManifestPatterns {
		if !strings.ContainsAny(p, "*?[") {
			out = append(out, p)
		}
	}
	return out
}

// DefaultStatusLines caps the git status lines recorded.
const DefaultStatusLines = 20

// Options configure Describe.
type Options struct {
	// Root is the resolved zone root.
	Root Root
	// RungMarkers replaces DefaultRungMarkers when non-empty.
	RungMarkers []string
	// TruthFiles are extra truth-file names or path.Match patterns at the root.
	TruthFiles []string
	// StatusLines caps the git status lines; 0 means DefaultStatusLines.
	StatusLines int
	// ConfigPath is the configuration file in effect ("" when none).
	ConfigPath string
	// Git keeps the git snapshot between the runs of a long-lived host
	// that watches the tree; nil asks git every time.
	Git *GitCache
}

// Describe builds the rtch.zone record. Warnings are problems worth telling
// the user that do not stop orientation (an unreadable directory, a failing
// git command, a start directory outside the root).
func Describe(ctx context.Context, o Options) (schema.Zone, []string) {
	var warns []string
	r := o.Root
	target := "."
	if rel, err := filepath.Rel(r.Dir, r.Start); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		target = filepath.ToSlash(rel)
	} else {
		warns = append(warns, "the start directory "+r.Start+" is outside the zone root "+r.Dir+"; the root is the target")
	}
	markers := o.RungMarkers
	if len(markers) == 0 {
		markers = DefaultRungMarkers
	}
	z := schema.Zone{
		Envelope:   record.Env(schema.KindZone, schema.V1, r.Dir, target),
		ZoneRoot:   r.Dir,
		DecidedBy:  r.DecidedBy,
		TargetDir:  target,
		Rungs:      Rungs(r.Dir, target, markers),
		TruthFiles: []string{},
		Manifests:  []string{},
	}
	entries, err := os.ReadDir(r.Dir)
	if err != nil {
		warns = append(warns, "zone root: "+err.Error())
	}
	names := regularNames(r.Dir, entries)
	z.TruthFiles = truthFiles(names, o.TruthFiles)
	z.Manifests = manifests(names)
	if o.ConfigPath != "" {
		abs, err := filepath.Abs(o.ConfigPath)
		if err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				abs = real
			}
			z.ConfigPath = r.Rel(abs)
		} else {
			z.ConfigPath = filepath.ToSlash(o.ConfigPath)
		}
	}
	n := o.StatusLines
	if n <= 0 {
		n = DefaultStatusLines
	}
	snap, err := o.Git.snapshot(ctx, r.Dir, n)
	if err != nil {
		warns = append(warns, err.Error())
	}
	z.Git = snap
	return z, warns
}

// Rungs lists the rung markers in every directory from the root down to the
// target directory (both included), outermost first; within one directory in
// the order of markers.
func Rungs(root, target string, markers []string) []schema.Rung {
	rungs := []schema.Rung{}
	dirs := []string{"."}
	if target != "." {
		parts := strings.Split(target, "/")
		for i := range parts {
			dirs = append(dirs, strings.Join(parts[:i+1], "/"))
		}
	}
	for _, d := range dirs {
		abs := filepath.Join(root, filepath.FromSlash(d))
		for _, m := range markers {
			if _, err := os.Lstat(filepath.Join(abs, m)); err != nil {
				continue
			}
			rung := schema.Rung{Dir: d, Marker: m}
			for _, inst := range InstructionFiles {
				if isFile(filepath.Join(abs, inst)) {
					rung.Instructions = path.Join(d, inst)
					break
				}
			}
			rungs = append(rungs, rung)
		}
	}
	return rungs
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// truthFiles picks the truth files among the root's entries: the defaults in
// order, then README*, then the configured names or patterns, each once.
func truthFiles(regular []string, extra []string) []string {
	out := []string{}
	seen := map[string]bool{}
	take := func(match func(string) bool) {
		for _, name := range regular {
			if !seen[name] && match(name) {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	for _, want := range DefaultTruthFiles {
		take(func(n string) bool { return n == want })
	}
	take(func(n string) bool { return strings.HasPrefix(n, "README") })
	for _, pat := range extra {
		take(func(n string) bool {
			ok, err := path.Match(pat, n)
			return n == pat || (err == nil && ok)
		})
	}
	return out
}

func manifests(regular []string) []string {
	out := []string{}
	for _, name := range regular {
		for _, pat := range ManifestPatterns {
			if ok, _ := path.Match(pat, name); ok {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// regularNames are the sorted names of the entries of dir that are regular
// files, or symlinks to regular files inside dir's tree (a link out of the zone
// is never followed).
func regularNames(dir string, entries []os.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
			continue
		}
		if e.Type()&os.ModeSymlink == 0 {
			continue
		}
		real, err := filepath.EvalSymlinks(filepath.Join(dir, e.Name()))
		if err != nil || !isFile(real) {
			continue
		}
		if rel, err := filepath.Rel(dir, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}
