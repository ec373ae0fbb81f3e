// Package config is the model and loader of .rtch.toml, the toolkit's optional
// configuration file at the zone root. Every key is optional; an unknown key is an
// error that names the key and the file, so a typo fails loudly.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// FileName is the configuration file looked up at the zone root.
const FileName = ".rtch.toml"

// Config is the whole of .rtch.toml. Zero values mean "use the default".
type Config struct {
	// Intake holds defaults for rtch-intake's fields.
	Intake Intake `toml:"intake"`
	// Walk configures the file walker.
	Walk Walk `toml:"walk"`
	// Fanout overrides the probe budgets per fanout level.
	Fanout map[string]FanoutBudget `toml:"fanout"`
	// Budgets overrides the hydration token budget per fanout level.
	Budgets map[string]int `toml:"budgets"`
	// Hydrate configures chunking.
	Hydrate Hydrate `toml:"hydrate"`
	// Scout configures the shape scout and the basket.
	Scout Scout `toml:"scout"`
	// Zone configures zone orientation.
	Zone Zone `toml:"zone"`
	// Gate configures the effective-record gate.
	Gate Gate `toml:"gate"`
	// Index configures the persistent tree index of rtch-scout and
	// rtch-probe.
	Index Index `toml:"index"`
	// Tokenizer is how rtch-hydrate and rtch-packet count tokens: "chars4"
	// (ceil(chars/4), the default), "o200k" or "cl100k"; --tokenizer wins.
	Tokenizer string `toml:"tokenizer"`
	// File is the file Load read ("" when none): a file inside the tree is
	// the repository's, and may not send a write outside it.
	File string `toml:"-"`
}

// Intake holds defaults for rtch-intake; flags win over them.
type Intake struct {
	Goal                  string   `toml:"goal"`
	TargetProfile         string   `toml:"target_profile"`
	FanoutLevel           string   `toml:"fanout_level"`
	MutationRisk          string   `toml:"mutation_risk"`
	ExpectedOutput        string   `toml:"expected_output"`
	Enough                string   `toml:"enough_evidence_definition"`
	KnownTarget           string   `toml:"known_target"`
	ExplicitSeeds         []string `toml:"explicit_seeds"`
	ForbiddenAssumptions  []string `toml:"forbidden_assumptions"`
	KnownNeighborSurfaces []string `toml:"known_neighbor_surfaces"`
	BudgetTokens          int      `toml:"budget_tokens"`
	// Ideas groups the goal terms that spell one idea (rtch-intake
	// --ideas, intake.Ideas); off by default.
	Ideas bool `toml:"ideas"`
}

// Walk configures the walker.
type Walk struct {
	// MaxFileSize in bytes; default 1 MiB.
	MaxFileSize int64 `toml:"max_file_size"`
	// Excludes are extra gitignore-style patterns.
	Excludes []string `toml:"excludes"`
	// NoIgnore disables ignore files.
	NoIgnore bool `toml:"no_ignore"`
	// Hidden includes hidden files.
	Hidden bool `toml:"hidden"`
}

// FanoutBudget overrides one fanout level's probe budget.
type FanoutBudget struct {
	MaxProbes        int `toml:"max_probes"`
	MaxFilesPerProbe int `toml:"max_files_per_probe"`
}

// Hydrate configures chunking.
type Hydrate struct {
	// Window is the number of lines either side of a target line; default 20.
	Window int `toml:"window"`
	// WholeFileLines: a file of at most this many lines may be read whole; default 200.
	WholeFileLines int `toml:"whole_file_lines"`
	// KnownTargetLines: a known target of at most this many lines may be read whole
	// when fanout is not wide; default 500.
	KnownTargetLines int `toml:"known_target_lines"`
	// MaxChunksPerProbe; default 8.
	MaxChunksPerProbe int `toml:"max_chunks_per_probe"`
	// EnoughFloor is the percentage of the chunk budget spent before the
	// lane may stop for enough evidence; 100 never stops early; default 90.
	EnoughFloor int `toml:"enough_floor"`
}

// Scout configures the shape scout and the basket.
type Scout struct {
	// DurableHandles are regular expressions for durable handles (ADR-\d+, …).
	DurableHandles []string `toml:"durable_handles"`
	// GenericTerms replaces the default generic-term list.
	GenericTerms []string `toml:"generic_terms"`
	// FindingsCap caps each scan's findings.
	FindingsCap int `toml:"findings_cap"`
	// CeilingMS is each scan's cost ceiling in milliseconds.
	CeilingMS int `toml:"ceiling_ms"`
	// CeilingBytes is each content scan's cost ceiling in bytes read, counted
	// in path order so the cut is deterministic; default 2 GiB.
	CeilingBytes int64 `toml:"ceiling_bytes"`
}

