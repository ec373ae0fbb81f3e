package symbols

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
)

// Def is a definition with its extent: the unit a change lands in and a
// reader takes in at once.
type Def struct {
	Symbol
	// Lead is the first line of the comment, doc, decorator or attribute
	// lines directly above the head (Line when there are none).
	Lead int
	// End is the last line of the body (Line for a definition without one).
	End int
}

// maxDefBody is how far Defs looks for a body's end: far enough for any
// function a person wrote, short of a whole generated file.
const maxDefBody = 5000

// unitKinds are the kinds of definitions that hold a body of their own.
// Constants, variables, macros, typedefs and attributes are declarations
// of the file's top level.
var unitKinds = map[string]bool{"func": true, "method": true, "type": true, "class": true, "interface": true,
	"struct": true, "enum": true, "trait": true, "impl": true, "module": true}

// Defs returns the definitions of src (a file named name) that have a
// body: functions, methods, types, classes and the like, in the order of
// their heads, each with its extent. Extents nest (a method inside its
// class) or are disjoint. Go is read through go/parser (the extractor's
// line scanner when the file does not parse); the other languages through
// Extract and the end rules of End, looking up to 5,000 lines down. A
// definition whose end is not found spans its head line only.
func Defs(name string, src []byte) []Def {
	lang := Lang(name)
	if lang == "go" {
		if defs, ok := goDefs(src); ok {
			return defs
		}
	}
	var lines [][]byte
	var out []Def
	for _, s := range Extract(name, src) {
		if !unitKinds[s.Kind] {
			continue
		}
		if lines == nil {
			lines = bytes.Split(src, []byte("\n"))
			for i, l := range lines {
				lines[i] = bytes.TrimSuffix(l, []byte("\r"))
			}
		}
		end := endWithin(lang, lines, s.Line, maxDefBody)
		if end < s.Line {
			end = s.Line
		}
		out = append(out, Def{Symbol: s, Lead: leadLine(lines, s.Line), End: end})
	}
	return out
}

// goDefs reads the functions, methods and type specs of a Go file with
// go/parser; ok is false when the file does not parse.
func goDefs(src []byte) (defs []Def, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	lead := func(doc *ast.CommentGroup, at token.Pos) int {
		if doc != nil {
			return line(doc.Pos())
		}
		return line(at)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			s := Symbol{Name: d.Name.Name, Kind: "func", Line: line(d.Pos()), Lang: "go"}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				s.Kind, s.Container = "method", goRecvName(d.Recv.List[0].Type)
			}
			defs = append(defs, Def{Symbol: s, Lead: lead(d.Doc, d.Pos()), End: line(d.End())})
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, sp := range d.Specs {
				ts := sp.(*ast.TypeSpec)
				doc, at, end := ts.Doc, ts.Pos(), ts.End()
				if !d.Lparen.IsValid() {
					doc, at, end = d.Doc, d.Pos(), d.End()
				}
				s := Symbol{Name: ts.Name.Name, Kind: "type", Line: line(at), Lang: "go"}
				defs = append(defs, Def{Symbol: s, Lead: lead(doc, at), End: line(end)})
			}
		}
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].Line < defs[j].Line })
	return defs, true
}

// goRecvName is the receiver's type name: T in (t *T), (t T[K]).
func goRecvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// maxLead caps the lead lines of a definition: a longer run of comments
// above a head is a file header or commented-out code, not its doc.
const maxLead = 30

// leadLine is the first of the comment, doc, decorator and attribute lines
// directly above line head, at most maxLead of them.
func leadLine(lines [][]byte, head int) int {
	n := head
	for n > 1 && head-n < maxLead {
		t := bytes.TrimSpace(lines[n-2])
		if !(bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("#")) && !bytes.HasPrefix(t, []byte("#!")) && !cDirective(t) ||
			bytes.HasPrefix(t, []byte("@")) || bytes.HasPrefix(t, []byte("/*")) || bytes.HasPrefix(t, []byte("*"))) {
			break
		}
		n--
	}
	return n
}

// cDirective reports whether a line is a C preprocessor directive, which
// belongs to no definition below it.
func cDirective(t []byte) bool {
	t = skipSpace(t[1:])
	for _, d := range [...]string{"if", "else", "elif", "endif", "define", "undef", "include", "pragma", "error"} {
		if bytes.HasPrefix(t, []byte(d)) {
			return true
		}
	}
	return false
}

// Innermost returns the index in defs (as Defs returns them) of the
// innermost definition whose extent, lead lines included, holds line; -1
// when the line is in the file's top level.
func Innermost(defs []Def, line int) int {
	best := -1
	for i, d := range defs {
		if line >= d.Lead && line <= d.End && (best < 0 || d.Line >= defs[best].Line) {
			best = i
		}
	}
	return best
}
