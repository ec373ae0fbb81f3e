package hydrate

import (
	"fmt"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// Input is what hydration reads from the record stream. Hydration needs the
// whole stream (the ranking arrives after the hits), so the command collects it
// first and hydrates at the end of input.
type Input struct {
	// Intake is the lane's contract (fanout, budget, known target, forbidden
	// assumptions); nil when absent.
	Intake *schema.Intake
	// Zone gives the root and the git head.
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
}

// Collect decodes the records hydration uses and ignores the rest. A record of
// a newer version than this build knows is ignored too (it still passes
// through): guessing at its fields would be worse.
func (in *Input) Collect(l record.Line) error {
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
		var c schema.Candidate
		err = l.Decode(&c)
		in.Candidates = append(in.Candidates, c)
	case schema.KindProbe:
		var p schema.Probe
		err = l.Decode(&p)
		in.Probes = append(in.Probes, p)
	case schema.KindHit:
		var h schema.Hit
		err = l.Decode(&h)
		in.Hits = append(in.Hits, h)
	}
	if err != nil {
		return fmt.Errorf("input line %d: %s record: %w", l.No, l.Kind, err)
	}
	return nil
}
