package wiki

import (
	"github.com/rtch/rtch/pkg/secret"

	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
)

// Page is one parsed wiki file.
type Page struct {
	// Path is relative to the project root, slash-separated.
	Path string
	// Category is the frontmatter type, or one derived from the folder
	// (wiki/decisions → decision) when the page does not say.
	Category string
	// Title is the frontmatter title, else the first H1, else the file name.
	Title string
	// Front is the decoded frontmatter (zero when absent or rejected).
	Front Frontmatter
	// HasFront reports a frontmatter block that was found and accepted.
	HasFront bool
	// Body is the text after the frontmatter.
	Body string
	// BodyLine is the 1-based file line the body starts on.
	BodyLine int
	// Sections are the body split at its headings.
	Sections []Section
	// Hash is the hex SHA-256 of the raw file bytes.
	Hash string
}

// Section is the text under one heading, up to the next heading of any level.
type Section struct {
	// Heading is the heading text ("" for text before the first heading).
	Heading string
	// Level is the heading level 1..6 (0 for the preamble).
	Level int
	// Path is the chain of headings from the top of the page to this one.
	Path []string
	// Text is the section's lines, its heading line included.
	Text string
	// StartLine and EndLine are 1-based file lines, inclusive.
	StartLine, EndLine int
}

// Withheld reports a page whose sensitivity is secret: no recall returns
// it, no bundle includes it, and no index keeps its text.
func (p *Page) Withheld() bool { return p.Front.Sensitivity == "secret" }

// HeadingPath joins the section's heading chain with " > ".
func (s Section) HeadingPath() string { return strings.Join(s.Path, " > ") }

// categoryDirs maps wiki folders to the page type they imply.
var categoryDirs = map[string]string{
	"context": "context", "standards": "standard", "entities": "entity",
	"products": "product", "concepts": "concept", "decisions": "decision",
	"sources": "source",
}

// CategoryFromPath derives a page type from its folder under wiki/, or
// "principles" for .guild/principles.md. It returns "" when nothing fits.
func CategoryFromPath(rel string) string {
	if rel == ".guild/principles.md" {
		return "principles"
	}
	parts := strings.Split(rel, "/")
	if len(parts) >= 3 && parts[0] == "wiki" {
		if parts[1] == "entities" && len(parts) >= 4 && parts[2] == "products" {
			return "entity"
		}
		return categoryDirs[parts[1]]
	}
	return ""
}

// Parse builds a Page from raw file bytes. Frontmatter problems never fail
// the page: they come back as diagnostics (naming path and line) and the page
// is treated as having no frontmatter, so it gets no provenance and the trust
// classifier's default deny applies.
func Parse(rel string, data []byte) (*Page, []Diagnostic) {
	sum := sha256.Sum256(data)
	p := &Page{Path: rel, Hash: hex.EncodeToString(sum[:])}
	text := NormalizeText(data)
	var diags []Diagnostic
	yamlText, body, bodyLine, ok, unterminated := SplitFrontmatter(text)
	if d, tomlBody, tomlLine, isTOML := splitTOMLFrontmatter(rel, text); isTOML {
		diags = append(diags, d)
		body, bodyLine = tomlBody, tomlLine
	}
	switch {
	case unterminated:
		diags = append(diags, Diagnostic{Path: rel, Line: 1, Message: "frontmatter opened with --- but never closed; page read as body only"})
	case ok:
		fm, warns, err := ParseFrontmatter(yamlText, 2)
		for _, w := range warns {
			w.Path = rel
			diags = append(diags, w)
		}
		if err != nil {
			line := 1
			msg := err.Error()
			if fe, isFE := err.(*FrontmatterError); isFE {
				line, msg = fe.Line, fe.Msg
			}
			diags = append(diags, Diagnostic{Path: rel, Line: line, Message: "frontmatter rejected: " + msg + "; page read without provenance"})
		} else {
			p.Front, p.HasFront = fm, true
		}
	}
	// Secrets are masked here, where wiki text is read, so every section,
	// recall chunk and bundle built from the page is sized on clean text;
	// the whole body is redacted at once (line count kept), so a key
	// spanning a section boundary is masked on both sides.
	body = secret.String(body)
	p.Body, p.BodyLine = body, bodyLine
	p.Sections = SplitSections(body, bodyLine)
	p.Category = p.Front.Type
	if p.Category == "" {
		p.Category = CategoryFromPath(rel)
	}
	// The title is indexed and shown as the body is, so it is masked too
	// when it comes from the file name (wiki/ghp_….md); the frontmatter's
	// values, its title among them, were masked when it was parsed.
	p.Title = p.Front.Title // redacted by ParseFrontmatter
	if p.Title == "" {
		for _, s := range p.Sections {
			if s.Level == 1 {
				p.Title = s.Heading
				break
			}
		}
	}
	if p.Title == "" {
		p.Title = secret.String(strings.TrimSuffix(path.Base(rel), path.Ext(rel)))
	}
	return p, diags
}

