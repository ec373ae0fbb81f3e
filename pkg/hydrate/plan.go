package hydrate

// PlannedRead is one read hydration may take: a window, a ranked
// definition's read, or a file read whole. Plan lists them so that a
// measurement can ask what a different order of the same reads would
// hold (bench/readfloor).
type PlannedRead struct {
	// Path and Rank are the surface's; Start and End the lines read.
	Path       string
	Rank       int
	Start, End int
	// Tokens is the read's price in the brief (text and heading),
	// estimated before redaction.
	Tokens int
	// Replace is true for a whole file that replaces the surface's other
	// reads when taken.
	Replace bool
	// UnitRank is the ranked definition the read belongs to (its place in
	// the function ranking, 1-based), 0 for a window or a whole file;
	// Part is which part of it: whole, head, evidence or top level.
	UnitRank int
	Part     string
}

// Planned is every read hydration may take on a lane, and the budget
// they share.
type Planned struct {
	// Budget is what the chunks may spend: the budget less the frame.
	Budget int
	Reads  []PlannedRead
}

// Plan lists the reads hydration plans on in's ranked surfaces, in the
// surfaces' order, without spending the budget: the steps Hydrate's fill
// chooses among.
func Plan(in *Input, o Options) (*Planned, error) {
	h, surfaces, _, err := prepare(in, o)
	if err != nil {
		return nil, err
	}
	p := &Planned{Budget: h.o.Budget}
	for _, sf := range surfaces {
		for _, st := range sf.steps {
			r := PlannedRead{Path: sf.rs.Path, Rank: sf.rs.Rank, Start: st.seg.s, End: st.seg.e, Tokens: st.cost, Replace: st.replace, Part: st.part}
			if st.unit != nil {
				r.UnitRank = st.unit.rank
			}
			p.Reads = append(p.Reads, r)
		}
	}
	return p, nil
}
