package secret

import "testing"

// Every process that writes a record builds the rule set, and most of
// them run few rules or none: building it compiles and parses no rule's
// pattern (parsing the table's patterns to read their groups cost each
// stage of a lane about 4 ms of CPU). A rule is compiled, and its groups
// read, when it first runs.
func TestBuildingTheRulesParsesNoPattern(t *testing.T) {
	rs := buildRules(gitleaksTable)
	if len(rs.rules) == 0 {
		t.Fatal("no rules built")
	}
	allocs := testing.AllocsPerRun(3, func() { buildRules(gitleaksTable) })
	// Parsing one pattern allocates hundreds of nodes; the table holds
	// about two hundred.
	if max := float64(10 * len(rs.rules)); allocs > max {
		t.Errorf("building %d rules made %.0f allocations, want at most %.0f: a pattern is parsed before its rule runs", len(rs.rules), allocs, max)
	}
	for _, r := range rs.rules {
		if r.re != nil {
			t.Fatalf("rule %s compiled before it ran", r.src.ID)
		}
	}
}
