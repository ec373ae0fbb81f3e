package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// git runs git on gitDir and returns its standard output.
func git(gitDir string, args ...string) ([]byte, error) {
	c := exec.Command("git", append([]string{"--git-dir", gitDir, "-c", "core.quotePath=false"}, args...)...)
	var errb bytes.Buffer
	c.Stderr = &errb
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out, nil
}

// fileChange is one file a commit touched, from git's --raw and --numstat.
type fileChange struct {
	Path   string
	Status byte // M, A, D, T (--no-renames: no R or C)
	// Old and New are the blob names before and after.
	Old, New string
	// Added and Deleted are the numstat line counts, filled by lineCounts
	// for the files that may be gold; -1 for a binary file.
	Added, Deleted int
}

// commitInfo is one commit of the log.
type commitInfo struct {
	Hash    string
	Parents []string
	Author  string
	Email   string
	Message string
	Files   []fileChange
}

// logFormat separates commits by 0x1e and a commit's header fields by
// 0x1f; the --raw lines follow the last field. The log reads no blob (a
// mirror may lack the largest ones), so line counts come later, for the
// commits that pass the other rules (lineCounts).
const logFormat = "--format=%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%B%x1f"

// logCommits reads the commits reachable from head (all of them with
// args "", or the one commit with args "-1"), with the files each touched,
// in one git process, and calls fn for each in git's order (newest first).
func logCommits(gitDir, head string, one bool, fn func(commitInfo) error) error {
	args := []string{"log", "--no-renames", "--raw", "--no-abbrev", logFormat}
	if one {
		args = append(args, "-1")
	}
	args = append(args, head, "--")
	c := exec.Command("git", append([]string{"--git-dir", gitDir, "-c", "core.quotePath=false"}, args...)...)
	var errb bytes.Buffer
	c.Stderr = &errb
	out, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return err
	}
	perr := parseLog(out, fn)
	if perr != nil {
		c.Process.Kill()
		c.Wait()
		return perr
	}
	if err := c.Wait(); err != nil {
		return fmt.Errorf("git log %s: %v: %s", head, err, strings.TrimSpace(errb.String()))
	}
	return nil
}

// parseLog splits git log's output (logFormat with --raw) into
// commits.
func parseLog(r io.Reader, fn func(commitInfo) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var pending []byte
	flush := func() error {
		if len(bytes.TrimSpace(pending)) == 0 {
			return nil
		}
		c, err := parseCommit(pending)
		if err != nil {
			return err
		}
		return fn(c)
	}
	for {
		chunk, err := br.ReadBytes(0x1e)
		if len(chunk) > 0 && chunk[len(chunk)-1] == 0x1e {
			pending = append(pending, chunk[:len(chunk)-1]...)
			if ferr := flush(); ferr != nil {
				return ferr
			}
			pending = pending[:0]
		} else {
			pending = append(pending, chunk...)
		}
		if err == io.EOF {
			return flush()
		}
		if err != nil {
			return err
		}
	}
}

// parseCommit reads one commit's header fields and file lines.
func parseCommit(b []byte) (commitInfo, error) {
	f := bytes.SplitN(b, []byte{0x1f}, 6)
	if len(f) != 6 {
		return commitInfo{}, fmt.Errorf("git log: a commit record with %d fields", len(f))
	}
	c := commitInfo{Hash: string(f[0]), Parents: strings.Fields(string(f[1])), Author: string(f[2]), Email: string(f[3]),
		Message: string(f[4])}
	for _, line := range strings.Split(string(f[5]), "\n") {
		if line == "" {
			continue
		}
		// :100644 100644 OLD NEW M\tpath
		meta, p, ok := strings.Cut(line, "\t")
		fs := strings.Fields(meta)
		if !ok || !strings.HasPrefix(line, ":") || len(fs) < 5 || fs[4] == "" {
			return c, fmt.Errorf("git log %s: raw line %q", c.Hash, line)
		}
		c.Files = append(c.Files, fileChange{Path: p, Status: fs[4][0], Old: fs[2], New: fs[3]})
	}
	return c, nil
}

// lineCounts fills Added and Deleted of the files named in paths from
// `git diff --numstat`; missing is true when the mirror lacks one of their
// blobs (it keeps none of the largest files).
func lineCounts(gitDir string, bc *blobReader, c *commitInfo, paths []string) (missing bool, err error) {
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	for _, f := range c.Files {
		if !want[f.Path] {
			continue
		}
		for _, b := range []string{f.Old, f.New} {
			ok, err := bc.exists(b)
			if err != nil {
				return false, err
			}
			if !ok {
				return true, nil
			}
		}
	}
	out, err := git(gitDir, append([]string{"diff", "--numstat", "--no-renames", c.Parents[0], c.Hash, "--"}, paths...)...)
	if err != nil {
		return false, err
	}
	at := map[string]int{}
	for i, f := range c.Files {
		at[f.Path] = i
	}
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		i, ok := at[parts[len(parts)-1]]
		if len(parts) != 3 || !ok {
			return false, fmt.Errorf("git diff --numstat %s: line %q", c.Hash, line)
		}
		c.Files[i].Added, c.Files[i].Deleted = count(parts[0]), count(parts[1])
	}
	return false, nil
}

// count is a numstat count; "-" (a binary file) is -1.
func count(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// blobReader reads blobs of one repository through a long-lived
// `git cat-file --batch`.
type blobReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// newBlobReader starts `git cat-file --batch`, or --batch-check with check.
func newBlobReader(gitDir string, check bool) (*blobReader, error) {
	mode := "--batch"
	if check {
		mode = "--batch-check"
	}
	c := exec.Command("git", "--git-dir", gitDir, "cat-file", mode)
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, err
	}
	return &blobReader{cmd: c, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// exists reports whether the object named rev is in the repository, by
// `git cat-file --batch-check` (a blobReader made with check).
func (b *blobReader) exists(rev string) (bool, error) {
	if _, err := fmt.Fprintln(b.in, rev); err != nil {
		return false, err
	}
	head, err := b.out.ReadString('\n')
	if err != nil {
		return false, err
	}
	return !strings.HasSuffix(strings.TrimSpace(head), " missing"), nil
}

// read returns the object named rev ("COMMIT:path"); ok is false when it
// does not exist.
func (b *blobReader) read(rev string) (data []byte, ok bool, err error) {
	if _, err := fmt.Fprintln(b.in, rev); err != nil {
		return nil, false, err
	}
	head, err := b.out.ReadString('\n')
	if err != nil {
		return nil, false, err
	}
	fs := strings.Fields(head)
	if len(fs) == 2 && fs[1] == "missing" {
		return nil, false, nil
	}
	if len(fs) != 3 {
		return nil, false, fmt.Errorf("git cat-file: header %q for %s", strings.TrimSpace(head), rev)
	}
	n, err := strconv.Atoi(fs[2])
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: size in %q", strings.TrimSpace(head))
	}
	data = make([]byte, n+1) // the object and its trailing newline
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, false, err
	}
	return data[:n], true, nil
}

func (b *blobReader) close() {
	b.in.Close()
	b.cmd.Wait()
}
