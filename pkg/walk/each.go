package walk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/rtch/rtch/pkg/pathenc"
)

// Each reads every file once, in parallel (o.Workers goroutines), and
// calls fn with the raw bytes of each text file. fn may be called
// concurrently and may keep data (each file gets its own buffer), unless
// o.ReuseBuffers is set: then data is valid only until fn returns. Files
// that are binary, Git LFS pointers, unreadable, vanished since the walk,
// replaced by a special file or symlink, or grown past the size cap are
// not passed to fn but reported to skip (and unreadable ones to o.Warn);
// skip is called after all reading is done, from one goroutine, in path
// order. The first error returned by fn stops the reading and is
// returned; so is ctx's error when it is cancelled.
func Each(ctx context.Context, o Options, files []File, fn func(f File, data []byte) error, skip func(Skip)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	max := o.maxSize()
	n := min(o.workers(), max1(len(files)))
	var next, done atomic.Int64
	// Files from one Files call share a root: open it once for openat2.
	var b beneath
	var root string
	if len(files) > 0 {
		root = rootOf(files[0])
		b = openBeneath(root)
		defer b.close()
	}
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	rs := make([]result, n)
	for i := range n {
		wg.Add(1)
		go func(r *result) {
			defer wg.Done()
			for ctx.Err() == nil {
				if o.Pace != nil {
					if o.Pace(ctx); ctx.Err() != nil {
						return
					}
				}
				k := int(next.Add(1) - 1)
				if k >= len(files) {
					return
				}
				f := files[k]
				fb := b
				if rootOf(f) != root {
					fb = openBeneath("") // a file from elsewhere: the plain way
				}
				data, s := readInto(fb, f, max, r.buf)
				if o.ReuseBuffers && cap(data) > cap(r.buf) {
					r.buf = data
				}
				if o.Progress != nil {
					o.Progress(int(done.Add(1)), len(files))
				}
				if s != nil {
					r.skips = append(r.skips, *s)
					if s.Reason == ReasonUnreadable {
						r.warns = append(r.warns, warning{f.Path, fmt.Sprintf("%s: unreadable, skipped: %s", quote(f.Path), s.Detail)})
					}
					continue
				}
				if err := fn(f, data); err != nil {
					once.Do(func() { firstErr = err })
					cancel()
					return
				}
			}
		}(&rs[i])
	}
	wg.Wait()
	var skips []Skip
	var warns []warning
	for _, r := range rs {
		skips = append(skips, r.skips...)
		warns = append(warns, r.warns...)
	}
	emit(&o, skips, warns, skip)
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// Read reads one file the way Each does and returns its bytes, or the
// skip that explains why it is not text. The file is opened without
// following a symlink and without blocking on a FIFO, checked to be a
// regular file of at most maxSize bytes by fstat on the open descriptor,
// and read with a bound, so a file swapped or grown after the walk is
// still caught. A maxSize of 0 means DefaultMaxFileSize.
func Read(f File, maxSize int64) ([]byte, *Skip) {
	b := openBeneath(rootOf(f))
	defer b.close()
	return readInto(b, f, maxSize, nil)
}

// rootOf recovers the walk root from a File: Abs is the root, a
// separator, and Path.
func rootOf(f File) string {
	rel := filepath.FromSlash(pathenc.Decode(f.Path))
	if len(f.Abs) > len(rel) && strings.HasSuffix(f.Abs, rel) && os.IsPathSeparator(f.Abs[len(f.Abs)-len(rel)-1]) {
		return f.Abs[:len(f.Abs)-len(rel)-1]
	}
	return ""
}

// readInto is Read with a buffer to reuse: when scratch has room for the
// file it is read there, otherwise into a new buffer of the file's size.
func readInto(b beneath, f File, maxSize int64, scratch []byte) ([]byte, *Skip) {
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	h, size, mode, err := b.open(f.Abs, filepath.FromSlash(pathenc.Decode(f.Path)))
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, &Skip{Path: f.Path, Reason: ReasonUnreadable, Detail: "vanished after the walk: " + errText(err)}
		case errors.Is(err, syscall.ELOOP):
			return nil, &Skip{Path: f.Path, Reason: ReasonSymlink, Detail: "it or a directory on its path was replaced by a symlink after the walk; not followed"}
		case errors.Is(err, syscall.EXDEV):
			return nil, &Skip{Path: f.Path, Reason: ReasonSymlinkEscape, Detail: "its path leads outside the root; not read"}
		case errors.Is(err, syscall.ENXIO):
			return nil, &Skip{Path: f.Path, Reason: ReasonSpecial, Detail: "replaced by a socket or device after the walk; not read"}
		}
		return nil, &Skip{Path: f.Path, Reason: ReasonUnreadable, Detail: errText(err)}
	}
	defer h.close()
	if !mode.IsRegular() {
		sk := special(f.Path, mode)
		return nil, &sk
	}
	if size > maxSize {
		return nil, &Skip{Path: f.Path, Reason: ReasonTooLarge, SizeBytes: size,
			Detail: fmt.Sprintf("%d bytes over the %d-byte cap; not read", size, maxSize)}
	}
	// One spare byte lets a file that has not grown end with a clean EOF
	// without reallocating; a file that grew is read up to the cap + 1.
	buf := scratch[:0]
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > maxSize {
				break
			}
			nb := make([]byte, len(buf), min(int64(2*cap(buf))+512, maxSize+1))
			copy(nb, buf)
			buf = nb
		}
		want := cap(buf) - len(buf)
		k, err := h.read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Skip{Path: f.Path, Reason: ReasonUnreadable, SizeBytes: size, Detail: errText(err)}
		}
		// A regular file's read comes back short only at its end: once the
		// size fstat gave is in, a short read needs no second read to
		// confirm it. Not for a size of 0: procfs, sysfs and some network
		// filesystems report 0 and hand out the content in short reads.
		if k < want && size > 0 && int64(len(buf)) == size {
			break
		}
	}
	if int64(len(buf)) > maxSize {
		return nil, &Skip{Path: f.Path, Reason: ReasonTooLarge, SizeBytes: int64(len(buf)),
			Detail: fmt.Sprintf("grew past the %d-byte cap while being read; not used", maxSize)}
	}
	if s := classify(f.Path, buf); s != nil {
		return nil, s
	}
	return buf, nil
}

