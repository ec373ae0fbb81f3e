package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"syscall"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// Rehydration statuses, from best to worst; Overall is the worst of a packet's.
const (
	Refreshed           = "refreshed"
	EffectiveRecordHold = "effective_record_hold"
	DriftDetected       = "drift_detected"
	Superseded          = "superseded"
	FailedRehydration   = "failed_rehydration"
)

var severity = map[string]int{Refreshed: 0, EffectiveRecordHold: 1, DriftDetected: 2, Superseded: 3, FailedRehydration: 4}

// Worse tells whether status a is worse than b.
func Worse(a, b string) bool { return severity[a] > severity[b] }

// RehydrateOptions configure a rehydration.
type RehydrateOptions struct {
	// Root is the absolute zone root the packet's paths are relative to.
	Root string
	// PacketPath is recorded in the result.
	PacketPath string
	// MaxFileSize is the largest file read (bytes).
	MaxFileSize int64
	// MaxLineRunes must match hydration's so re-located lines compare equal.
	MaxLineRunes int
}

// Rehydrate re-reads every chunk of a packet and says, per chunk and overall,
// whether it still holds: refreshed (same bytes), drift_detected (changed; the
// range is re-located when the content moved), superseded (file gone, or its
// row corrected since), failed_rehydration (unreadable, or the range is gone
// and its content nowhere), or effective_record_hold (an effective view, which
// only the gate can re-derive).
func Rehydrate(p *schema.Packet, o RehydrateOptions) schema.Rehydrate {
	out := schema.Rehydrate{
		Envelope:   record.Env(schema.KindRehydrate, schema.V1, p.PacketID, o.PacketPath),
		PacketID:   p.PacketID,
		PacketPath: o.PacketPath,
		ZoneRoot:   o.Root,
		Overall:    Refreshed,
		Counts:     map[string]int{},
		Chunks:     []schema.RehydratedChunk{},
	}
	files := map[string]*File{}
	ferrs := map[string]error{}
	for _, c := range p.HydratedChunks {
		rc := rehydrateChunk(p, c, o, files, ferrs)
		out.Chunks = append(out.Chunks, rc)
		out.Counts[rc.Status]++
		if severity[rc.Status] > severity[out.Overall] {
			out.Overall = rc.Status
		}
	}
	return out
}

func rehydrateChunk(p *schema.Packet, c schema.Chunk, o RehydrateOptions, files map[string]*File, ferrs map[string]error) schema.RehydratedChunk {
	rc := schema.RehydratedChunk{ChunkID: c.ChunkID, Path: c.Path, LineRange: c.LineRange, OldSHA256: c.SHA256}
	f, ok := files[c.Path]
	err := ferrs[c.Path]
	if !ok && err == nil {
		rel, cerr := CleanRel(o.Root, c.Path)
		if cerr != nil {
			err = cerr
		} else {
			f, err = ReadFile(o.Root, rel, o.MaxFileSize)
		}
		files[c.Path], ferrs[c.Path] = f, err
	}
	if err != nil {
		var re *ReadError
		if errors.As(err, &re) && re.Reason == "unreadable" && isNotExist(re.Err) {
			rc.Status, rc.Detail = Superseded, "the file is gone"
			return rc
		}
		rc.Status, rc.Detail = FailedRehydration, err.Error()
		return rc
	}
	if c.ConfidenceClass == "effective_record_view" {
		rc.Status = EffectiveRecordHold
		rc.NextReEntryCommand = c.NextReEntryCommand
		rc.Detail = fmt.Sprintf("effective view held as the packet recorded it; only the gate re-derives it: %s", c.NextReEntryCommand)
		return rc
	}
	for _, er := range p.EffectiveRecordProjection.EffectiveRecords {
		if path, n, ok := parseLocation(er.BaseLocation); ok && path == c.Path && n >= c.StartLine && n <= c.EndLine {
			rc.Status = Superseded
			rc.Detail = fmt.Sprintf("row L%d (record %s) is corrected by %s; read its effective view instead", n, er.TargetRecordID, strings.Join(er.AppliedCorrectionIDs, ", "))
			rc.NextReEntryCommand = EffectiveReEntryCommand(er.TargetRecordID)
			return rc
		}
	}
	n := f.Lines()
	length := c.EndLine - c.StartLine + 1
	if c.StartLine <= n {
		rc.NewSHA256 = f.SHA256Of(c.StartLine, min(c.EndLine, n))
		if c.EndLine <= n && rc.NewSHA256 == c.SHA256 {
			rc.Status, rc.Detail = Refreshed, "same bytes at the same lines"
			rc.NextReEntryCommand = c.NextReEntryCommand
			return rc
		}
	}
	// The same bytes elsewhere: the code moved, unchanged.
	if s := findSame(f, c.SHA256, length, c.StartLine); s > 0 {
		e := s + length - 1
		rc.Status = DriftDetected
		rc.NewLineRange = LineRange(s, e)
		rc.NewSHA256 = c.SHA256
		rc.NextReEntryCommand = ReEntryCommand(c.Path, s, e)
		rc.Detail = fmt.Sprintf("content unchanged but moved by %+d lines: now %s", s-c.StartLine, rc.NewLineRange)
		return rc
	}
	if off, votes, total, ok := align(f, c, o.MaxLineRunes); ok {
		s, e := max(1, c.StartLine+off), min(n, c.EndLine+off)
		t := c.TargetLine + off
		rc.Status = DriftDetected
		rc.NewLineRange = LineRange(s, e)
		rc.NewSHA256 = f.SHA256Of(s, e)
		rc.NextReEntryCommand = ReEntryCommand(c.Path, s, e)
		if off == 0 {
			rc.Detail = fmt.Sprintf("content changed in place (%d of %d distinctive lines unchanged)", votes, total)
		} else {
			rc.Detail = fmt.Sprintf("content changed; anchor re-located from L%d to L%d (%+d lines, %d of %d distinctive lines found again)", c.TargetLine, t, off, votes, total)
		}
		return rc
	}
	if c.StartLine > n {
		rc.Status = FailedRehydration
		rc.Detail = fmt.Sprintf("the file now has %d lines, the range is gone and its lines were not found again", n)
		return rc
	}
	rc.Status = DriftDetected
	rc.NextReEntryCommand = ReEntryCommand(c.Path, c.StartLine, min(c.EndLine, n))
	rc.Detail = "content changed and the chunk's lines were not found again; the anchor could not be re-located"
	return rc
}

