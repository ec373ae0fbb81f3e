// Package guildconfig is the model and loader of .guild/config.toml, the
// guild tools' configuration (SPEC §10). Every key is optional and has the
// default documented on its field; an unknown key is an error naming the key
// and the file, so a misspelt threshold fails loudly instead of silently
// falling back to a default.
package guildconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/config"
)

// RelPath is where the file lives under a project root.
const RelPath = ".guild/config.toml"

// Defaults.
const (
	DefaultRecallScoreThreshold = 0.4
	DefaultRecallBeforeRead     = true
	DefaultImportanceGate       = 3
	DefaultWikiFileThreshold    = 500
	DefaultChunkTokens          = 600
	DefaultGraphTokens          = 1200
	DefaultGraphDepth           = 2
	DefaultStructuralDepth      = 3
	DefaultMaxPageBytes         = 1 << 20
	DefaultBM25MaxBytes         = 64 << 20
	DefaultMechanism            = "auto"
	DefaultLeadLastN            = 5
	DefaultLeadCapacityTokens   = 8000
	DefaultLeadRecomputeAt      = 0.7
	DefaultBackend              = "sqlite"
)

// Mechanisms are the values of index.mechanism.
var Mechanisms = []string{"auto", "sqlite", "postgres", "file-bm25", "fs-scan"}

// Backends are the values of index.backend: the engine of the persistent
// wiki index.
var Backends = []string{"sqlite", "postgres"}

// Config is the whole file. Pointer fields distinguish "not set" from a
// zero value (recallBeforeRead = false must be honoured).
type Config struct {
	// Models holds the recall policy keys.
	Models Models `toml:"models"`
	// Index configures the wiki search mechanism.
	Index Index `toml:"index"`
	// Caps bounds what one recall may return.
	Caps Caps `toml:"caps"`
	// Lead configures guild-bundle --lead, the coordinator's lean context.
	Lead Lead `toml:"lead"`
	// file is the file Load read; repository is true when it lies in the
	// project's tree (the repository's, not the user's own --config).
	file       string
	repository bool
}

// Lead configures the lean lead context.
type Lead struct {
	// LastN is how many of the run's latest v2 envelopes the lead holds
	// verbatim (default 5); older ones are compacted into the digest.
	LastN *int `toml:"last_n"`
	// CapacityTokens is the lead's context capacity in estimated tokens
	// (default 8000, so the 0.7 threshold sits under the 6,000-token cap).
	CapacityTokens *int `toml:"capacity_tokens"`
	// RecomputeAt is the share of the capacity at which the lead context is
	// recomputed (default 0.7), in (0,1].
	RecomputeAt *float64 `toml:"recompute_at"`
}

// Models holds the recall-before-read policy.
type Models struct {
	// RecallScoreThreshold is the topScore at or above which recall may
	// replace a full read (default 0.4).
	RecallScoreThreshold *float64 `toml:"recallScoreThreshold"`
	// RecallBeforeRead turns the read-skip rule on or off (default true).
	RecallBeforeRead *bool `toml:"recallBeforeRead"`
	// ImportanceGate is the minimum page importance (1–5) of routine recall
	// (default 3; pages without importance count as 3).
	ImportanceGate *int `toml:"importanceGate"`
}

// Index configures the wiki mechanism switch.
type Index struct {
	// WikiFileThreshold is the page count from which the SQLite FTS5 index
	// is used instead of in-memory BM25 (default 500).
	WikiFileThreshold *int `toml:"wiki_file_threshold"`
	// Mechanism forces one wiki mechanism: auto (default), sqlite,
	// postgres, file-bm25 or fs-scan.
	Mechanism *string `toml:"mechanism"`
	// Backend is the engine of the persistent index: sqlite (default, the
	// embedded .guild/indexes/wiki.sqlite) or postgres (a shared server).
	Backend *string `toml:"backend"`
	// DSN is the postgres connection string or URL (default: DATABASE_URL,
	// else the PG* environment). In a repository's file it may name only
	// the servers the user allowed and gets none of the user's credentials
	// unless the user says so (pkg/pgtrust, docs/security.md).
	DSN *string `toml:"dsn"`
	// Wiki names this wiki inside the postgres database (default: the name
	// of the project directory); every checkout of one wiki must agree.
	Wiki *string `toml:"wiki"`
}