// SplitSections cuts a Markdown body at ATX headings (outside fenced code)
// into sections. firstLine is the file line of the body's first line.
// Sections with no text besides their heading are dropped; their heading
// still appears in the path of the sections below them.
func SplitSections(body string, firstLine int) []Section { return split(body, firstLine, false) }

// SplitHeadings is SplitSections keeping every heading, also those with no
// text of their own: the page's outline.
func SplitHeadings(body string, firstLine int) []Section { return split(body, firstLine, true) }

func split(body string, firstLine int, keepEmpty bool) []Section {
	lines := strings.Split(body, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []Section
	var stack []Section // open headings by level
	cur := Section{StartLine: firstLine}
	// The buffered lines are lines[lo:hi], body[from:to] in the text: a
	// section's text is a substring of the body, not a copy.
	lo, hi, from, to := 0, 0, 0, 0
	off := 0 // offset of lines[i] in body
	fence := ""
	add := func(i int) {
		if hi == lo {
			lo, from = i, off
		}
		hi, to = i+1, off+len(lines[i])
	}
	flush := func(end int) {
		cur.Text = strings.TrimRight(body[from:to], "\n ")
		cur.EndLine = end
		if hasContent(lines[lo:hi], cur.Level > 0) || keepEmpty && cur.Level > 0 {
			out = append(out, cur)
		}
		lo, hi, from, to = 0, 0, 0, 0
	}
	for i, l := range lines {
		ln := firstLine + i
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			add(i)
		case len(l)-len(trimmed) <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
			add(i)
		default:
			level, heading := atxHeading(l)
			if level == 0 {
				add(i)
				break
			}
			flush(ln - 1)
			for len(stack) > 0 && stack[len(stack)-1].Level >= level {
				stack = stack[:len(stack)-1]
			}
			hpath := make([]string, 0, len(stack)+1)
			for _, s := range stack {
				hpath = append(hpath, s.Heading)
			}
			hpath = append(hpath, heading)
			cur = Section{Heading: heading, Level: level, Path: hpath, StartLine: ln}
			stack = append(stack, cur)
			add(i)
		}
		off += len(l) + 1
	}
	flush(firstLine + len(lines) - 1)
	return out
}

// hasContent reports whether a section carries text beyond its heading line.
func hasContent(buf []string, skipFirst bool) bool {
	for i, l := range buf {
		if i == 0 && skipFirst {
			continue
		}
		if strings.TrimSpace(l) != "" {
			return true
		}
	}
	return false
}

// atxHeading returns the level and text of a Markdown ATX heading line, or 0.
func atxHeading(l string) (int, string) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0, ""
	}
	if n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0, ""
	}
	h := strings.TrimSpace(t[n:])
	// A closing run of #s preceded by a space is not part of the text.
	if i := strings.LastIndex(h, " #"); i >= 0 && strings.Trim(h[i+1:], "#") == "" {
		h = strings.TrimSpace(h[:i])
	} else if strings.Trim(h, "#") == "" {
		h = ""
	}
	return n, h
}

// splitTOMLFrontmatter recognises Hugo-style TOML frontmatter (a first line
// "+++" up to a closing "+++"). It is rejected with a diagnostic naming the
// page and line, never read as body text: the block is cut from the body and
// the page is read without provenance, as for rejected YAML frontmatter.
func splitTOMLFrontmatter(rel, text string) (d Diagnostic, body string, bodyLine int, ok bool) {
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "+++" {
		return d, "", 0, false
	}
	line := 2
	for rest != "" {
		l, after, found := strings.Cut(rest, "\n")
		if strings.TrimRight(l, " \t") == "+++" {
			return Diagnostic{Path: rel, Line: 1, Message: fmt.Sprintf("TOML frontmatter (+++, lines 1-%d) is not supported; use YAML (---); page read without provenance", line)}, after, line + 1, true
		}
		if !found {
			break
		}
		rest, line = after, line+1
	}
	return Diagnostic{Path: rel, Line: 1, Message: "frontmatter opened with +++ but never closed; page read as body only"}, text, 1, true
}
