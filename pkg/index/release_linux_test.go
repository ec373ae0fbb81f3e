package index

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/rtch/rtch/pkg/match"
)

// TestKeeperReleaseHandsThePagesBack: after a view has read every page of
// the mapping, Release takes them out of the process's resident file
// pages, and the next view still answers as before.
func TestKeeperReleaseHandsThePagesBack(t *testing.T) {
	ix, files, _ := savedTree(t, nil, "net/http", "encoding/json", "strings")
	dir, fp := ix.dir, ix.fp
	var k Keeper
	t.Cleanup(k.Close)
	v, err := k.OpenFor("", Where{Dir: dir}, fp, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	m := match.New([]string{"request", "decode"})
	want := v.Words(m).refs
	sum := 0
	for _, b := range v.data {
		sum += int(b)
	}
	v.Close()
	before := rssFileKB(t)
	k.Release()
	after := rssFileKB(t)
	if mapped := len(v.data) / 1024; before-after < mapped/2 {
		t.Fatalf("Release took %d KB of %d KB mapped out of the resident set (%d -> %d KB)", before-after, mapped, before, after)
	}
	v2, err := k.OpenFor("", Where{Dir: dir}, fp, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer v2.Close()
	if got := v2.Words(m).refs; len(got) != len(want) || sum == 0 {
		t.Fatalf("after Release the dictionary answers %d refs, before %d", len(got), len(want))
	}
	if _, ok := v2.Lookup(files[0]); !ok {
		t.Fatal("after Release an entry is not answered for")
	}
}

// rssFileKB is the process's resident file-backed memory (RssFile).
func rssFileKB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// TestReadsLeaveFewEntriesResident: reading every entry of a mapping,
// as a question whose terms are in every file does, leaves at most about
// entryPagesKept of them resident, not the index's size; every entry
// still decodes.
func TestReadsLeaveFewEntriesResident(t *testing.T) {
	ix, files, _ := savedTree(t, nil, "net/http", "encoding/json", "strings", "go")
	defer func(n int64) { entryPagesKept = n }(entryPagesKept)
	entryPagesKept = 256 << 10
	open := mappingRSSKB(t, ix.data) // the table, checked at open
	peak := open
	for i, f := range files {
		if _, ok := ix.Lookup(f); !ok {
			t.Fatalf("%s: not answered for", f.Path)
		}
		if i%16 == 0 {
			peak = max(peak, mappingRSSKB(t, ix.data))
		}
	}
	mapped := len(ix.data) / 1024
	t.Logf("mapped %d KB, %d KB resident at open, at most %d KB while every entry was read", mapped, open, peak)
	if peak-open > (mapped-open)/3 {
		t.Fatalf("reading every entry left %d KB of a %d KB mapping resident (%d KB at open)", peak, mapped, open)
	}
}

// mappingRSSKB is the resident size of the mapping holding data
// (/proc/self/smaps).
func mappingRSSKB(t *testing.T, data []byte) int {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	start := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			lo, _, _ := strings.Cut(f[0], "-")
			a, _ := strconv.ParseUint(lo, 16, 64)
			in = a == start
			continue
		}
		if v, ok := strings.CutPrefix(l, "Rss:"); ok && in {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	t.Fatal("the mapping is not in /proc/self/smaps")
	return 0
}

// TestCheckedDictionariesLeaveTheirPages: checking a dictionary reads it
// whole; its pages then leave the resident set (a query faults in what it
// reads again), and it answers the same after.
func TestCheckedDictionariesLeaveTheirPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	data := map[string][]byte{}
	for i := range 2000 {
		var b []byte
		for range 400 {
			b = fmt.Appendf(b, "w%d ", rng.IntN(5000))
		}
		data[fmt.Sprintf("f%04d.txt", i)] = append(b, "request decode\n"...)
	}
	ix, _ := savedFiles(t, nil, data)
	m := match.New([]string{"request", "decode"})
	if ix.dict() == nil {
		t.Fatal("no dictionary")
	}
	present, pages := presentPages(t, ix.words.b)
	t.Logf("%d of the dictionary's %d pages resident after its check", present, pages)
	if pages < 64 || present > pages/8 {
		t.Fatalf("checking the dictionary left %d of its %d pages resident", present, pages)
	}
	got, want := len(ix.Words(m).refs), 2*2000
	if got != want {
		t.Fatalf("the dictionary answers %d refs after its pages left, want %d", got, want)
	}
}

// presentPages counts the pages of b mapped in the process
// (/proc/self/pagemap: bit 63 of each page's word), and its pages.
func presentPages(t *testing.T, b []byte) (present, pages int) {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	ps := uintptr(os.Getpagesize())
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))) / ps
	hi := (uintptr(unsafe.Pointer(unsafe.SliceData(b))) + uintptr(len(b)) + ps - 1) / ps
	words := make([]byte, 8*(hi-lo))
	if _, err := f.ReadAt(words, int64(8*lo)); err != nil {
		t.Skip(err)
	}
	for k := 0; k < len(words); k += 8 {
		if words[k+7]&0x80 != 0 {
			present++
		}
	}
	return present, int(hi - lo)
}