// Caps bounds the work and the output of one recall.
type Caps struct {
	// ChunkTokens caps one chunk's text before wrapping (default 600).
	ChunkTokens *int `toml:"chunk_tokens"`
	// GraphTokens caps all graph chunks of one recall together (default 1200).
	GraphTokens *int `toml:"graph_tokens"`
	// GraphDepth bounds the token-scored graph traversal (default 2 hops).
	GraphDepth *int `toml:"graph_depth"`
	// StructuralDepth bounds callers/impact/imports traversals (default 3).
	StructuralDepth *int `toml:"structural_depth"`
	// MaxPageBytes skips larger wiki files (default 1 MiB).
	MaxPageBytes *int64 `toml:"max_page_bytes"`
	// BM25MaxBytes is the wiki size up to which in-memory BM25 is used below
	// the index threshold; a larger wiki is streamed by fs-scan (default 64 MiB).
	BM25MaxBytes *int64 `toml:"bm25_max_bytes"`
}

// Settings are the resolved values, defaults applied.
type Settings struct {
	RecallScoreThreshold float64
	RecallBeforeRead     bool
	ImportanceGate       int
	WikiFileThreshold    int
	ChunkTokens          int
	GraphTokens          int
	GraphDepth           int
	StructuralDepth      int
	MaxPageBytes         int64
	BM25MaxBytes         int64
	Mechanism            string
	LeadLastN            int
	LeadCapacityTokens   int
	LeadRecomputeAt      float64
	// Backend is index.backend, "postgres" also when index.mechanism
	// forces postgres.
	Backend string
	DSN     string
	// DSNFile is the file index.dsn was read from when that file is the
	// repository's (inside the project's tree): the DSN is then held to
	// the user's policy (pkg/pgtrust). "" for the user's own configuration.
	DSNFile string
	// Wiki is index.wiki, "" when unset (the caller derives it from the
	// project root).
	Wiki string
}

// Defaults returns the settings of an absent file.
func Defaults() Settings { return (&Config{}).Settings() }

// Settings applies the defaults to unset keys.
func (c *Config) Settings() Settings {
	s := Settings{
		RecallScoreThreshold: DefaultRecallScoreThreshold,
		RecallBeforeRead:     DefaultRecallBeforeRead,
		ImportanceGate:       DefaultImportanceGate,
		WikiFileThreshold:    DefaultWikiFileThreshold,
		ChunkTokens:          DefaultChunkTokens,
		GraphTokens:          DefaultGraphTokens,
		GraphDepth:           DefaultGraphDepth,
		StructuralDepth:      DefaultStructuralDepth,
		MaxPageBytes:         DefaultMaxPageBytes,
		BM25MaxBytes:         DefaultBM25MaxBytes,
		Mechanism:            DefaultMechanism,
		LeadLastN:            DefaultLeadLastN,
		LeadCapacityTokens:   DefaultLeadCapacityTokens,
		LeadRecomputeAt:      DefaultLeadRecomputeAt,
		Backend:              DefaultBackend,
	}
	set(&s.RecallScoreThreshold, c.Models.RecallScoreThreshold)
	set(&s.RecallBeforeRead, c.Models.RecallBeforeRead)
	set(&s.ImportanceGate, c.Models.ImportanceGate)
	set(&s.WikiFileThreshold, c.Index.WikiFileThreshold)
	set(&s.ChunkTokens, c.Caps.ChunkTokens)
	set(&s.GraphTokens, c.Caps.GraphTokens)
	set(&s.GraphDepth, c.Caps.GraphDepth)
	set(&s.StructuralDepth, c.Caps.StructuralDepth)
	set(&s.MaxPageBytes, c.Caps.MaxPageBytes)
	set(&s.BM25MaxBytes, c.Caps.BM25MaxBytes)
	set(&s.Mechanism, c.Index.Mechanism)
	set(&s.LeadLastN, c.Lead.LastN)
	set(&s.LeadCapacityTokens, c.Lead.CapacityTokens)
	set(&s.LeadRecomputeAt, c.Lead.RecomputeAt)
	set(&s.Backend, c.Index.Backend)
	if s.Mechanism == "postgres" {
		s.Backend = "postgres"
	}
	set(&s.DSN, c.Index.DSN)
	if c.Index.DSN != nil && c.repository {
		s.DSNFile = c.file
	}
	set(&s.Wiki, c.Index.Wiki)
	return s
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// Error is a configuration problem in a named file (the toolkit's one config
// error type).
type Error = config.Error

// Load reads explicit if given, else root/.guild/config.toml when it exists;
// a missing default file is not an error. It returns the path read ("" when
// none). A file inside root is the repository's (Settings.DSNFile).
func Load(explicit, root string) (*Config, string, error) {
	path := explicit
	if path == "" {
		path = filepath.Join(root, filepath.FromSlash(RelPath))
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return &Config{}, "", nil
		}
	}
	c, err := LoadFile(path)
	if c != nil {
		c.file, c.repository = path, config.InTree(root, path)
	}
	return c, path, err
}