// classify returns the skip for content that is not text.
func classify(path string, b []byte) *Skip {
	if IsLFSPointer(b) {
		detail := "Git LFS pointer; the content is not in the tree"
		for _, line := range bytes.Split(b, []byte("\n")) {
			if bytes.HasPrefix(line, []byte("oid ")) || bytes.HasPrefix(line, []byte("size ")) {
				detail += "; " + string(line)
			}
		}
		return &Skip{Path: path, Reason: ReasonLFSPointer, SizeBytes: int64(len(b)), Detail: detail}
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		detail := fmt.Sprintf("NUL byte at offset %d", i)
		if bytes.HasPrefix(b, []byte("\xff\xfe")) || bytes.HasPrefix(b, []byte("\xfe\xff")) {
			detail += "; UTF-16 byte-order mark, not transcoded"
		}
		return &Skip{Path: path, Reason: ReasonBinary, SizeBytes: int64(len(b)), Detail: detail}
	}
	return nil
}

// IsLFSPointer recognises a Git LFS pointer file: small (the spec caps
// pointers below 1024 bytes), starting with the spec's version line and
// carrying an oid line.
func IsLFSPointer(b []byte) bool {
	return len(b) < 1024 &&
		bytes.HasPrefix(b, []byte("version https://git-lfs.github.com/spec/")) &&
		bytes.Contains(b, []byte("\noid "))
}
