// Package clidoc renders a tool's documentation (cli.Doc, made of its flag
// definitions and help text) as a man page and as completion scripts for
// bash, zsh and fish. Nothing here is written by hand per tool, so a page
// or a completion cannot drift from the binary it describes.
package clidoc

import (
	"fmt"
	"strings"

	"github.com/rtch/rtch/pkg/cli"
)

// Page says where a man page belongs: its version and date in the footer,
// and the other pages its SEE ALSO section names.
type Page struct {
	// Version is printed in the footer, e.g. "rtch v1.2.3".
	Version string
	// Date is the page's date (YYYY-MM-DD): the commit's, so that the same
	// commit gives the same page.
	Date string
	// SeeAlso names the other tools' pages.
	SeeAlso []string
}

// Man renders d as a man(7) page for section 1.
func Man(d cli.Doc, p Page) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH %s 1 %s %s \"rtch manual\"\n", strings.ToUpper(d.Name), quoteArg(p.Date), quoteArg(p.Version))
	// Left-adjusted and unhyphenated: identifiers and paths in the text are
	// copied from the page as they are.
	b.WriteString(".ad l\n.nh\n.SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", escape(d.Name), escape(d.Summary))
	b.WriteString(".SH SYNOPSIS\n.nf\n")
	for _, l := range strings.Split(d.Usage, "\n") {
		b.WriteString(textLine(strings.TrimLeft(l, " ")))
	}
	b.WriteString(".fi\n")
	if d.Description != "" {
		b.WriteString(".SH DESCRIPTION\n")
		writeParagraphs(&b, d.Description)
	}
	b.WriteString(".SH OPTIONS\n")
	for _, f := range d.Flags {
		b.WriteString(".TP\n")
		b.WriteString(flagTerm(f))
		usage := f.Usage
		if f.Default != "" {
			usage += " (default " + f.Default + ")"
		}
		b.WriteString(textLine(usage))
	}
	if d.Example != "" {
		b.WriteString(".SH EXAMPLE\n.nf\n.RS 4\n")
		for _, l := range strings.Split(d.Example, "\n") {
			b.WriteString(textLine(l))
		}
		b.WriteString(".RE\n.fi\n")
	}
	b.WriteString(".SH EXIT STATUS\n")
	for _, c := range d.ExitCodes {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s", escape(c[0]), textLine(c[1]))
	}
	if len(p.SeeAlso) > 0 {
		b.WriteString(".SH SEE ALSO\n")
		refs := make([]string, len(p.SeeAlso))
		for i, n := range p.SeeAlso {
			refs[i] = ".BR " + escape(n) + " (1)"
		}
		b.WriteString(strings.Join(refs, " ,\n") + "\n")
	}
	return b.String()
}

// flagTerm is the bold flag names with the italic placeholder.
func flagTerm(f cli.FlagDoc) string {
	names := make([]string, len(f.Names))
	for i, n := range f.Names {
		names[i] = `\fB` + escape(n) + `\fR`
	}
	term := strings.Join(names, ", ")
	if f.Arg != "" {
		term += ` \fI` + escape(f.Arg) + `\fR`
	}
	return term + "\n"
}

// writeParagraphs renders text whose blank lines separate paragraphs; a
// block of indented lines keeps its layout.
func writeParagraphs(b *strings.Builder, text string) {
	first := true
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.Trim(para, "\n")
		if para == "" {
			continue
		}
		if !first {
			b.WriteString(".PP\n")
		}
		first = false
		preformatted := strings.HasPrefix(para, " ")
		if preformatted {
			b.WriteString(".nf\n.RS 4\n")
		}
		for _, l := range strings.Split(para, "\n") {
			if preformatted {
				l = strings.TrimPrefix(l, "  ")
			}
			b.WriteString(textLine(l))
		}
		if preformatted {
			b.WriteString(".RE\n.fi\n")
		}
	}
}

// textLine escapes one line of running text so that roff prints it as
// written: backslashes and dashes, and a leading control character.
func textLine(l string) string {
	l = escape(l)
	if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
		l = `\&` + l
	}
	return l + "\n"
}

// escape makes s literal roff text: backslashes and dashes escaped, and
// every character outside ASCII named by its code point, which groff,
// mandoc and man-db all read whatever the page's encoding is taken to be.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 0x7e:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// quoteArg quotes a macro argument.
func quoteArg(s string) string {
	return `"` + strings.ReplaceAll(escape(s), `"`, `\(dq`) + `"`
}
