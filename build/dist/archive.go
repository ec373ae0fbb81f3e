package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"sort"
	"time"
)

// entry is one file of an archive.
type entry struct {
	// name is the path inside the archive, with forward slashes.
	name string
	// mode is the permission bits.
	mode fs.FileMode
	data []byte
}

// sortEntries orders entries by name: the archive's order depends on its
// contents alone.
func sortEntries(es []entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
}

// tarGz writes es as a gzip-compressed tar with every header fixed: the
// given time, owner root, no user or group names, and no gzip name or time.
func tarGz(w io.Writer, es []entry, when time.Time) error {
	sortEntries(es)
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	for _, e := range es {
		h := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     e.name,
			Mode:     int64(e.mode),
			Size:     int64(len(e.data)),
			ModTime:  when,
			Format:   tar.FormatPAX,
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// zipArchive writes es as a zip with every entry's time fixed.
func zipArchive(w io.Writer, es []entry, when time.Time) error {
	sortEntries(es)
	zw := zip.NewWriter(w)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: when.UTC()}
		h.SetMode(e.mode)
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, bytes.NewReader(e.data)); err != nil {
			return err
		}
	}
	return zw.Close()
}
