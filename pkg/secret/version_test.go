package secret

import (
	"slices"
	"testing"
)

// TestVersionFollowsTheRules: a changed gitleaks pattern, a rule more, a
// changed extra pattern or a new screening revision each name another
// version; the same rules name the same one.
func TestVersionFollowsTheRules(t *testing.T) {
	base := versionOf(gitleaksTable, extraRules, screenRevision)
	if Version() != base || versionOf(gitleaksTable, slices.Clone(extraRules), screenRevision) != base {
		t.Fatal("the same rules name another version")
	}
	table := gitleaksTable
	table.Rules = slices.Clone(table.Rules)
	table.Rules[0].Regex += "x"
	more := gitleaksTable
	more.Rules = append(slices.Clone(more.Rules), gitleaksRule{ID: "new", Regex: "new-[0-9]{20}"})
	extras := slices.Clone(extraRules)
	extras[0].src += "x"
	for name, v := range map[string]string{
		"a changed gitleaks pattern": versionOf(table, extraRules, screenRevision),
		"a gitleaks rule more":       versionOf(more, extraRules, screenRevision),
		"a changed extra pattern":    versionOf(gitleaksTable, extras, screenRevision),
		"a new revision":             versionOf(gitleaksTable, extraRules, screenRevision+1),
	} {
		if v == base {
			t.Errorf("%s keeps the version", name)
		}
	}
}
