// Command postings measures posting schemes for the tree index of issue 17
// on a real tree, before one is built into the index: folded byte trigrams,
// folded identifier tokens (words and camelCase parts), and spans (from
// every place pkg/match may start a term to the word's end, -span-cap
// cutting them). For each scheme it reports the build time, the number of keys and postings, the size of the postings
// written as delta-coded uvarints, and, for the terms given, how many files
// the postings leave to read against how many the lane's matcher
// (pkg/match) really matches, and how many of those the postings would miss
// (a sound prefilter misses none).
//
//	go run ./bench/postings [-span-cap 16] -root "$(go env GOROOT)/src" command runnable parse …
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/walk"
)

func main() {
	root := flag.String("root", ".", "the tree to measure")
	flag.IntVar(&spanCap, "span-cap", 0, "cut span keys (and looked-up words) to this many bytes; 0 keeps them whole")
	flag.StringVar(&storeDir, "store", "", "also write the span postings to a SQLite table and a flat file in `DIR` and time looking the terms up in each")
	flag.Parse()
	terms := flag.Args()
	if err := run(*root, terms); err != nil {
		fmt.Fprintln(os.Stderr, "postings:", err)
		os.Exit(1)
	}
}

// file is what one file contributes.
type file struct {
	grams   []uint32 // distinct folded trigrams
	tokens  []string // distinct folded tokens
	spans   []string // distinct folded spans from each possible term start to the word's end
	matched []bool   // per term: the matcher finds it
	bytes   int
	occ     int // token occurrences (words and their parts)
}

