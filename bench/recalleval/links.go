package main

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
)

// A link found in Markdown text: where it starts and what it points at, as
// written.
type link struct {
	at     int
	target string
}

var (
	// [text](target "title"), where target may be <…> or a Hugo shortcode
	// ({{< ref "x" >}}, {{% relref x %}}), which hold spaces. Images (![…])
	// are matched too and dropped by the caller.
	reInline = regexp.MustCompile(`(!?)\[[^\]]*\]\(\s*(\{\{[<%].*?[%>]\}\}|<[^>]*>|[^)\s]+)[^)]*\)`)
	// [text][ref] and [text][] (the text is the reference).
	reFull = regexp.MustCompile(`\[([^\]]+)\]\[([^\]]*)\]`)
	// [ref]: target
	reDef = regexp.MustCompile(`(?m)^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)`)
	// <a href="target">
	reAnchor = regexp.MustCompile(`(?i)<a\s[^>]*href\s*=\s*["']([^"']+)["']`)
	// the argument of a Hugo ref/relref shortcode
	reShortcode = regexp.MustCompile(`^\{\{[<%]\s*(?:rel)?ref\s+"?([^"\s>%]+)"?\s*[%>]\}\}$`)
)

// linkDefs are a page's reference definitions, by lowercased label.
func linkDefs(page string) map[string]string {
	defs := map[string]string{}
	for _, m := range reDef.FindAllStringSubmatch(page, -1) {
		label := strings.ToLower(strings.TrimSpace(m[1]))
		if _, dup := defs[label]; !dup {
			defs[label] = strings.Trim(m[2], "<>")
		}
	}
	return defs
}

// links returns the links of text in the order they appear: inline links,
// full and collapsed reference links resolved through defs, and HTML
// anchors. Image sources are not links.
func links(text string, defs map[string]string) []link {
	var out []link
	for _, m := range reInline.FindAllStringSubmatchIndex(text, -1) {
		if m[3] > m[2] { // "!" before the bracket: an image
			continue
		}
		out = append(out, link{m[0], strings.Trim(text[m[4]:m[5]], "<>")})
	}
	for _, m := range reFull.FindAllStringSubmatchIndex(text, -1) {
		label := text[m[4]:m[5]]
		if label == "" {
			label = text[m[2]:m[3]]
		}
		if t, ok := defs[strings.ToLower(strings.TrimSpace(label))]; ok {
			out = append(out, link{m[0], t})
		}
	}
	for _, m := range reAnchor.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, link{m[0], text[m[2]:m[3]]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out
}

// resolver maps link targets of one documentation tree to its pages.
type resolver struct {
	src   source
	pages map[string]bool     // page paths relative to the docs root
	names map[string][]string // page base name without extension → pages
}

func newResolver(src source, pages []string) *resolver {
	r := &resolver{src: src, pages: map[string]bool{}, names: map[string][]string{}}
	for _, p := range pages {
		r.pages[p] = true
		base := strings.TrimSuffix(path.Base(p), path.Ext(p))
		r.names[base] = append(r.names[base], p)
	}
	return r
}

// resolve returns the page a link target written in page from points at,
// or "" when it points outside the tree, at no page, or only at an anchor.
// The rule, in order: a Hugo ref shortcode names a path or a unique page
// name; an absolute URL counts only on the site's own hosts; a
// site-absolute path is taken below the site's URL base; anything else is
// relative to the page's file, then (for sites that serve a page at
// dir/name/) to the page's URL.
func (r *resolver) resolve(from, target string) string {
	if m := reShortcode.FindStringSubmatch(target); m != nil {
		return r.shortcode(from, m[1])
	}
	for old, repl := range r.src.Replace {
		target = strings.ReplaceAll(target, old, repl)
	}
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	p := u.Path
	if u.Host != "" {
		if !r.ownHost(u.Host) {
			return ""
		}
		if p == "" {
			return ""
		}
	}
	if p == "" {
		return "" // an anchor on the same page
	}
	if strings.HasPrefix(p, "/") {
		for _, base := range r.src.URLBase {
			if rest, ok := strings.CutPrefix(p, base); ok {
				return r.page(path.Clean("/" + rest)[1:])
			}
		}
		return ""
	}
	if got := r.page(path.Join(path.Dir(from), p)); got != "" {
		return got
	}
	// A page served as dir/name/ resolves relative links against that URL.
	return r.page(path.Join(strings.TrimSuffix(from, path.Ext(from)), p))
}

func (r *resolver) ownHost(h string) bool {
	for _, own := range r.src.Hosts {
		if strings.EqualFold(h, own) {
			return true
		}
	}
	return false
}

// shortcode resolves a Hugo ref argument: a path (relative to the page, or
// to the content root with a leading /), else the one page of that name.
func (r *resolver) shortcode(from, arg string) string {
	arg, _, _ = strings.Cut(arg, "#")
	if arg == "" {
		return ""
	}
	if strings.HasPrefix(arg, "/") {
		if got := r.page(strings.TrimPrefix(arg, "/")); got != "" {
			return got
		}
	} else if got := r.page(path.Join(path.Dir(from), arg)); got != "" {
		return got
	}
	name := strings.TrimSuffix(path.Base(arg), path.Ext(arg))
	if ps := r.names[name]; len(ps) == 1 {
		return ps[0]
	}
	return ""
}

// page finds the page a cleaned path names: the file itself, the path with
// .md or .mdx added (or .html replaced), or the index page of a directory.
func (r *resolver) page(p string) string {
	p = strings.TrimSuffix(path.Clean(p), "/")
	if p == "." || p == "" || p == ".." || strings.HasPrefix(p, "../") {
		return "" // the tree's root, or outside the tree
	}
	stem := strings.TrimSuffix(p, ".html")
	cands := []string{p, stem + ".md", stem + ".mdx"}
	for _, idx := range []string{"index.md", "_index.md", "README.md", "index.mdx", "_index.mdx"} {
		cands = append(cands, path.Join(p, idx))
	}
	for _, c := range cands {
		if r.pages[c] {
			return c
		}
	}
	return ""
}
