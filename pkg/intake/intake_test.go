package intake

import (
	"errors"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/schema"
)

func full() schema.IntakeFields {
	return schema.IntakeFields{
		Goal:                     "fix trailing <nil> on help output",
		TargetProfile:            "code_path",
		FanoutLevel:              "normal",
		MutationRisk:             "read_only",
		ExpectedOutput:           "hydration_packet",
		EnoughEvidenceDefinition: "the line printing <nil> is hydrated",
	}
}

func TestCanonicalIsKeySortedCompactAndStable(t *testing.T) {
	c, err := Canonical(full())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"enough_evidence_definition":"the line printing <nil> is hydrated","expected_output":"hydration_packet","explicit_seeds":[],"fanout_level":"normal","forbidden_assumptions":[],"goal":"fix trailing <nil> on help output","known_neighbor_surfaces":[],"mutation_risk":"read_only","target_profile":"code_path"}`
	if string(c) != want {
		t.Fatalf("canonical JSON\n got %s\nwant %s", c, want)
	}
	h, _ := Hash(full())
	if len(h) != 12 || strings.Trim(h, "0123456789abcdef") != "" {
		t.Fatalf("hash %q is not 12 hex digits", h)
	}
	// Known value: sha256 of the canonical JSON above, first 12 hex digits.
	if h != "af2744b2ea37" {
		t.Fatalf("hash %s changed: the packet ids of every existing intake would change", h)
	}
}

func TestHashNormalizesLayersAndSeesEveryField(t *testing.T) {
	base, _ := Hash(full())
	// Whitespace around the goal (a goal file's final newline) and nil vs empty
	// lists do not change the hash.
	f := full()
	f.Goal = "  " + f.Goal + "\n"
	f.ExplicitSeeds = []string{}
	if h, _ := Hash(f); h != base {
		t.Fatalf("normalization: %s != %s", h, base)
	}
	// Every field changes it.
	mutate := []func(*schema.IntakeFields){
		func(f *schema.IntakeFields) { f.Goal += "!" },
		func(f *schema.IntakeFields) { f.TargetProfile = "mixed" },
		func(f *schema.IntakeFields) { f.FanoutLevel = "wide" },
		func(f *schema.IntakeFields) { f.MutationRisk = "low_mutation" },
		func(f *schema.IntakeFields) { f.ExpectedOutput = "single_chunk" },
		func(f *schema.IntakeFields) { f.EnoughEvidenceDefinition = "x" },
		func(f *schema.IntakeFields) { f.KnownTarget = "a.go" },
		func(f *schema.IntakeFields) { f.ExplicitSeeds = []string{"s"} },
		func(f *schema.IntakeFields) { f.ForbiddenAssumptions = []string{"s"} },
		func(f *schema.IntakeFields) { f.KnownNeighborSurfaces = []string{"s"} },
		func(f *schema.IntakeFields) { f.BudgetTokens = 100 },
	}
	seen := map[string]bool{base: true}
	for i, m := range mutate {
		f := full()
		m(&f)
		h, _ := Hash(f)
		if seen[h] {
			t.Fatalf("mutation %d did not change the hash", i)
		}
		seen[h] = true
	}
}

func TestMergePrecedenceAndSource(t *testing.T) {
	flags := Layer{Name: "flags", Fields: schema.IntakeFields{Goal: "from flags", ExplicitSeeds: []string{"a", "a", " ", "b"}}}
	file := Layer{Name: "file:in.toml", Fields: schema.IntakeFields{Goal: "from file", TargetProfile: "code_path", ExplicitSeeds: []string{"z"}}}
	cfg := FromConfig(config.Intake{TargetProfile: "mixed", FanoutLevel: "wide", BudgetTokens: 900})
	unused := Layer{Name: "nobody"}
	m := Merge(flags, file, cfg, unused)
	if m.Fields.Goal != "from flags" || m.Fields.TargetProfile != "code_path" || m.Fields.FanoutLevel != "wide" || m.Fields.BudgetTokens != 900 {
		t.Fatalf("merge: %+v", m.Fields)
	}
	if strings.Join(m.Fields.ExplicitSeeds, ",") != "a,b" {
		t.Fatalf("seeds %q: a list comes whole from the first layer, cleaned", m.Fields.ExplicitSeeds)
	}
	if m.Source != "flags+file:in.toml+config" {
		t.Fatalf("source %q", m.Source)
	}
	if m.From["fanout_level"] != "config" || m.From["goal"] != "flags" {
		t.Fatalf("from %v", m.From)
	}
	if m.Fields.ForbiddenAssumptions == nil || m.Fields.KnownNeighborSurfaces == nil {
		t.Fatal("unset lists must be empty, not nil")
	}
}

func TestValidateNamesEveryMissingFieldAndFlag(t *testing.T) {
	m := Merge(Layer{Name: "flags", Fields: schema.IntakeFields{TargetProfile: "code_paths", FanoutLevel: "normal", BudgetTokens: -1}})
	probs := Validate(m)
	var missing, invalid []string
	for _, p := range probs {
		if p.Missing {
			missing = append(missing, p.Msg)
		} else {
			invalid = append(invalid, p.Msg)
		}
	}
	wantMissing := []string{
		"goal (--goal or --goal-file)",
		"mutation_risk (--risk)",
		"expected_output (--output-kind)",
	} // enough too, but it is derived from the goal once there is one
	if strings.Join(missing, "|") != strings.Join(wantMissing, "|") {
		t.Fatalf("missing\n got %q\nwant %q", missing, wantMissing)
	}
	if len(invalid) != 2 || !strings.Contains(invalid[0], `target_profile "code_paths" from flags is not one of`) || !strings.Contains(invalid[0], "--profile") || !strings.Contains(invalid[1], "budget_tokens -1") {
		t.Fatalf("invalid %q", invalid)
	}
	if p := Validate(Merge(Layer{Name: "flags", Fields: full()})); len(p) != 0 {
		t.Fatalf("a full intake has problems: %v", p)
	}
}

func TestValidateKnownTargetRange(t *testing.T) {
	for kt, ok := range map[string]bool{
		"cmd/root.go":           true,
		"cmd/root.go:L120":      true,
		"cmd/root.go:L120-L160": true,
		"C:Lib/x.py":            true,
		"cmd/root.go:L0":        false,
		"cmd/root.go:L12-":      false,
		"cmd/root.go:Lx":        false,
		":L12":                  false,
		"cmd/root.go:L1-L2-L3":  false,
	} {
		f := full()
		f.KnownTarget = kt
		probs := Validate(Merge(Layer{Name: "flags", Fields: f}))
		if (len(probs) == 0) != ok {
			t.Errorf("known_target %q: problems %v", kt, probs)
		}
	}
}

func TestWarningsConstraintStack(t *testing.T) {
	f := full()
	if w := Warnings(f); len(w) != 0 {
		t.Fatalf("unexpected warnings %v", w)
	}
	f.FanoutLevel, f.MutationRisk = "conservative", "high_mutation"
	w := Warnings(f)
	if len(w) != 1 || w[0].Code != "constraint_stack" {
		t.Fatalf("warnings %v", w)
	}
}

func TestBuildRecord(t *testing.T) {
	rec, err := Build(Merge(Layer{Name: "flags", Fields: full()}))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := Hash(full())
	if rec.Kind != schema.KindIntake || rec.V != 1 || rec.IntakeHash != h || rec.ID == "" || rec.Source != "flags" {
		t.Fatalf("record %+v", rec)
	}
	if len(rec.GoalTerms) == 0 || rec.Warnings == nil {
		t.Fatalf("terms %v warnings %v", rec.GoalTerms, rec.Warnings)
	}
	if PacketID(h) != "rtch_packet_"+h {
		t.Fatal("packet id")
	}
}

func TestParseFileTOMLAndJSON(t *testing.T) {
	toml := `goal = """
fix trailing <nil>
on help output"""
target_profile = "code_path"
explicit_seeds = ["Execute", "help"]
budget_tokens = 5000
`
	f, err := ParseFile("in.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	if f.Goal != "fix trailing <nil>\non help output" || f.TargetProfile != "code_path" || len(f.ExplicitSeeds) != 2 || f.BudgetTokens != 5000 {
		t.Fatalf("toml %+v", f)
	}
	js := `{"goal": "g", "fanout_level": "wide", "forbidden_assumptions": ["vendor/"]}`
	f, err = ParseFile("in.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if f.Goal != "g" || f.FanoutLevel != "wide" || f.ForbiddenAssumptions[0] != "vendor/" {
		t.Fatalf("json %+v", f)
	}
	// Sniffed when the extension says nothing.
	if f, err = ParseFile("intake", []byte("  "+js)); err != nil || f.Goal != "g" {
		t.Fatalf("sniff json: %v %+v", err, f)
	}
	if f, err = ParseFile("intake", []byte(toml)); err != nil || f.TargetProfile != "code_path" {
		t.Fatalf("sniff toml: %v %+v", err, f)
	}
	// A previous rtch.intake record is accepted; its derived keys are ignored.
	rec := `{"kind":"rtch.intake","v":1,"id":"x","intake_hash":"abc","goal":"g","source":"flags","warnings":[],"goal_terms":[]}`
	if f, err = ParseFile("prev.json", []byte(rec)); err != nil || f.Goal != "g" {
		t.Fatalf("record: %v %+v", err, f)
	}
}

func TestParseFileErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"a.toml", "goal = \"x\"\ntarget_profil = \"code_path\"\n", "a.toml:2: unknown key target_profil"},
		{"a.toml", "goal = \"x\"\n\n[extra]\nk = 1\n", "a.toml:3: unknown key extra"},
		{"a.toml", "goal = \"x\"\nbudget_tokens = \"many\"\n", "a.toml:2:"},
		{"a.toml", "goal = \"x\n", "a.toml:1:"},
		{"a.json", "{\n \"goal\": \"x\",\n \"fanout\": \"wide\"\n}", "a.json:3: unknown key fanout"},
		{"a.json", "{\n \"goal\": \"x\",\n \"budget_tokens\": \"many\"\n}", "a.json:3: budget_tokens: want int"},
		{"a.json", "{\n \"goal\": \"x\",,\n}", "a.json:2: invalid JSON"},
		{"a.json", "[1]", "a.json:1: an intake file is a JSON object"},
		{"a.json", "null", "a.json:1: an intake file is a JSON object"},
		{"a.json", "{\"kind\":\"rtch.zone\",\"goal\":\"x\"}", "a.json:1: unknown key kind"},
		{"a.toml", "goal = \"x\"\n\xff\n", "a.toml:2: not valid UTF-8"},
	}
	for _, c := range cases {
		_, err := ParseFile(c.name, []byte(c.data))
		var fe *FileError
		if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want prefix %q", c.name, c.data, err, c.want)
		}
	}
}

func FuzzParseFile(f *testing.F) {
	f.Add("in.toml", []byte("goal = \"x\"\nexplicit_seeds = [\"a\"]\nbudget_tokens = 3\n"))
	f.Add("in.json", []byte(`{"goal":"x","budget_tokens":1e99}`))
	f.Add("in", []byte("{\"kind\":\"rtch.intake\"}"))
	f.Add("in", []byte("[a]\nb = 1\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		_, err := ParseFile(name, data)
		if err == nil {
			return
		}
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if fe.File != name || !strings.HasPrefix(err.Error(), name) {
			t.Fatalf("error does not name the file: %v", err)
		}
		if fe.Line < 0 || fe.Line > strings.Count(string(data), "\n")+1 {
			t.Fatalf("line %d out of range: %v", fe.Line, err)
		}
	})
}
