package intake

import (
	"path"
	"strconv"
	"strings"
)

// frames finds stack-trace frames: Python's `File "x.py", line 12, in f` and
// the "file.ext:line" of Go panics, compilers, linters and test runners.
func (x *extractor) frames() {
	for _, m := range rePyFrame().FindAllStringSubmatchIndex(x.s, -1) {
		if x.masked(m[0], m[1]) {
			continue
		}
		file := normalizePath(x.s[m[2]:m[3]])
		line, _ := strconv.Atoi(x.s[m[4]:m[5]])
		x.addFrame(file, line, m[0], m[1]-m[0])
		if m[6] >= 0 {
			fn := x.s[m[6]:m[7]]
			if !strings.HasPrefix(fn, "<") {
				x.classify(fn, m[6], true, true, "")
			}
		}
		x.setMask(m[0], m[1])
	}
	for _, m := range reFileLine().FindAllStringSubmatchIndex(x.s, -1) {
		if x.masked(m[0], m[1]) || !leftBoundary(x.s, m[0]) {
			continue
		}
		if !knownExt[strings.ToLower(x.s[m[4]:m[5]])] {
			continue
		}
		file := normalizePath(x.s[m[2]:m[3]])
		line, err := strconv.Atoi(x.s[m[6]:m[7]])
		if err != nil || line == 0 {
			continue
		}
		x.addFrame(file, line, m[0], m[1]-m[0])
		x.setMask(m[0], m[1])
	}
}

func (x *extractor) addFrame(file string, line, off, length int) {
	if file == "" || strings.HasPrefix(file, "<") {
		return // <stdin>, <string>, <frozen importlib._bootstrap>
	}
	x.add(file+":"+strconv.Itoa(line), KindStackFrame, off, length, "", file, line)
	if strings.Contains(file, "/") {
		x.add(file, KindPath, off, length, "", "", 0)
	}
	x.addFileName(file, off, length)
}

func (x *extractor) addFileName(p string, off, length int) {
	base := path.Base(p)
	if base == "." || base == "/" || !strings.Contains(strings.TrimPrefix(base, "."), ".") {
		return
	}
	parent := ""
	if base != p {
		parent = p
	}
	x.add(base, KindFileName, off, length, parent, "", 0)
	boff := off
	if end := off + length; end <= len(x.s) {
		if i := strings.LastIndex(x.s[off:end], base); i >= 0 {
			boff = off + i
		}
	}
	x.stemParts(base, boff)
}

// stemParts adds the snake_case and CamelCase parts of a file name's stem:
// tests/test_pycode_ast.py names the module pycode/ast.py, and
// rtchintake_test.go the package beside it.
func (x *extractor) stemParts(base string, off int) {
	stem := strings.TrimSuffix(base, path.Ext(base))
	if strings.Contains(stem, ".") || !(strings.Contains(stem, "_") || isCamel(stem)) {
		return
	}
	x.splitParts(stem, off)
}

// normalizePath turns a path from a trace into the path most likely to exist
// in the repository: "/" separators, no "./", and no installation prefix
// (site-packages/, dist-packages/, a Go module cache's module@version/).
func normalizePath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for _, marker := range []string{"/site-packages/", "/dist-packages/"} {
		if i := strings.LastIndex(p, marker); i >= 0 {
			p = p[i+len(marker):]
		}
	}
	if i := strings.Index(p, "/pkg/mod/"); i >= 0 {
		rest := p[i+len("/pkg/mod/"):]
		if j := strings.Index(rest, "@"); j >= 0 {
			if k := strings.Index(rest[j:], "/"); k >= 0 {
				p = rest[j+k+1:]
			}
		}
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}
