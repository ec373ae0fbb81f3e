package rtchprobe

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/secret"
)

// featureFile is --features FILE: a header naming the columns
// (rank.FeatureNames), then one line per file of the hand-written
// ranking's first files, in its order. It is written whole or not at all.
type featureFile struct {
	path  string
	paths []string
	rows  [][]float64
}

// keep is probe.Options.Features.
func (f *featureFile) keep(paths []string, rows [][]float64) error {
	f.paths, f.rows = paths, rows
	return nil
}

type featureHeader struct {
	Kind  string   `json:"kind"`
	Names []string `json:"names"`
}

type featureRow struct {
	Path string    `json:"path"`
	F    []float64 `json:"f"`
}

func (f *featureFile) write() error {
	p, err := atomicfile.Create(f.path, 0o644)
	if err != nil {
		return fmt.Errorf("--features: %v", err)
	}
	defer p.Cleanup()
	// the rows name files: their paths pass the redactor, as every byte a
	// tool writes does
	w := secret.NewWriter(bufio.NewWriter(p))
	enc := json.NewEncoder(w)
	if err := enc.Encode(featureHeader{Kind: "rtch.rank_features", Names: rank.FeatureNames}); err != nil {
		return err
	}
	for i, path := range f.paths {
		if err := enc.Encode(featureRow{Path: path, F: f.rows[i]}); err != nil {
			return fmt.Errorf("--features: %s: %v", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("--features: %v", err)
	}
	return p.Commit()
}
