package clidoc

import (
	"fmt"
	"strings"

	"github.com/rtch/rtch/pkg/cli"
)

// Shells are the shells completions are made for, with the file name each
// expects for a command's script.
var Shells = []struct {
	Name string
	File func(tool string) string
	Make func(cli.Doc) string
}{
	{"bash", func(t string) string { return t }, Bash},
	{"zsh", func(t string) string { return "_" + t }, Zsh},
	{"fish", func(t string) string { return t + ".fish" }, Fish},
}

// argKind says what a flag's value is, from its placeholder: a file, a
// directory, or something the shell cannot list.
func argKind(f cli.FlagDoc) string {
	switch f.Arg {
	case "":
		return ""
	case "DIR", "ROOT":
		return "dir"
	case "FILE", "PATH", "PACKET", "BUNDLE", "PLAN":
		return "file"
	}
	return "value"
}

// Bash renders a bash completion script: flag names after a dash, files or
// directories for the flags that take them.
func Bash(d cli.Doc) string {
	fn := "_" + strings.NewReplacer("-", "_").Replace(d.Name)
	var all, files, dirs, values []string
	for _, f := range d.Flags {
		all = append(all, f.Names...)
		switch argKind(f) {
		case "file":
			files = append(files, f.Names...)
		case "dir":
			dirs = append(dirs, f.Names...)
		case "value":
			values = append(values, f.Names...)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# bash completion for %s (generated from its flags)\n", d.Name)
	fmt.Fprintf(&b, "%s() {\n", fn)
	b.WriteString("  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	b.WriteString("  case \"$prev\" in\n")
	if len(files) > 0 {
		fmt.Fprintf(&b, "    %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", strings.Join(files, "|"))
	}
	if len(dirs) > 0 {
		fmt.Fprintf(&b, "    %s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", strings.Join(dirs, "|"))
	}
	if len(values) > 0 {
		fmt.Fprintf(&b, "    %s) COMPREPLY=(); return ;;\n", strings.Join(values, "|"))
	}
	b.WriteString("  esac\n")
	fmt.Fprintf(&b, "  COMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n", strings.Join(all, " "))
	b.WriteString("}\n")
	fmt.Fprintf(&b, "complete -o default -F %s %s\n", fn, d.Name)
	return b.String()
}

// Zsh renders a zsh completion function for _arguments.
func Zsh(d cli.Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#compdef %s\n# zsh completion for %s (generated from its flags)\n", d.Name, d.Name)
	b.WriteString("_arguments -s \\\n")
	for _, f := range d.Flags {
		desc := zshQuote(zshDesc(f.Usage))
		action, msg := "", strings.ReplaceAll(f.Arg, ":", " ")
		switch argKind(f) {
		case "file":
			action = ":" + msg + ":_files"
		case "dir":
			action = ":" + msg + ":_files -/"
		case "value":
			action = ":" + msg + ": "
		}
		if len(f.Names) > 1 {
			excl := "(" + strings.Join(f.Names, " ") + ")"
			fmt.Fprintf(&b, "  '%s'{%s}'[%s]%s' \\\n", excl, strings.Join(f.Names, ","), desc, zshQuote(action))
			continue
		}
		fmt.Fprintf(&b, "  '%s[%s]%s' \\\n", f.Names[0], desc, zshQuote(action))
	}
	b.WriteString("  '*:file:_files'\n")
	return b.String()
}

// zshDesc keeps a description from closing _arguments' brackets.
func zshDesc(s string) string {
	return strings.NewReplacer("[", "(", "]", ")", ":", " -").Replace(firstSentence(s))
}

func zshQuote(s string) string { return strings.ReplaceAll(s, "'", `'\''`) }

// Fish renders fish `complete` lines.
func Fish(d cli.Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %s (generated from its flags)\n", d.Name)
	for _, f := range d.Flags {
		fmt.Fprintf(&b, "complete -c %s", d.Name)
		for _, n := range f.Names {
			if strings.HasPrefix(n, "--") {
				fmt.Fprintf(&b, " -l %s", n[2:])
			} else {
				fmt.Fprintf(&b, " -s %s", n[1:])
			}
		}
		switch argKind(f) {
		case "file":
			b.WriteString(" -r -F")
		case "dir":
			b.WriteString(" -r -f -a '(__fish_complete_directories)'")
		case "value":
			b.WriteString(" -r -f")
		}
		fmt.Fprintf(&b, " -d '%s'\n", strings.ReplaceAll(strings.ReplaceAll(firstSentence(f.Usage), `\`, `\\`), "'", `\'`))
	}
	return b.String()
}

// firstSentence shortens a flag's help to what fits a completion menu.
func firstSentence(s string) string {
	if i := strings.Index(s, "; "); i > 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i]
	}
	return s
}
