// Package recordsdoc renders docs/records.md from the comments and struct tags of
// package schema, so the reference for every record kind cannot drift from the
// types the tools encode.
package recordsdoc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
)

// Render parses the Go files of the schema package in dir and returns the
// markdown reference.
func Render(dir string) (string, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", err
	}
	// Pipeline order: the kinds appear in the order the stages emit them.
	rankOf := map[string]int{"intake.go": 1, "zone.go": 2, "discovery.go": 3, "relations.go": 3, "evidence.go": 4, "packet.go": 5, "summary.go": 5, "guild.go": 6}
	sort.SliceStable(files, func(i, j int) bool {
		ri, rj := rankOf[filepath.Base(files[i])], rankOf[filepath.Base(files[j])]
		if ri == 0 {
			ri = 99
		}
		if rj == 0 {
			rj = 99
		}
		if ri != rj {
			return ri < rj
		}
		return files[i] < files[j]
	})
	types := map[string]*ast.TypeSpec{}
	docs := map[string]string{}
	var order []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			return "", err
		}
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				if _, ok := ts.Type.(*ast.StructType); !ok {
					continue
				}
				types[ts.Name.Name] = ts
				doc := gd.Doc.Text()
				if ts.Doc != nil {
					doc = ts.Doc.Text()
				}
				docs[ts.Name.Name] = oneParagraph(doc)
				order = append(order, ts.Name.Name)
			}
		}
	}
	var b strings.Builder
	b.WriteString("# Records\n\n")
	b.WriteString("<!-- Generated from pkg/schema by `go test ./pkg/schema/... -update`; do not edit by hand. -->\n\n")
	b.WriteString("Every tool reads and writes NDJSON: one JSON object per line, UTF-8, `\\n`-terminated. ")
	b.WriteString("Every record starts with the envelope `kind`, `v` (schema version of that kind) and `id` ")
	b.WriteString("(the first 16 hex digits of sha256 over the kind and the record's identity fields, never random), ")
	b.WriteString("followed by its payload, flat. A stage passes every record it reads through byte for byte ")
	b.WriteString("and appends its own; unknown kinds and versions pass through untouched.\n\n")
	b.WriteString("Types marked *(object)* are nested inside records; the others are whole records.\n\n")
	for _, name := range order {
		ts := types[name]
		st := ts.Type.(*ast.StructType)
		kind := "(object)"
		if embedsEnvelope(st) {
			kind = "record"
		}
		fmt.Fprintf(&b, "## %s %s\n\n%s\n\n", name, italic(kind), docs[name])
		b.WriteString("| field | type | meaning |\n|---|---|---|\n")
		writeFields(&b, st, types)
		b.WriteString("\n")
	}
	return b.String(), nil
}

func italic(s string) string { return "*" + s + "*" }

func embedsEnvelope(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 && exprString(f.Type) == "record.Envelope" {
			return true
		}
	}
	return false
}

// writeFields writes one row per JSON field. A comment that describes several
// fields at once ("StartLine, EndLine and TargetLine …") is repeated for each
// field it names.
func writeFields(b *strings.Builder, st *ast.StructType, types map[string]*ast.TypeSpec) {
	prevDoc := ""
	for _, f := range st.Fields.List {
		typ := exprString(f.Type)
		if len(f.Names) == 0 {
			if typ == "record.Envelope" {
				b.WriteString("| `kind`, `v`, `id` | envelope | see above |\n")
				continue
			}
			if ts, ok := types[typ]; ok {
				writeFields(b, ts.Type.(*ast.StructType), types)
			}
			continue
		}
		tag := ""
		if f.Tag != nil {
			tag = reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Get("json")
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" {
			continue
		}
		doc := oneParagraph(f.Doc.Text())
		if doc == "" && strings.Contains(prevDoc, f.Names[0].Name) {
			doc = prevDoc
		}
		prevDoc = doc
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", name, jsonType(typ), strings.ReplaceAll(doc, "|", "\\|"))
	}
}

func jsonType(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return jsonType(t[2:]) + "[]"
	case strings.HasPrefix(t, "*"):
		return jsonType(t[1:]) + " or null"
	case strings.HasPrefix(t, "map[string]"):
		return "object of " + jsonType(t[len("map[string]"):])
	}
	switch t {
	case "string":
		return "string"
	case "int", "int64":
		return "integer"
	case "float64":
		return "number"
	case "bool":
		return "boolean"
	case "any":
		return "any"
	}
	return "`" + t + "`"
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	case *ast.ArrayType:
		return "[]" + exprString(x.Elt)
	case *ast.MapType:
		return "map[" + exprString(x.Key) + "]" + exprString(x.Value)
	case *ast.InterfaceType:
		return "any"
	}
	return fmt.Sprintf("%T", e)
}

func oneParagraph(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
