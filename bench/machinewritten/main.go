// Command machinewritten measures what a tree's machine-written files (lock
// files, source maps, minified bundles) cost a question: the lane
// (rtch-intake … rtch-packet) on a tree as committed and on the same tree
// without those files, in alternating rounds, optionally beside the lane
// of a reference build (--ref, the binaries of main). It prints every
// round and the medians of wall and CPU (user + system) seconds, and the
// ratio of the tree with the files to the tree without them (issue 40's
// target: at most 2).
//
// The tree is a commit of a bare mirror, extracted blob by blob (a blob
// the mirror lacks is left out and said), by default prometheus at
// 2a5dde2f, whose web UI holds package-lock.json files of about 800 KB and
// bootstrap source maps up to 650 KB:
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/machinewritten --bin /tmp/b --ref /tmp/main-bin --rounds 5
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rtch/rtch/bench/internal/timing"
)

// machineWritten reports whether a file of this name is written by a
// machine and read by none: what the reduced tree leaves out.
func machineWritten(name string) bool {
	switch name {
	case "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "go.sum", "Cargo.lock", "poetry.lock":
		return true
	}
	return strings.HasSuffix(name, ".map") || strings.HasSuffix(name, ".min.js") || strings.HasSuffix(name, ".min.css")
}

func main() {
	repo := flag.String("repo", "/work/.mirror/prometheus+prometheus/repo", "bare mirror of the repository")
	commit := flag.String("commit", "2a5dde2f", "commit whose tree is measured")
	bin := flag.String("bin", "", "directory of the binaries measured")
	ref := flag.String("ref", "", "directory of reference binaries (main's), measured beside")
	goal := flag.String("goal", "Fix div by 0 panic is resize function", "the question")
	rounds := flag.Int("rounds", 5, "alternating rounds")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "machinewritten: error: --bin is required")
		os.Exit(2)
	}
	if err := run(*repo, *commit, *bin, *ref, *goal, *rounds); err != nil {
		fmt.Fprintf(os.Stderr, "machinewritten: error: %v\n", err)
		os.Exit(1)
	}
}

func run(repo, commit, bin, ref, goal string, rounds int) error {
	tmp, err := os.MkdirTemp("", "machinewritten-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	with, without := filepath.Join(tmp, "with"), filepath.Join(tmp, "without")
	n, left, err := extract(repo, commit, with, without)
	if err != nil {
		return err
	}
	fmt.Printf("tree %s at %s: %d files, %d machine-written left out of the reduced tree\n", filepath.Base(filepath.Dir(repo)), commit, n, left)
	bins := map[string]string{"new": bin}
	names := []string{"new"}
	if ref != "" {
		bins["ref"] = ref
		names = append(names, "ref")
	}
	samples := map[string][]timing.Sample{}
	for r := 1; r <= rounds; r++ {
		for _, b := range names {
			for _, tree := range []string{"without", "with"} {
				s, err := timing.Time(nil, timing.Lane(bins[b], filepath.Join(tmp, tree), goal, "the function is hydrated", "md")...)
				if err != nil {
					return err
				}
				key := b + " " + tree
				samples[key] = append(samples[key], s)
				fmt.Printf("round %d  %-12s wall %6.2f s  cpu %6.2f s\n", r, key, s.Wall, s.CPU)
			}
		}
	}
	fmt.Println("medians:")
	for _, b := range names {
		w, wo := samples[b+" with"], samples[b+" without"]
		fmt.Printf("  %s: without %.2f s wall %.2f s cpu; with %.2f s wall %.2f s cpu; with/without cpu %.2f (paired %.2f)\n",
			b, timing.Median(wo, timing.Wall), timing.Median(wo, timing.CPU), timing.Median(w, timing.Wall), timing.Median(w, timing.CPU),
			timing.Median(w, timing.CPU)/timing.Median(wo, timing.CPU), timing.PairRatio(w, wo, timing.CPU))
	}
	return nil
}

// extract writes the tree of commit into with, and into without all but
// its machine-written files; it returns the files written and how many
// were left out of without.
func extract(repo, commit, with, without string) (int, int, error) {
	out, err := exec.Command("git", "--git-dir", repo, "ls-tree", "-r", "-z", commit).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("git ls-tree %s: %v", commit, err)
	}
	cat := exec.Command("git", "--git-dir", repo, "cat-file", "--batch")
	in, _ := cat.StdinPipe()
	pipe, _ := cat.StdoutPipe()
	if err := cat.Start(); err != nil {
		return 0, 0, err
	}
	defer cat.Wait()
	defer in.Close()
	rd := bufio.NewReader(pipe)
	n, left := 0, 0
	for _, ent := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		meta, path, ok := strings.Cut(string(ent), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || f[0] == "120000" || f[0] == "160000" {
			continue
		}
		fmt.Fprintln(in, f[2])
		hdr, err := rd.ReadString('\n')
		if err != nil {
			return 0, 0, err
		}
		h := strings.Fields(hdr)
		if len(h) == 2 && h[1] == "missing" {
			fmt.Printf("left out (not in the mirror): %s\n", path)
			continue
		}
		size, err := strconv.Atoi(h[len(h)-1])
		if err != nil {
			return 0, 0, fmt.Errorf("git cat-file: %q", hdr)
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(rd, data); err != nil {
			return 0, 0, err
		}
		dirs := []string{with}
		if machineWritten(filepath.Base(path)) {
			left++
		} else {
			dirs = append(dirs, without)
		}
		for _, d := range dirs {
			p := filepath.Join(d, filepath.FromSlash(path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return 0, 0, err
			}
			if err := os.WriteFile(p, data[:size], 0o644); err != nil {
				return 0, 0, err
			}
		}
		n++
	}
	return n, left, nil
}