func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// findSame returns the start line of a range of length lines whose bytes hash to
// sum, nearest to near, or 0.
func findSame(f *File, sum string, length, near int) int {
	n := f.Lines()
	best, bestDist := 0, -1
	for s := 1; s+length-1 <= n; s++ {
		if f.SHA256Of(s, s+length-1) != sum {
			continue
		}
		d := s - near
		if d < 0 {
			d = -d
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = s, d
		}
	}
	return best
}

// align finds the line offset at which most of the chunk's distinctive lines
// reappear in f. Lines that were redacted or truncated in the chunk text, and
// short or blank lines, do not vote.
func align(f *File, c schema.Chunk, maxRunes int) (off, votes, total int, ok bool) {
	lines := strings.Split(strings.TrimSuffix(c.Text, "\n"), "\n")
	at := map[string][]int{}
	want := map[string]bool{}
	for _, l := range lines {
		if distinctive(l) {
			want[l] = true
		}
	}
	if len(want) == 0 {
		return 0, 0, 0, false
	}
	n := f.Lines()
	if maxRunes <= 0 {
		maxRunes = DefaultMaxLineRunes
	}
	for j := 1; j <= n; j++ {
		l := f.Line(j)
		if len(l) > maxRunes {
			continue
		}
		if want[l] {
			at[l] = append(at[l], j)
		}
	}
	tally := map[int]int{}
	for i, l := range lines {
		if !distinctive(l) {
			continue
		}
		total++
		for _, j := range at[l] {
			tally[j-(c.StartLine+i)]++
		}
	}
	type cand struct{ off, votes int }
	var cs []cand
	for o, v := range tally {
		cs = append(cs, cand{o, v})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].votes != cs[j].votes {
			return cs[i].votes > cs[j].votes
		}
		ai, aj := abs(cs[i].off), abs(cs[j].off)
		if ai != aj {
			return ai < aj
		}
		return cs[i].off < cs[j].off
	})
	need := max(1, (total*3+9)/10)
	if len(cs) == 0 || cs[0].votes < need {
		return 0, 0, total, false
	}
	return cs[0].off, cs[0].votes, total, true
}

func distinctive(l string) bool {
	t := strings.TrimSpace(l)
	if len(t) < 4 || strings.Contains(l, "[REDACTED:") || strings.Contains(l, " …[line truncated: ") {
		return false
	}
	switch t {
	case "return nil", "return err", "} else {", "return", "break", "continue", "default:":
		return false
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