func run(root string, terms []string) error {
	ctx := context.Background()
	o := walk.Options{Root: root, MaxFileSize: 1 << 20}
	files, err := walk.Files(ctx, o, nil)
	if err != nil {
		return err
	}
	m := match.New(terms)
	index := map[string]int{}
	for i, f := range files {
		index[f.Path] = i
	}
	out := make([]*file, len(files))
	var gramNS, tokNS, matchNS int64
	var mu sync.Mutex
	t0 := time.Now()
	err = walk.Each(ctx, o, files, func(f walk.File, data []byte) error {
		fo := &file{bytes: len(data), matched: make([]bool, len(terms))}
		a := time.Now()
		fo.grams = trigrams(data)
		b := time.Now()
		fo.tokens, fo.occ = tokens(data)
		fo.spans = spans(data)
		c := time.Now()
		m.Scan(data, func(t, s, e int) bool {
			if t < len(terms) {
				fo.matched[t] = true
			}
			return true
		})
		d := time.Now()
		mu.Lock()
		gramNS += b.Sub(a).Nanoseconds()
		tokNS += c.Sub(b).Nanoseconds()
		matchNS += d.Sub(c).Nanoseconds()
		mu.Unlock()
		out[index[f.Path]] = fo
		return nil
	}, nil)
	if err != nil {
		return err
	}
	wall := time.Since(t0)
	var total int64
	read := 0
	for _, fo := range out {
		if fo != nil {
			total += int64(fo.bytes)
			read++
		}
	}
	fmt.Printf("tree %s: %d files read, %d bytes; pass %.2f s wall\n", root, read, total, wall.Seconds())
	fmt.Printf("cpu per scheme over all files: trigrams %.2f s, tokens %.2f s, the matcher (%d terms) %.2f s\n",
		float64(gramNS)/1e9, float64(tokNS)/1e9, len(terms), float64(matchNS)/1e9)
	gramPost := map[uint32][]int{}
	tokPost := map[string][]int{}
	spanPost := map[string][]int{}
	for i, fo := range out {
		if fo == nil {
			continue
		}
		for _, g := range fo.grams {
			gramPost[g] = append(gramPost[g], i)
		}
		for _, t := range fo.tokens {
			tokPost[t] = append(tokPost[t], i)
		}
		for _, t := range fo.spans {
			spanPost[t] = append(spanPost[t], i)
		}
	}
	gn, gs := postingStats(gramPost)
	tn, ts := postingStats(tokPost)
	fmt.Printf("trigrams: %d keys, %d postings, %d bytes as delta uvarints (%.1f%% of the tree)\n", len(gramPost), gn, gs, 100*float64(gs)/float64(total))
	var keyBytes int
	for k := range tokPost {
		keyBytes += len(k) + 1
	}
	fmt.Printf("tokens: %d keys (%d bytes of keys), %d postings, %d bytes as delta uvarints (%.1f%% of the tree)\n", len(tokPost), keyBytes, tn, ts, 100*float64(ts+keyBytes)/float64(total))
	sn, ss := postingStats(spanPost)
	var spanKeyBytes int
	for k := range spanPost {
		spanKeyBytes += len(k) + 1
	}
	fmt.Printf("spans: %d keys (%d bytes of keys), %d postings, %d bytes as delta uvarints (%.1f%% of the tree)\n", len(spanPost), spanKeyBytes, sn, ss, 100*float64(ss+spanKeyBytes)/float64(total))
	dict := sortedKeys(tokPost)
	spanDict := sortedKeys(spanPost)
	fmt.Println("term\tmatched files\ttrigram candidates\ttrigram misses\ttoken candidates\ttoken misses\tspan candidates\tspan misses")
	allM, allG, allT, allS := map[int]bool{}, map[int]bool{}, map[int]bool{}, map[int]bool{}
	for ti, t := range terms {
		g := gramCandidates(t, gramPost, out)
		k := tokenCandidates(t, dict, tokPost, out)
		sp := tokenCandidates(capSpan(t), spanDict, spanPost, out)
		nm, gm, km, sm := 0, 0, 0, 0
		for i, fo := range out {
			if fo == nil || !fo.matched[ti] {
				continue
			}
			nm++
			allM[i] = true
			if !g[i] {
				gm++
			}
			if !k[i] {
				km++
			}
			if !sp[i] {
				sm++
			}
		}
		for i := range sp {
			allS[i] = true
		}
		for i := range g {
			allG[i] = true
		}
		for i := range k {
			allT[i] = true
		}
		fmt.Printf("%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", t, nm, len(g), gm, len(k), km, len(sp), sm)
	}
	fmt.Printf("any term\t%d\t%d\t\t%d\t\t%d\n", len(allM), len(allG), len(allT), len(allS))
	size := func(set map[int]bool) (n int64) {
		for i := range set {
			n += int64(out[i].bytes)
		}
		return n
	}
	fmt.Printf("bytes to read for any term: matched %d (%.0f%%), trigram candidates %d (%.0f%%), token candidates %d (%.0f%%), span candidates %d (%.0f%%)\n",
		size(allM), 100*float64(size(allM))/float64(total), size(allG), 100*float64(size(allG))/float64(total), size(allT), 100*float64(size(allT))/float64(total),
		size(allS), 100*float64(size(allS))/float64(total))
	occ := 0
	for _, fo := range out {
		if fo != nil {
			occ += fo.occ
		}
	}
	fmt.Printf("token occurrences (words and camelCase parts): %d, %.2f per byte of the tree\n", occ, float64(occ)/float64(total))
	if storeDir != "" {
		return measureStores(storeDir, spanPost, spanDict, terms)
	}
	return nil
}

func sortedKeys(p map[string][]int) []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func postingStats[K comparable](p map[K][]int) (n, size int) {
	var buf [binary.MaxVarintLen64]byte
	for _, ids := range p {
		prev := -1
		for _, id := range ids {
			size += binary.PutUvarint(buf[:], uint64(id-prev))
			prev = id
		}
		n += len(ids)
	}
	return n, size
}

