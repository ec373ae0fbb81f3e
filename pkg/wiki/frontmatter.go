// Package wiki models the pages of a guild project wiki: Markdown files with
// an optional YAML frontmatter block (SPEC §10), split into sections at their
// headings so that a recall chunk is one section together with its heading
// path.
//
// The parser is deliberately strict about provenance (duplicate keys, aliases
// and oversized blocks reject the frontmatter instead of guessing) and lenient
// about text (CRLF, CR-only, a BOM and invalid UTF-8 are normalised), because
// frontmatter decides how far a page is trusted and the body is only data.
package wiki

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/rtch/rtch/pkg/secret"
)

// MaxFrontmatterBytes caps the frontmatter block that is handed to the YAML
// decoder; larger blocks are rejected before decoding (bad-inputs P08).
const MaxFrontmatterBytes = 64 << 10

// maxYAMLDepth bounds nesting inside frontmatter; SPEC fields are at most two
// levels deep.
const maxYAMLDepth = 32

// Frontmatter holds the SPEC §10 page fields plus the provenance flags the
// trust classifier reads. Unknown keys are kept by name in Keys so that a
// page claiming a trust tier can be flagged.
type Frontmatter struct {
	// Type is the page kind: context, standard, product, entity, concept,
	// decision or source.
	Type string `json:"type,omitempty"`
	// Title is an optional display title; the first H1 is used otherwise.
	Title string `json:"title,omitempty"`
	// Owner is who maintains the page (operator, reviewed, synthesized, a name).
	Owner string `json:"owner,omitempty"`
	// Confidence is low, medium or high.
	Confidence string `json:"confidence,omitempty"`
	// SourceRefs are the human sources the page was written from.
	SourceRefs []string `json:"source_refs,omitempty"`
	// Importance is 1..5; 0 means the page did not say.
	Importance int `json:"importance,omitempty"`
	// CreatedAt is the creation date as written (YYYY-MM-DD or RFC 3339).
	CreatedAt string `json:"created_at,omitempty"`
	// UpdatedAt is the last update date as written.
	UpdatedAt string `json:"updated_at,omitempty"`
	// ExpiresAt is the date after which the page is no longer recalled.
	ExpiresAt string `json:"expires_at,omitempty"`
	// Supersedes lists the pages (paths or slugs) this page replaces.
	Supersedes []string `json:"supersedes,omitempty"`
	// Aliases are other names of the page's subject (a graph node id or
	// name, a product's code name); guild-bundle matches graph nodes by them.
	Aliases []string `json:"aliases,omitempty"`
	// Sensitivity is public, internal, confidential or secret.
	Sensitivity string `json:"sensitivity,omitempty"`
	// Synthesized marks a page written by a model rather than a person.
	Synthesized bool `json:"synthesized,omitempty"`
	// Reviewed marks a page a person has reviewed.
	Reviewed bool `json:"reviewed,omitempty"`
	// Harvested marks a page ingested from outside the project.
	Harvested bool `json:"harvested,omitempty"`
	// TrustClaims lists keys whose mere presence claims a trust level
	// (trust_tier, verified, …). They are never believed; recall flags them.
	TrustClaims []string `json:"trust_claims,omitempty"`
	// Keys is every top-level key in document order.
	Keys []string `json:"keys,omitempty"`
}

// Enumerations from SPEC §10; values outside them are warnings, not errors.
var (
	pageTypes     = []string{"context", "standard", "product", "entity", "concept", "decision", "source"}
	confidences   = []string{"low", "medium", "high"}
	sensitivities = []string{"public", "internal", "confidential", "secret"}
)

// trustClaimKeys are frontmatter keys that assert trust instead of
// describing provenance (bad-inputs P05).
var trustClaimKeys = map[string]bool{
	"trust_tier": true, "trust-tier": true, "trusttier": true, "trust": true,
	"tier": true, "verified": true, "trusted": true, "operator": true,
}

// Diagnostic is a problem found in a file, with the 1-based line it is on.
type Diagnostic struct {
	// Path is the file, relative to the project root, slash-separated.
	Path string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line int
	// Message is lowercase without a final period.
	Message string
	// Skipped is set when the file is left out of the recall (ignored, not
	// a regular file, over the cap, binary, a Git LFS pointer, unreadable):
	// guild-recall lists it in the record's skipped field as well.
	Skipped bool `json:",omitempty"`
}

// ReadError is the diagnostic of a page Read refused: the file is skipped.
func ReadError(path string, err error) Diagnostic {
	return Diagnostic{Path: path, Message: strings.TrimPrefix(err.Error(), path+": "), Skipped: true}
}

// String renders "path:line: message". A path with a character that does
// not print (a control character, C1 ones included, a bidi override, a
// zero-width character: a file name can hold a newline or a terminal's
// escape sequence) or invalid UTF-8 is quoted, so one diagnostic stays one
// line and shows the name as it is.
func (d Diagnostic) String() string {
	p := d.Path
	if strings.ContainsFunc(p, func(r rune) bool { return !unicode.IsPrint(r) || r == utf8.RuneError }) {
		p = strconv.Quote(p)
	}
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p, d.Line, d.Message)
	}
	return fmt.Sprintf("%s: %s", p, d.Message)
}

