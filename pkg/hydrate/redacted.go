package hydrate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/secret"
)

// A file whose name holds a secret reaches hydration under its redacted
// name: every record a tool writes passes the redactor, paths included, so
// rtch-probe's hit on config/ghp_….txt says config/[REDACTED:github-pat].txt,
// and so do the chunk's re-entry command and a persisted packet. Such a
// path hydrates the file it was redacted from: the one file under the root
// whose path, spelt as records spell it (pkg/pathenc) and redacted, is the
// path given. The name is looked up, never written.

// maxRedactedCandidates bounds the paths a redacted path may stand for
// while it is resolved, component by component.
const maxRedactedCandidates = 1 << 12

// unredact returns the path rel stands for: rel itself when it holds no
// mark or names a file; otherwise the one file under root whose redacted
// spelling is rel. Two such files are an error; none leaves rel, whose
// read then fails as any missing file's does.
func unredact(root, rel string) (string, error) {
	if !strings.Contains(rel, "[REDACTED:") {
		return rel, nil
	}
	if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(pathenc.Decode(rel)))); err == nil {
		return rel, nil
	}
	cands := []string{""}
	for _, part := range strings.Split(rel, "/") {
		cands = extend(root, cands, part)
		if len(cands) > maxRedactedCandidates {
			return "", fmt.Errorf("%s: the redacted path stands for more than %d paths", rel, maxRedactedCandidates)
		}
	}
	var found []string
	for _, c := range cands {
		if secret.String(c) == rel {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return rel, nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s: the redacted path stands for %d files; re-enter one by a path without its secret", rel, len(found))
}

// extend appends the component part to each candidate path: as it is, or,
// when it holds marks, as every name in the candidate's directory that
// part could have been redacted from.
func extend(root string, cands []string, part string) []string {
	var out []string
	pieces := markPieces(part)
	for _, c := range cands {
		if pieces == nil {
			out = append(out, joinRel(c, part))
			continue
		}
		ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(pathenc.Decode(c))))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if n := pathenc.Encode(e.Name()); fits(n, pieces) {
				out = append(out, joinRel(c, n))
			}
		}
	}
	return out
}

// markPieces cuts part at its marks ([REDACTED:rule]): the text before,
// between and after them; nil when part holds none.
func markPieces(part string) []string {
	var pieces []string
	for {
		i := strings.Index(part, "[REDACTED:")
		if i < 0 {
			break
		}
		j := strings.IndexByte(part[i:], ']')
		if j < 0 {
			break
		}
		pieces = append(pieces, part[:i])
		part = part[i+j+1:]
	}
	if pieces == nil {
		return nil
	}
	return append(pieces, part)
}

// fits reports whether name is pieces with at least one byte in place of
// each mark between them.
func fits(name string, pieces []string) bool {
	first, last := pieces[0], pieces[len(pieces)-1]
	if !strings.HasPrefix(name, first) || !strings.HasSuffix(name[len(first):], last) {
		return false
	}
	rest := name[len(first) : len(name)-len(last)]
	for _, p := range pieces[1 : len(pieces)-1] {
		if rest == "" {
			return false
		}
		i := strings.Index(rest[1:], p)
		if i < 0 {
			return false
		}
		rest = rest[1+i+len(p):]
	}
	return rest != ""
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
