package pgfts

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/wiki"
)

// racyWindow: a page modified this close to the moment it was hashed is
// hashed again next time, because a second write inside the file system's
// timestamp granularity would leave size and mtime unchanged (git's racy
// entries; pkg/fts uses the same window).
const racyWindow = int64(2 * time.Second)

// seen is what the local stat cache knows of one page.
type seen struct {
	size, mtime, ctime, ino, hashedAt int64
	hash                              string
}

// trusted reports whether the cached hash of a page can be used without
// reading it.
func (s seen) trusted(f wiki.File) bool {
	return f.Size == s.size && f.ModTime == s.mtime && f.ChangeTime == s.ctime && int64(f.Inode) == s.ino &&
		s.hashedAt-s.mtime > racyWindow && s.hashedAt-s.ctime > racyWindow
}

// stateHeader names the cache's format (2: no page whose path holds a
// secret is kept; a cache of format 1 may hold one, and is discarded).
const stateHeader = "guild-wiki-pg-state-2"

// loadState reads the stat cache; a missing, foreign or damaged file is an
// empty cache (every page is then hashed, which is always correct).
func loadState(root string) map[string]seen {
	out := map[string]seen{}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(StatePath)))
	if err != nil {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() || sc.Text() != stateHeader {
		return map[string]seen{}
	}
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 7)
		if len(f) != 7 {
			return map[string]seen{}
		}
		var s seen
		for i, dst := range []*int64{&s.size, &s.mtime, &s.ctime, &s.ino, &s.hashedAt} {
			if *dst, err = strconv.ParseInt(f[i], 10, 64); err != nil {
				return map[string]seen{}
			}
		}
		s.hash = f[5]
		p, err := strconv.Unquote(f[6])
		if err != nil {
			return map[string]seen{}
		}
		out[p] = s
	}
	return out
}

// saveState replaces the stat cache with the pages just hashed, in listing
// order. It is a cache: failing to write it costs time on the next run,
// never correctness, so the error is only returned for the caller to warn.
// It is written beneath root, never through a symlink.
func saveState(root string, files []wiki.File, hashes map[string]seen) error {
	var b []byte
	b = append(b, stateHeader...)
	b = append(b, '\n')
	for _, f := range files {
		s, ok := hashes[f.Path]
		if !ok {
			continue
		}
		for _, n := range []int64{s.size, s.mtime, s.ctime, s.ino, s.hashedAt} {
			b = strconv.AppendInt(b, n, 10)
			b = append(b, '\t')
		}
		b = append(b, s.hash...)
		b = append(b, '\t')
		b = strconv.AppendQuote(b, f.Path)
		b = append(b, '\n')
	}
	return atomicfile.WriteBeneath(root, StatePath, b, 0o644)
}