// FrontmatterError is returned when a frontmatter block exists but cannot be
// used. Line is 1-based in the file (after BOM removal).
type FrontmatterError struct {
	Line int
	Msg  string
}

func (e *FrontmatterError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// NormalizeText turns raw file bytes into the text the wiki works on: a
// leading UTF-8 BOM is dropped, CRLF and lone CR become LF, and invalid UTF-8
// is replaced with U+FFFD so no decoder later sees forged bytes.
func NormalizeText(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(b, '\r') >= 0 {
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		b = bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// SplitFrontmatter separates a leading "---" fenced block from the body of
// normalised text. It returns the YAML text, the body, the 1-based line the
// body starts on, and whether a block was found. An opening fence without a
// closing one is reported through ok=false and unterminated=true; the whole
// text is then the body.
func SplitFrontmatter(text string) (yamlText, body string, bodyLine int, ok, unterminated bool) {
	first, rest, found := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return "", text, 1, false, false
	}
	if !found {
		return "", text, 1, false, true
	}
	line := 2
	off := 0
	for off <= len(rest) {
		end := strings.IndexByte(rest[off:], '\n')
		var l string
		if end < 0 {
			l = rest[off:]
		} else {
			l = rest[off : off+end]
		}
		t := strings.TrimRight(l, " \t")
		if t == "---" || t == "..." {
			yamlText = rest[:off]
			if end < 0 {
				body = ""
			} else {
				body = rest[off+end+1:]
			}
			return yamlText, body, line + 1, true, false
		}
		if end < 0 {
			break
		}
		off += end + 1
		line++
	}
	return "", text, 1, false, true
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// ParseFrontmatter decodes a frontmatter block whose first line is line
// firstLine of the file. Problems that make the block unusable are returned
// as *FrontmatterError (duplicate keys, aliases, tabs, bad types, oversize);
// questionable values (an unknown type, importance out of range) come back as
// warnings with their line and the block is still used.
//
// Every string it returns is redacted (pkg/secret): the values and keys the
// Frontmatter keeps, and the messages of warnings and errors, which may
// quote a value. A page's metadata is stored in the wiki indexes and shown
// in records as its body is, so a token written as an owner, an alias, a
// date or a key is masked where it is read, never stored.
func ParseFrontmatter(yamlText string, firstLine int) (Frontmatter, []Diagnostic, error) {
	fm, warns, err := parseFrontmatter(yamlText, firstLine)
	for i := range warns {
		warns[i].Message = secret.String(warns[i].Message)
	}
	if fe, ok := err.(*FrontmatterError); ok {
		fe.Msg = secret.String(fe.Msg)
	}
	return fm.redacted(), warns, err
}

// redacted is fm with every string in it passed through the redactor;
// supersedes targets, which name pages, are masked as a page's path is
// (secret.Path), so that a target still names the page it supersedes under
// the spelling the indexes store and every output shows.
func (fm Frontmatter) redacted() Frontmatter {
	for _, s := range []*string{&fm.Type, &fm.Title, &fm.Owner, &fm.Confidence, &fm.CreatedAt,
		&fm.UpdatedAt, &fm.ExpiresAt, &fm.Sensitivity} {
		*s = secret.String(*s)
	}
	for _, l := range [][]string{fm.SourceRefs, fm.Aliases, fm.TrustClaims, fm.Keys} {
		for i := range l {
			l[i] = secret.String(l[i])
		}
	}
	for i := range fm.Supersedes {
		fm.Supersedes[i] = secret.Path(fm.Supersedes[i])
	}
	return fm
}

func parseFrontmatter(yamlText string, firstLine int) (Frontmatter, []Diagnostic, error) {
	var fm Frontmatter
	if len(yamlText) > MaxFrontmatterBytes {
		return fm, nil, &FrontmatterError{Line: firstLine, Msg: fmt.Sprintf("frontmatter is %d bytes, over the %d-byte cap", len(yamlText), MaxFrontmatterBytes)}
	}
	if strings.TrimSpace(yamlText) == "" {
		return fm, nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(yamlText), &doc); err != nil {
		return fm, nil, yamlError(err, firstLine)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return fm, nil, nil
	}
	root := doc.Content[0]
	if err := checkNode(root, firstLine, 0); err != nil {
		return fm, nil, err
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return fm, nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return fm, nil, &FrontmatterError{Line: root.Line + firstLine - 1, Msg: "frontmatter is not a mapping of keys to values"}
	}
	var warns []Diagnostic
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		kl := k.Line + firstLine - 1
		vl := v.Line + firstLine - 1
		if k.Kind != yaml.ScalarNode {
			return fm, nil, &FrontmatterError{Line: kl, Msg: "frontmatter key is not a plain string"}
		}
		key := k.Value
		if prev, dup := seen[key]; dup {
			return fm, nil, &FrontmatterError{Line: kl, Msg: fmt.Sprintf("mapping key %q already defined at line %d", key, prev)}
		}
		seen[key] = kl
		fm.Keys = append(fm.Keys, key)
		if trustClaimKeys[strings.ToLower(key)] {
			fm.TrustClaims = append(fm.TrustClaims, key)
			continue
		}
		var err error
		switch key {
		case "type":
			fm.Type, err = scalar(v, key, vl)
			if err == nil && fm.Type != "" && !contains(pageTypes, fm.Type) {
				warns = append(warns, Diagnostic{Line: vl, Message: fmt.Sprintf("unknown page type %q (want one of %s)", fm.Type, strings.Join(pageTypes, ", "))})
			}
		case "title":
			fm.Title, err = scalar(v, key, vl)
		case "owner":
			fm.Owner, err = scalar(v, key, vl)
		case "confidence":
			fm.Confidence, err = scalar(v, key, vl)
			if err == nil && fm.Confidence != "" && !contains(confidences, fm.Confidence) {
				warns = append(warns, Diagnostic{Line: vl, Message: fmt.Sprintf("unknown confidence %q (want low, medium or high)", fm.Confidence)})
			}
		case "source_refs":
			fm.SourceRefs, err = stringList(v, key, vl)
		case "importance":
			var s string
			s, err = scalar(v, key, vl)
			if err == nil && s != "" {
				n, perr := strconv.Atoi(s)
				if perr != nil {
					err = &FrontmatterError{Line: vl, Msg: fmt.Sprintf("importance %q is not an integer", s)}
				} else if n < 1 || n > 5 {
					warns = append(warns, Diagnostic{Line: vl, Message: fmt.Sprintf("importance %d is outside 1..5; clamped", n)})
					fm.Importance = min(max(n, 1), 5)
				} else {
					fm.Importance = n
				}
			}
		case "created_at":
			fm.CreatedAt, err = scalar(v, key, vl)
		case "updated_at":
			fm.UpdatedAt, err = scalar(v, key, vl)
		case "expires_at":
			fm.ExpiresAt, err = scalar(v, key, vl)
		case "supersedes":
			fm.Supersedes, err = stringList(v, key, vl)
		case "aliases":
			fm.Aliases, err = stringList(v, key, vl)
		case "sensitivity":
			fm.Sensitivity, err = scalar(v, key, vl)
			if err == nil && fm.Sensitivity != "" && !contains(sensitivities, fm.Sensitivity) {
				warns = append(warns, Diagnostic{Line: vl, Message: fmt.Sprintf("unknown sensitivity %q", fm.Sensitivity)})
			}
		case "synthesized":
			fm.Synthesized, err = boolean(v, key, vl)
		case "reviewed":
			fm.Reviewed, err = boolean(v, key, vl)
		case "harvested":
			fm.Harvested, err = boolean(v, key, vl)
		}
		if err != nil {
			return Frontmatter{}, nil, err
		}
	}
	return fm, warns, nil
}

// checkNode rejects aliases and anchors (no wiki page needs them, and alias
// expansion is the "billion laughs" vector), excessive depth, and tabs used
// for indentation are already rejected by the YAML scanner itself.
func checkNode(n *yaml.Node, firstLine, depth int) error {
	if depth > maxYAMLDepth {
		return &FrontmatterError{Line: n.Line + firstLine - 1, Msg: fmt.Sprintf("frontmatter nests deeper than %d levels", maxYAMLDepth)}
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return &FrontmatterError{Line: n.Line + firstLine - 1, Msg: "yaml anchors and aliases are not allowed in frontmatter"}
	}
	for _, c := range n.Content {
		if err := checkNode(c, firstLine, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func yamlError(err error, firstLine int) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := firstLine
	if m := yamlLineRE.FindStringSubmatchIndex(msg); m != nil {
		n, _ := strconv.Atoi(msg[m[2]:m[3]])
		line = n + firstLine - 1
		msg = msg[:m[0]] + msg[m[1]:]
		msg = strings.TrimLeft(msg, ": ")
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = strings.Join(te.Errors, "; ")
	}
	return &FrontmatterError{Line: line, Msg: "malformed yaml: " + msg}
}

func scalar(v *yaml.Node, key string, line int) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", &FrontmatterError{Line: line, Msg: fmt.Sprintf("%s must be a single value", key)}
	}
	if v.Tag == "!!null" {
		return "", nil
	}
	return strings.TrimSpace(v.Value), nil
}

func stringList(v *yaml.Node, key string, line int) ([]string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" || strings.TrimSpace(v.Value) == "" {
			return nil, nil
		}
		return []string{strings.TrimSpace(v.Value)}, nil
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, &FrontmatterError{Line: c.Line + line - v.Line, Msg: fmt.Sprintf("%s entries must be plain values", key)}
			}
			if s := strings.TrimSpace(c.Value); s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	}
	return nil, &FrontmatterError{Line: line, Msg: fmt.Sprintf("%s must be a list", key)}
}

func boolean(v *yaml.Node, key string, line int) (bool, error) {
	s, err := scalar(v, key, line)
	if err != nil || s == "" {
		return false, err
	}
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, &FrontmatterError{Line: line, Msg: fmt.Sprintf("%s must be true or false, not %q", key, s)}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
