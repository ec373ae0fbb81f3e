package hydrate

import (
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/rtch/rtch/pkg/internal/bounded"
)

// cacheFiles and cacheTexts bound a Cache: a brief reads a few dozen
// files and protects a few dozen chunk texts, so these hold the files and
// texts of the last few dozen questions, and cacheBytes bounds the bytes
// of the files kept (a file may be as large as the size cap).
const (
	cacheFiles = 512
	cacheTexts = 2048
	cacheBytes = 64 << 20
)

// Cache keeps what hydration derives from bytes between the runs of a
// long-lived host (rtch-mcp), so that a file read again is not indexed and
// redacted again and a chunk text shown again is not probed again: a file
// (its line index and its redacted view, File.shownLines) is found again by
// its path and the SHA-256 of its bytes, a protector's verdict by the text
// it was given. Both are functions of their key, so what a hit gives is
// what computing afresh would. The files kept weigh at most 64 MiB, the
// texts as much. A Cache's verdicts are one protector's: give it one. A
// nil *Cache keeps nothing. It is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	files bounded.Map[fileKey, *File]
	texts bounded.Map[string, protected]
}

type fileKey struct {
	path string
	sum  [sha256.Size]byte
}

type protected struct {
	text  string
	flags []string
}

// file is the kept File of rel with these bytes, else a new one, kept.
func (c *Cache) file(rel string, data []byte) *File {
	sum := sha256.Sum256(data)
	if c == nil {
		return newFile(rel, data, sum)
	}
	k := fileKey{rel, sum}
	c.mu.Lock()
	f, ok := c.files.Get(k)
	c.mu.Unlock()
	if ok {
		return f
	}
	f = newFile(rel, data, sum)
	c.mu.Lock()
	c.bound()
	c.files.Put(k, f)
	c.mu.Unlock()
	return f
}

// Protector is p answering a text it has seen from what it said then.
func (c *Cache) Protector(p Protector) Protector {
	if c == nil || p == nil {
		return p
	}
	return func(text string) (string, []string) {
		c.mu.Lock()
		v, ok := c.texts.Get(text)
		c.mu.Unlock()
		if !ok {
			out, flags := p(text)
			v = protected{out, flags}
			c.mu.Lock()
			c.bound()
			c.texts.Put(text, v)
			c.mu.Unlock()
		}
		return v.text, slices.Clone(v.flags)
	}
}

// bound sets the maps' bounds (a zero Cache is ready); c.mu is held.
func (c *Cache) bound() {
	if c.files.Size != nil {
		return
	}
	c.files.Limit, c.files.MaxSize = cacheFiles, cacheBytes
	c.files.Size = func(f *File) int { return len(f.Data) }
	c.texts.Limit, c.texts.MaxSize = cacheTexts, cacheBytes
	c.texts.Size = func(p protected) int { return len(p.text) }
}
