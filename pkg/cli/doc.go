package cli

import (
	"flag"
	"io"
	"sort"
	"strings"
)

// Doc is a tool's documentation as its flag definitions and Tool fields
// give it: the one source of --help, the man pages and the shell
// completions, so none of them can name a flag the binary lacks or miss
// one it has.
type Doc struct {
	// Name is the binary's name.
	Name string
	// Summary is the one-line description.
	Summary string
	// Usage is the synopsis.
	Usage string
	// Description is the free text after the synopsis, without a final
	// newline.
	Description string
	// Example is a real invocation, without a final newline.
	Example string
	// Flags lists every flag, sorted by name, each with its short alias.
	Flags []FlagDoc
	// ExitCodes lists every exit code with its meaning, 130 last.
	ExitCodes [][2]string
}

// FlagDoc is one flag.
type FlagDoc struct {
	// Names are the spellings with dashes, the short alias first: "-o",
	// "--jq", or "-h" and "--help".
	Names []string
	// Arg is the value's placeholder ("FILE"), empty for a boolean flag.
	Arg string
	// Usage is the flag's help text, its placeholder in place.
	Usage string
	// Default is the default value when it says something (not "", false,
	// 0 or []).
	Default string
	// Bool is set for a flag that takes no value.
	Bool bool
}

// commonFlags holds the values of the flags every tool shares.
type commonFlags struct {
	help, version, quiet        bool
	jqExpr, outPath, configPath string
}

// shortAliases maps a shared short flag to the long one it stands for.
var shortAliases = map[string]string{"h": "help", "q": "quiet"}

// newFlagSet registers the shared flags into c and the tool's own flags.
func (t *Tool) newFlagSet(c *commonFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(t.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&c.help, "help", false, "show this help and exit")
	fs.BoolVar(&c.help, "h", false, "show this help and exit")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.quiet, "quiet", false, "silence warnings, hints and progress (never errors)")
	fs.BoolVar(&c.quiet, "q", false, "silence warnings, hints and progress (never errors)")
	if !t.Protocol {
		fs.StringVar(&c.jqExpr, "jq", "", "emit only the records for which the gojq `EXPR` yields a value other than false/null")
		fs.StringVar(&c.outPath, "o", "", "write the output to `FILE` atomically (the whole stream or nothing)")
	}
	if !t.Protocol {
		configFile := t.ConfigFile
		if configFile == "" {
			configFile = ".rtch.toml at the zone root"
		}
		fs.StringVar(&c.configPath, "config", "", "read configuration from `FILE` instead of "+configFile)
	}
	if t.Flags != nil {
		t.Flags(fs)
	}
	return fs
}

// Doc returns the tool's documentation. It registers the tool's flags on a
// flag set of its own, so call it on a Tool value made for the purpose.
func (t *Tool) Doc() Doc {
	return docOf(t, t.newFlagSet(&commonFlags{}))
}

func docOf(t *Tool, fs *flag.FlagSet) Doc {
	d := Doc{
		Name:        t.Name,
		Summary:     t.Summary,
		Usage:       t.Usage,
		Description: strings.TrimRight(t.Description, "\n"),
		Example:     strings.TrimRight(t.Example, "\n"),
		Flags:       flagDocs(fs),
	}
	base := t.BaseExitCodes
	if base == nil {
		base = [][2]string{{"0", "ok"}, {"1", "ran and failed"}, {"2", "usage, configuration or missing input (nothing done)"}}
	}
	d.ExitCodes = append(append(append(d.ExitCodes, base...), t.ExitCodes...), [2]string{"130", "interrupted"})
	return d
}

// flagDocs lists fs's flags by name, folding each short alias into the flag
// it stands for.
func flagDocs(fs *flag.FlagSet) []FlagDoc {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	var docs []FlagDoc
	for _, name := range names {
		if _, isShort := shortAliases[name]; isShort {
			continue
		}
		f := fs.Lookup(name)
		fd := FlagDoc{Names: []string{dashes(name)}}
		for s, l := range shortAliases {
			if l == name {
				fd.Names = append([]string{"-" + s}, fd.Names...)
			}
		}
		fd.Arg, fd.Usage = flag.UnquoteUsage(f)
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			fd.Bool = true
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			fd.Default = f.DefValue
		}
		docs = append(docs, fd)
	}
	return docs
}

func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