// Index configures the persistent tree index (pkg/index); --index and
// --no-index win over it. It is on by default, in the user cache
// directory: a warm lane costs about half a cold one
// (docs/decisions/index.md, "In the CLI").
type Index struct {
	// Enabled, when set, turns the index on (true, the default) or off
	// (false).
	Enabled *bool `toml:"enabled"`
	// Dir turns the index on and holds it here, relative to the zone root
	// and inside the tree, instead of the user cache directory. Only a
	// configuration file outside the tree (--config) may name an absolute
	// directory.
	Dir string `toml:"dir"`
}

// Zone configures zone orientation.
type Zone struct {
	// TruthFiles are extra truth-file names at the zone root.
	TruthFiles []string `toml:"truth_files"`
	// RungMarkers replaces the default rung marker list.
	RungMarkers []string `toml:"rung_markers"`
	// StatusLines caps the git status lines recorded; default 20.
	StatusLines int `toml:"status_lines"`
}

// Gate configures the effective-record gate.
type Gate struct {
	// Surfaces are globs of append-only JSONL record surfaces; default
	// ["audit-logs/**/*.jsonl"].
	Surfaces []string `toml:"surfaces"`
	// IDFields are the identifier fields of a base record; default ["id", "record_id"].
	IDFields []string `toml:"id_fields"`
}

// Error is a configuration error; tools exit 2 on it.
type Error struct {
	File string
	Msg  string
}

func (e *Error) Error() string { return e.File + ": " + e.Msg }

// Load reads the configuration: explicit (from --config) if set, else
// root/.rtch.toml if it exists, else the zero Config. It returns the path read
// ("" when none).
func Load(explicit, root string) (*Config, string, error) {
	path := explicit
	if path == "" {
		if root == "" {
			return &Config{}, "", nil
		}
		path = filepath.Join(root, FileName)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return &Config{}, "", nil
		}
	}
	c, err := LoadFile(path)
	if c != nil {
		c.File = path
	}
	return c, path, err
}

// InTree reports whether file lies in the tree at root, symlinks resolved:
// a configuration file there is the repository's, written by whoever wrote
// the repository, and may not send a write or a credential elsewhere. When
// it cannot tell, it says yes.
func InTree(root, file string) bool {
	r, err1 := filepath.EvalSymlinks(root)
	f, err2 := filepath.EvalSymlinks(file)
	if err1 != nil || err2 != nil {
		return true
	}
	rel, err := filepath.Rel(r, f)
	return err == nil && filepath.IsLocal(rel)
}

// LoadFile decodes one configuration file strictly.
func LoadFile(path string) (*Config, error) {
	var c Config
	if err := DecodeStrict(path, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// DecodeStrict decodes the TOML file at path into v. A syntax error names the
// line, and a key v has no field for is an error naming the key: both as *Error
// naming the file. Every configuration file of the toolkit is read through it.
func DecodeStrict(path string, v any) error {
	md, err := toml.DecodeFile(path, v)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return &Error{path, fmt.Sprintf("line %d: %s", pe.Position.Line, pe.Message)}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return &Error{path, "no such file"}
		}
		return &Error{path, err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return &Error{path, "unknown key " + strings.Join(keys, ", unknown key ")}
	}
	return nil
}

// Defaults of the values used by more than one stage.
const (
	DefaultMaxFileSize = 1 << 20
	DefaultWindow      = 20
	DefaultWholeFile   = 200
	DefaultKnownTarget = 500
	DefaultMaxChunks   = 8
)

// DefaultBudgets are the hydration token budgets per fanout level.
var DefaultBudgets = map[string]int{"conservative": 4000, "normal": 8000, "wide": 16000}

// DefaultFanout are the probe budgets per fanout level.
var DefaultFanout = map[string]FanoutBudget{
	"conservative": {MaxProbes: 5, MaxFilesPerProbe: 20},
	"normal":       {MaxProbes: 12, MaxFilesPerProbe: 50},
	"wide":         {MaxProbes: 25, MaxFilesPerProbe: 200},
}

// BudgetFor returns the token budget of a fanout level, config first.
func (c *Config) BudgetFor(level string) int {
	if n := c.Budgets[level]; n > 0 {
		return n
	}
	return DefaultBudgets[level]
}

// FanoutFor returns the probe budget of a fanout level, config fields first.
func (c *Config) FanoutFor(level string) FanoutBudget {
	d := DefaultFanout[level]
	if o, ok := c.Fanout[level]; ok {
		if o.MaxProbes > 0 {
			d.MaxProbes = o.MaxProbes
		}
		if o.MaxFilesPerProbe > 0 {
			d.MaxFilesPerProbe = o.MaxFilesPerProbe
		}
	}
	return d
}

// MaxFileSize returns the walker's size cap.
func (c *Config) MaxFileSize() int64 {
	if c.Walk.MaxFileSize > 0 {
		return c.Walk.MaxFileSize
	}
	return DefaultMaxFileSize
}
