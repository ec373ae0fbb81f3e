//go:build unix

package main

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// measureStores writes the span postings to a SQLite table and to a flat
// file, then opens each afresh and looks the terms up by prefix, reporting
// write time, size and the median lookup time of five rounds, and checking
// both stores return the same files.
func measureStores(dir string, post map[string][]int, keys []string, terms []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	blobs := make([][]byte, len(keys))
	for i, k := range keys {
		blobs[i] = deltas(post[k])
	}
	dbPath, flatPath := filepath.Join(dir, "spans.sqlite"), filepath.Join(dir, "spans.flat")
	os.Remove(dbPath)
	t0 := time.Now()
	if err := writeSQLite(dbPath, keys, blobs); err != nil {
		return err
	}
	tSQL := time.Since(t0)
	t0 = time.Now()
	if err := os.WriteFile(flatPath, flatFile(keys, blobs), 0o644); err != nil {
		return err
	}
	tFlat := time.Since(t0)
	words := make([]string, len(terms))
	for i, t := range terms {
		words[i] = capSpan(strings.ToLower(t))
	}
	sqlNS, sqlIDs, err := rounds(func() (int, error) { return lookupSQLite(dbPath, words) })
	if err != nil {
		return err
	}
	flatNS, flatIDs, err := rounds(func() (int, error) { return lookupFlat(flatPath, words) })
	if err != nil {
		return err
	}
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			return -1
		}
		return fi.Size()
	}
	fmt.Printf("store\twrite\tsize\topen + look up %d terms (median of 5)\tfile ids returned\n", len(terms))
	fmt.Printf("sqlite\t%.2f s\t%d bytes\t%.2f ms\t%d\n", tSQL.Seconds(), size(dbPath), float64(sqlNS)/1e6, sqlIDs)
	fmt.Printf("flat (mmap)\t%.2f s\t%d bytes\t%.2f ms\t%d\n", tFlat.Seconds(), size(flatPath), float64(flatNS)/1e6, flatIDs)
	if sqlIDs != flatIDs {
		return fmt.Errorf("the stores disagree: %d and %d file ids", sqlIDs, flatIDs)
	}
	return nil
}

func deltas(ids []int) []byte {
	var b []byte
	prev := -1
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id-prev))
		prev = id
	}
	return b
}

// rounds runs fn five times and returns the median time and fn's count.
func rounds(fn func() (int, error)) (int64, int, error) {
	var ns []int64
	n := 0
	for i := 0; i < 5; i++ {
		t := time.Now()
		c, err := fn()
		if err != nil {
			return 0, 0, err
		}
		ns = append(ns, time.Since(t).Nanoseconds())
		n = c
	}
	sort.Slice(ns, func(a, b int) bool { return ns[a] < ns[b] })
	return ns[2], n, nil
}

func writeSQLite(path string, keys []string, blobs [][]byte) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(DELETE)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE TABLE spans (key TEXT PRIMARY KEY, ids BLOB) WITHOUT ROWID"); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO spans VALUES (?, ?)")
	if err != nil {
		return err
	}
	for i, k := range keys {
		if _, err := st.ExecContext(ctx, k, blobs[i]); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// lookupSQLite opens the database and counts the file ids under each
// word's prefix range.
func lookupSQLite(path string, words []string) (int, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	for _, w := range words {
		rows, err := db.Query("SELECT ids FROM spans WHERE key >= ? AND key < ?", w, w+"\xff")
		if err != nil {
			return 0, err
		}
		for rows.Next() {
			var b []byte
			if err := rows.Scan(&b); err != nil {
				rows.Close()
				return 0, err
			}
			n += countIDs(b)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func countIDs(b []byte) int {
	n := 0
	for len(b) > 0 {
		_, k := binary.Uvarint(b)
		if k <= 0 {
			break
		}
		b = b[k:]
		n++
	}
	return n
}

// flatFile lays out: key count, key offsets, keys, blob offsets, blobs
// (offsets as little-endian uint32, each table one entry longer than the
// keys).
func flatFile(keys []string, blobs [][]byte) []byte {
	var keyArea, blobArea []byte
	keyOff := make([]uint32, 0, len(keys)+1)
	blobOff := make([]uint32, 0, len(keys)+1)
	for i, k := range keys {
		keyOff = append(keyOff, uint32(len(keyArea)))
		keyArea = append(keyArea, k...)
		blobOff = append(blobOff, uint32(len(blobArea)))
		blobArea = append(blobArea, blobs[i]...)
	}
	keyOff = append(keyOff, uint32(len(keyArea)))
	blobOff = append(blobOff, uint32(len(blobArea)))
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(keys)))
	for _, o := range keyOff {
		out = binary.LittleEndian.AppendUint32(out, o)
	}
	out = append(out, keyArea...)
	for _, o := range blobOff {
		out = binary.LittleEndian.AppendUint32(out, o)
	}
	return append(out, blobArea...)
}

// lookupFlat maps the flat file and counts the file ids under each word's
// prefix range, found by binary search.
func lookupFlat(path string, words []string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return 0, err
	}
	defer syscall.Munmap(m)
	nk := int(binary.LittleEndian.Uint32(m))
	u32 := func(at int) int { return int(binary.LittleEndian.Uint32(m[at:])) }
	keyTab := 4
	keyArea := keyTab + 4*(nk+1)
	blobTab := keyArea + u32(keyTab+4*nk)
	blobArea := blobTab + 4*(nk+1)
	key := func(i int) string { return string(m[keyArea+u32(keyTab+4*i) : keyArea+u32(keyTab+4*(i+1))]) }
	n := 0
	for _, w := range words {
		for i := sort.Search(nk, func(i int) bool { return key(i) >= w }); i < nk && strings.HasPrefix(key(i), w); i++ {
			n += countIDs(m[blobArea+u32(blobTab+4*i) : blobArea+u32(blobTab+4*(i+1))])
		}
	}
	return n, nil
}