func fold(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// trigrams are the distinct trigrams of the ASCII-folded bytes.
func trigrams(data []byte) []uint32 {
	seen := map[uint32]struct{}{}
	for i := 0; i+3 <= len(data); i++ {
		g := uint32(fold(data[i]))<<16 | uint32(fold(data[i+1]))<<8 | uint32(fold(data[i+2]))
		seen[g] = struct{}{}
	}
	out := make([]uint32, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	return out
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b >= 0x80
}

// words calls fn with each word of data: a run of ASCII letters and digits
// and non-ASCII bytes.
func words(data []byte, fn func(w []byte)) {
	for i := 0; i < len(data); {
		if !isAlnum(data[i]) {
			i++
			continue
		}
		j := i
		for j < len(data) && isAlnum(data[j]) {
			j++
		}
		fn(data[i:j])
		i = j
	}
}

func setKeys(seen map[string]struct{}) []string {
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	return out
}

// tokens are the distinct folded words and the camelCase parts of each,
// and the number of occurrences of both.
func tokens(data []byte) ([]string, int) {
	seen := map[string]struct{}{}
	occ := 0
	words(data, func(w []byte) {
		seen[strings.ToLower(string(w))] = struct{}{}
		occ++
		start := 0
		for k := 1; k <= len(w); k++ {
			hump := k < len(w) && 'A' <= w[k] && w[k] <= 'Z' && 'a' <= w[k-1] && w[k-1] <= 'z'
			if k == len(w) || hump {
				if start > 0 || k < len(w) {
					seen[strings.ToLower(string(w[start:k]))] = struct{}{}
					occ++
				}
				start = k
			}
		}
	})
	return setKeys(seen), occ
}

// gramCandidates are the files holding every trigram of the term or of one
// of its variants; a term shorter than three bytes leaves every file.
func gramCandidates(t string, post map[uint32][]int, out []*file) map[int]bool {
	cands := map[int]bool{}
	for _, v := range append([]string{match.Fold(t)}, match.Variants(t)...) {
		if len(v) < 3 {
			for i, fo := range out {
				if fo != nil {
					cands[i] = true
				}
			}
			return cands
		}
		var set map[int]bool
		for i := 0; i+3 <= len(v); i++ {
			g := uint32(v[i])<<16 | uint32(v[i+1])<<8 | uint32(v[i+2])
			next := map[int]bool{}
			for _, id := range post[g] {
				if set == nil || set[id] {
					next[id] = true
				}
			}
			set = next
		}
		for id := range set {
			cands[id] = true
		}
	}
	return cands
}

// tokenCandidates are the files holding a token that starts with each word
// of the term (a prefix, so plurals and other suffixes still match).
func tokenCandidates(t string, dict []string, post map[string][]int, out []*file) map[int]bool {
	var set map[int]bool
	for _, w := range strings.FieldsFunc(match.Fold(t), func(r rune) bool { return r < 0x80 && !isAlnum(byte(r)) }) {
		next := map[int]bool{}
		for k := sort.SearchStrings(dict, w); k < len(dict) && strings.HasPrefix(dict[k], w); k++ {
			for _, id := range post[dict[k]] {
				if set == nil || set[id] {
					next[id] = true
				}
			}
		}
		set = next
	}
	return set
}

// storeDir, when set, is where measureStores writes.
var storeDir string

// spanCap cuts span keys; a word longer than it is looked up by its first
// spanCap bytes, which keeps the lookup sound.
var spanCap int

func capSpan(s string) string {
	if spanCap > 0 && len(s) > spanCap {
		return s[:spanCap]
	}
	return s
}

func isUpperB(b byte) bool { return 'A' <= b && b <= 'Z' }
func isLowerB(b byte) bool { return 'a' <= b && b <= 'z' }
func isDigitB(b byte) bool { return '0' <= b && b <= '9' }

// spans are, for every place in a word where pkg/match may start a term
// (the word's start, a lower-to-upper hump, the last capital of a capital
// run followed by a lower-case letter, a letter after a digit), the folded
// rest of the word from there. A term can then be looked up by prefix, so
// plurals, humps inside the term (goAway for goaway) and longer names
// (WriteGoAway) are all found; '_' and '.' end a word, so each part after
// them starts its own spans.
func spans(data []byte) []string {
	seen := map[string]struct{}{}
	words(data, func(w []byte) {
		for k := range w {
			start := k == 0 ||
				isUpperB(w[k]) && !isUpperB(w[k-1]) ||
				isUpperB(w[k]) && k+1 < len(w) && isLowerB(w[k+1]) ||
				!isDigitB(w[k]) && isDigitB(w[k-1])
			if start {
				seen[capSpan(strings.ToLower(string(w[k:])))] = struct{}{}
			}
		}
	})
	return setKeys(seen)
}
