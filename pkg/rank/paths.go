package rank

import (
	"path"
	"strings"

	"github.com/rtch/rtch/pkg/symbols"
)

// codePathFactor is the code_path penalty of a path and its reason.
func codePathFactor(w Weights, p string) (float64, string) {
	lp := strings.ToLower(p)
	parts := strings.Split(lp, "/")
	dirs := parts[:len(parts)-1]
	base := parts[len(parts)-1]
	upper := strings.ToUpper(strings.TrimSuffix(base, path.Ext(base)))
	for _, c := range []string{"CHANGELOG", "CHANGES", "HISTORY", "NEWS", "RELEASE_NOTES", "RELEASES"} {
		if strings.HasPrefix(upper, c) {
			return w.ChangelogPenalty, "changelog (code_path)"
		}
	}
	if strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".bundle.js") {
		return w.VendorPenalty, "bundled third-party code (code_path)"
	}
	for _, d := range dirs {
		switch d {
		case "vendor", "third_party", "node_modules", "external", "static", "dist":
			return w.VendorPenalty, "vendored code (code_path)"
		case "testdata", "fixtures", "__fixtures__", "test_data":
			return w.TestdataPenalty, "test data (code_path)"
		}
	}
	if IsTest(p) {
		return w.TestPenalty, "test file (code_path)"
	}
	if isTestDouble(dirs, base) {
		return w.DoublePenalty, "mock or fake (code_path)"
	}
	ext := path.Ext(base)
	switch ext {
	case ".md", ".rst", ".txt", ".adoc", ".markdown":
		return w.DocPenalty, "documentation (code_path)"
	}
	code := symbols.Lang(p) != ""
	for _, d := range dirs {
		switch d {
		case "docs", "doc":
			// A source file under doc/ is code (cobra's doc generators);
			// the directory only marks its other files as documentation.
			if !code {
				return w.DocPenalty, "docs (code_path)"
			}
		case "examples", "example":
			return w.DocPenalty, "docs or examples (code_path)"
		}
	}
	if !code {
		return w.NonCodePenalty, "not source code (code_path)"
	}
	return 1, ""
}

// IsTest reports whether a path looks like a test file in common layouts.
func IsTest(p string) bool {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case strings.HasSuffix(stem, "_test"), strings.HasPrefix(stem, "test_"), strings.HasSuffix(stem, "_spec"),
		strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"), strings.HasSuffix(stem, "tests"),
		stem == "test",
		stem == "conftest", strings.HasSuffix(stem, "test") && path.Ext(base) == ".java":
		return true
	}
	for _, d := range strings.Split(path.Dir(lp), "/") {
		if d == "test" || d == "tests" || d == "__tests__" || d == "spec" {
			return true
		}
	}
	return false
}

// isTestDouble reports a mock or fake by its name: mock_x.go, x_mock.go,
// fake_x.py, x_mocks.ts, or any file under mocks/, mock/, fakes/.
func isTestDouble(dirs []string, base string) bool {
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, p := range []string{"mock_", "fake_", "mocks_"} {
		if strings.HasPrefix(stem, p) {
			return true
		}
	}
	for _, s := range []string{"_mock", "_mocks", "_fake", "_fakes"} {
		if strings.HasSuffix(stem, s) {
			return true
		}
	}
	for _, d := range dirs {
		switch d {
		case "mocks", "mock", "fakes":
			return true
		}
	}
	return false
}