// LoadFile decodes one file strictly and validates the ranges.
func LoadFile(path string) (*Config, error) {
	var c Config
	if err := config.DecodeStrict(path, &c); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return &c, nil
}

func (c *Config) validate() error {
	if v := c.Models.RecallScoreThreshold; v != nil && (*v < 0 || *v > 1) {
		return fmt.Errorf("models.recallScoreThreshold %v is outside [0,1]", *v)
	}
	if v := c.Models.ImportanceGate; v != nil && (*v < 0 || *v > 5) {
		return fmt.Errorf("models.importanceGate %d is outside 0..5", *v)
	}
	for name, v := range map[string]*int{
		"index.wiki_file_threshold": c.Index.WikiFileThreshold,
		"caps.chunk_tokens":         c.Caps.ChunkTokens,
		"caps.graph_tokens":         c.Caps.GraphTokens,
		"caps.graph_depth":          c.Caps.GraphDepth,
		"caps.structural_depth":     c.Caps.StructuralDepth,
		"lead.last_n":               c.Lead.LastN,
	} {
		if v != nil && *v < 0 {
			return fmt.Errorf("%s %d is negative", name, *v)
		}
	}
	if v := c.Index.Mechanism; v != nil {
		ok := false
		for _, m := range Mechanisms {
			ok = ok || m == *v
		}
		if !ok {
			return fmt.Errorf("index.mechanism %q is not one of %s", *v, strings.Join(Mechanisms, ", "))
		}
	}
	if err := c.Index.validateBackend(); err != nil {
		return err
	}
	if v := c.Caps.BM25MaxBytes; v != nil && *v < 0 {
		return fmt.Errorf("caps.bm25_max_bytes %d is negative", *v)
	}
	if v := c.Lead.CapacityTokens; v != nil && *v <= 0 {
		return fmt.Errorf("lead.capacity_tokens %d must be positive", *v)
	}
	if v := c.Lead.RecomputeAt; v != nil && (*v <= 0 || *v > 1) {
		return fmt.Errorf("lead.recompute_at %v is outside (0,1]", *v)
	}
	if v := c.Caps.MaxPageBytes; v != nil && *v <= 0 {
		return fmt.Errorf("caps.max_page_bytes %d must be positive", *v)
	}
	return nil
}

// validateBackend checks index.backend and the keys that depend on it: a
// forced mechanism must be the backend's index, and dsn and wiki are only
// read by postgres.
func (ix Index) validateBackend() error {
	backend := DefaultBackend
	if v := ix.Backend; v != nil {
		if !slices.Contains(Backends, *v) {
			return fmt.Errorf("index.backend %q is not one of %s", *v, strings.Join(Backends, ", "))
		}
		backend = *v
	}
	if m := ix.Mechanism; m != nil && (*m == "sqlite" || *m == "postgres") && ix.Backend != nil && *m != backend {
		return fmt.Errorf("index.mechanism %q contradicts index.backend %q (force the index with mechanism = %q)", *m, backend, backend)
	}
	if m := ix.Mechanism; m != nil && *m == "postgres" {
		backend = "postgres"
	}
	if backend != "postgres" {
		for key, v := range map[string]*string{"index.dsn": ix.DSN, "index.wiki": ix.Wiki} {
			if v != nil {
				return fmt.Errorf("%s is only read with index.backend = \"postgres\"", key)
			}
		}
	}
	if v := ix.Wiki; v != nil && strings.TrimSpace(*v) == "" {
		return errors.New("index.wiki is empty")
	}
	return nil
}
