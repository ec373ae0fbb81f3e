// Package lane collects the decoded records of one rtch lane from a record
// stream: the stages that need the whole lane before they can emit (hydrate,
// packet) read it through here, so every stage decodes upstream records the
// same way.
package lane

import (
	"fmt"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// Lane is the lane as read from the stream so far.
type Lane struct {
	// Intake is the lane's contract; nil when absent.
	Intake *schema.Intake
	// Zone gives the root and the git head; nil when absent.
	Zone *schema.Zone
	// Gate lists corrected records whose raw rows must not be hydrated.
	Gate *schema.Gate
	// Basket carries the exclusions and neighbor surfaces.
	Basket *schema.Basket
	// Rank is the ranked surfaces, best first.
	Rank *schema.Rank
	// Candidates give each term's origin.
	Candidates []schema.Candidate
	// Probes give each probe's family.
	Probes []schema.Probe
	// Hits locate the terms on each surface.
	Hits []schema.Hit
	// Functions are the ranked definitions hydration read by; nil before
	// rtch-hydrate.
	Functions *schema.Functions
	// Chunks are the hydrated chunks.
	Chunks []schema.Chunk
	// Skips are every stage's skips.
	Skips []schema.Skip
	// Relations is the relational surface of a disposition goal; nil for
	// other goals.
	Relations *schema.Relations
}

// Collect decodes the records a lane holds and ignores the rest (they still
// pass through). A record of a newer version than this build knows is ignored
// too: guessing at its fields would be worse.
func (in *Lane) Collect(l record.Line) error {
	if l.V > schema.V1 {
		return nil
	}
	var err error
	switch l.Kind {
	case schema.KindIntake:
		in.Intake = new(schema.Intake)
		err = l.Decode(in.Intake)
	case schema.KindZone:
		in.Zone = new(schema.Zone)
		err = l.Decode(in.Zone)
	case schema.KindGate:
		in.Gate = new(schema.Gate)
		err = l.Decode(in.Gate)
	case schema.KindBasket:
		in.Basket = new(schema.Basket)
		err = l.Decode(in.Basket)
	case schema.KindRank:
		in.Rank = new(schema.Rank)
		err = l.Decode(in.Rank)
	case schema.KindCandidate:
		err = appendDecoded(l, &in.Candidates)
	case schema.KindProbe:
		err = appendDecoded(l, &in.Probes)
	case schema.KindHit:
		err = appendDecoded(l, &in.Hits)
	case schema.KindFunctions:
		in.Functions = new(schema.Functions)
		err = l.Decode(in.Functions)
	case schema.KindChunk:
		err = appendDecoded(l, &in.Chunks)
	case schema.KindSkip:
		err = appendDecoded(l, &in.Skips)
	case schema.KindRelations:
		in.Relations = new(schema.Relations)
		err = l.Decode(in.Relations)
	}
	if err != nil {
		return fmt.Errorf("input line %d: %s record: %w", l.No, l.Kind, err)
	}
	return nil
}

func appendDecoded[T any](l record.Line, list *[]T) error {
	var v T
	if err := l.Decode(&v); err != nil {
		return err
	}
	*list = append(*list, v)
	return nil
}
