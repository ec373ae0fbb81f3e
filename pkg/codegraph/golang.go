package codegraph

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
)

// extractGo reads a Go file with go/parser. Identifiers the parser resolves
// to a local declaration are dropped; the rest become Uses for the builder
// to resolve against the package and its imports.
func extractGo(f *Facts, src []byte) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, f.Path, src, 0)
	if err != nil {
		f.Problem = goProblem(f.Path, err)
		return
	}
	f.Package = file.Name.Name
	lines := bytes.Split(src, []byte("\n"))
	tf := fset.File(file.Pos())
	line := func(p token.Pos) int { return tf.Line(p) }
	sig := func(p token.Pos) string {
		n := line(p)
		if n >= 1 && n <= len(lines) {
			return signature(string(lines[n-1]))
		}
		return ""
	}
	for _, im := range file.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		alias := ""
		if im.Name != nil {
			alias = im.Name.Name
		}
		f.Imports = append(f.Imports, Import{Spec: p, Alias: alias, Line: line(im.Pos())})
	}
	w := &goWalker{f: f, file: file, line: line, generated: generatedGo(src[:min(len(src), int(file.Package)+1)])}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			w.funcDecl(d, sig)
		case *ast.GenDecl:
			w.genDecl(d, sig)
		}
	}
}

// generatedGo reports whether the text before the package clause holds
// the standard marker of generated code.
func generatedGo(head []byte) bool {
	for _, l := range bytes.Split(head, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if bytes.HasPrefix(l, []byte("// Code generated ")) && bytes.HasSuffix(l, []byte("DO NOT EDIT.")) {
			return true
		}
	}
	return false
}

func goProblem(path string, err error) string {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		e := list[0]
		return fmt.Sprintf("%s:%d:%d: %s", path, e.Pos.Line, e.Pos.Column, e.Msg)
	}
	return fmt.Sprintf("%s: %v", path, err)
}

type goWalker struct {
	// generated is true for a file marked "Code generated … DO NOT EDIT.":
	// its constants (tables of error numbers, opcodes) are not of note.
	generated bool
	f         *Facts
	file      *ast.File
	line      func(token.Pos) int
	from      string
	recv      *ast.Object // the receiver of the method being walked
	rtyp      string      // its type name
	// types holds the declared type ("T" or "q.T") of the current
	// function's parameters and of locals declared with a type or a
	// composite literal, so a selector on them resolves like one on the
	// receiver.
	types map[*ast.Object]string
}

func (w *goWalker) funcDecl(d *ast.FuncDecl, sig func(token.Pos) string) {
	def := Def{Name: d.Name.Name, Kind: "func", Start: w.line(d.Pos()), End: w.line(d.End()), Signature: sig(d.Pos())}
	w.recv, w.rtyp = nil, ""
	if d.Recv != nil && len(d.Recv.List) > 0 {
		def.Kind = "method"
		def.Container = recvType(d.Recv.List[0].Type)
		w.rtyp = def.Container
		if names := d.Recv.List[0].Names; len(names) > 0 {
			w.recv = names[0].Obj
		}
	}
	if def.Name == "_" {
		return
	}
	if def.Name == "init" && def.Container == "" {
		// Several init functions may live in one package; each is its own
		// node, named by its line.
		def.Name = fmt.Sprintf("init@%s:%d", w.f.Path, def.Start)
	}
	w.f.Defs = append(w.f.Defs, def)
	w.from = def.Key()
	w.types = map[*ast.Object]string{}
	w.typed(d.Type.Params)
	w.typed(d.Type.Results)
	if d.Recv != nil {
		for _, fl := range d.Recv.List {
			w.walk(fl.Type)
		}
	}
	w.walk(d.Type)
	if d.Body != nil {
		w.walk(d.Body)
	}
	w.recv, w.rtyp, w.types = nil, "", nil
}

// typed records the declared types of a field list's names.
func (w *goWalker) typed(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		for _, n := range f.Names {
			w.declare(n, f.Type)
		}
	}
}

// declare records id's type when t names one (T, *T, q.T, G[X]).
func (w *goWalker) declare(id *ast.Ident, t ast.Expr) {
	if w.types == nil || id.Obj == nil {
		return
	}
	q, n := typeName(t)
	switch {
	case n == "" || (q == "" && goUniverse[n]):
		return
	case q != "":
		w.types[id.Obj] = q + "." + n
	default:
		w.types[id.Obj] = n
	}
}

// assigned records the type of a local from its initial value when the
// value shows it: a composite literal T{…} or its address &T{…}.
func (w *goWalker) assigned(id *ast.Ident, v ast.Expr) {
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = u.X
	}
	if c, ok := v.(*ast.CompositeLit); ok && c.Type != nil {
		w.declare(id, c.Type)
	}
}

func recvType(e ast.Expr) string {
	_, n := typeName(e)
	return n
}

func (w *goWalker) genDecl(d *ast.GenDecl, sig func(token.Pos) string) {
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			def := Def{Name: s.Name.Name, Kind: "type", Start: w.line(s.Pos()), End: w.line(s.End()), Signature: sig(s.Pos())}
			if d.Lparen == token.NoPos {
				def.Start = w.line(d.Pos())
				def.Signature = sig(d.Pos())
			}
			switch t := s.Type.(type) {
			case *ast.StructType:
				def.Kind = "struct"
				for _, fl := range t.Fields.List {
					for _, n := range fl.Names {
						def.Fields = append(def.Fields, n.Name)
					}
				}
			case *ast.InterfaceType:
				def.Kind = "interface"
			}
			if def.Name == "_" {
				continue
			}
			w.f.Defs = append(w.f.Defs, def)
			w.from = def.Key()
			w.typeBody(s.Type)
		case *ast.ValueSpec:
			kind := "var"
			if d.Tok == token.CONST {
				kind = "const"
			}
			var keys []string
			for _, n := range s.Names {
				if n.Name == "_" || (kind == "const" && w.generated) {
					continue
				}
				def := Def{Name: n.Name, Kind: kind, Start: w.line(s.Pos()), End: w.line(s.End()), Signature: sig(s.Pos())}
				w.f.Defs = append(w.f.Defs, def)
				keys = append(keys, def.Key())
			}
			if len(keys) == 0 {
				w.from = ""
			} else {
				w.from = keys[0]
			}
			if s.Type != nil {
				w.walk(s.Type)
			}
			for _, v := range s.Values {
				w.walk(v)
			}
		}
	}
	w.from = ""
}

// typeBody walks a type declaration, recording embedded fields and
// interfaces as embed uses.
func (w *goWalker) typeBody(t ast.Expr) {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		w.walk(t)
		return
	}
	for _, fl := range fields.List {
		if len(fl.Names) == 0 {
			if q, n := typeName(fl.Type); n != "" {
				w.use(q, n, UseEmbed, fl.Pos())
				if q != "" {
					continue
				}
			}
		}
		w.walk(fl.Type)
	}
}

// typeName is the (qualifier, name) of a type expression: T, *T, (T),
// q.T, G[X].
func typeName(e ast.Expr) (string, string) {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return "", t.Name
		case *ast.SelectorExpr:
			if x, ok := t.X.(*ast.Ident); ok {
				return x.Name, t.Sel.Name
			}
			return "", ""
		default:
			return "", ""
		}
	}
}

func (w *goWalker) use(qual, name, kind string, pos token.Pos) {
	w.f.Uses = append(w.f.Uses, Use{From: w.from, Qual: qual, Name: name, Kind: kind, Line: w.line(pos)})
}

// local reports whether id resolves to a declaration inside a function (a
// parameter, a variable, a label): the parser has bound it to an object
// that is not the file scope's.
func (w *goWalker) local(id *ast.Ident) bool {
	return id.Obj != nil && w.file.Scope.Lookup(id.Name) != id.Obj
}

// walk records the uses inside n.
func (w *goWalker) walk(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			w.target(n.Fun, UseCall)
			for _, a := range n.Args {
				w.walk(a)
			}
			return false
		case *ast.SelectorExpr:
			w.target(n, UseRef)
			return false
		case *ast.Ident:
			w.target(n, UseRef)
		case *ast.KeyValueExpr:
			// In a composite literal a bare key is a field name.
			if _, ok := n.Key.(*ast.Ident); !ok {
				w.walk(n.Key)
			}
			w.walk(n.Value)
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						w.assigned(id, n.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if n.Type != nil {
					w.declare(id, n.Type)
				} else if i < len(n.Values) {
					w.assigned(id, n.Values[i])
				}
			}
		case *ast.FuncLit:
			w.walk(n.Type)
			w.walk(n.Body)
			return false
		}
		return true
	})
}

// target records what a call's function or a referenced expression names.
func (w *goWalker) target(e ast.Expr, kind string) {
	for {
		switch t := e.(type) {
		case *ast.ParenExpr:
			e = t.X
			continue
		case *ast.IndexExpr:
			w.walk(t.Index)
			e = t.X
			continue
		case *ast.IndexListExpr:
			for _, x := range t.Indices {
				w.walk(x)
			}
			e = t.X
			continue
		case *ast.Ident:
			if t.Name == "_" || w.local(t) {
				return
			}
			w.use("", t.Name, kind, t.Pos())
		case *ast.SelectorExpr:
			x, ok := t.X.(*ast.Ident)
			switch {
			case !ok:
				w.walk(t.X)
				if q, n := conversion(t.X); n != "" {
					// T(v).M or (*T)(v).M: a method of T when T is a type.
					w.use("#!"+qualified(q, n), t.Sel.Name, kind, t.Sel.Pos())
				}
			case w.recv != nil && x.Obj == w.recv:
				w.use("#"+w.rtyp, t.Sel.Name, kind, t.Sel.Pos())
			case x.Obj != nil && w.types[x.Obj] != "":
				w.use("#"+w.types[x.Obj], t.Sel.Name, kind, t.Sel.Pos())
			case w.local(x):
				// A method or field of a local value: its type is unknown
				// without type checking.
				w.use("?", t.Sel.Name, kind, t.Sel.Pos())
			default:
				w.use(x.Name, t.Sel.Name, kind, t.Sel.Pos())
			}
		default:
			w.walk(e)
		}
		return
	}
}

// conversion is the type a one-argument call converts to when its function
// is written like a type name (T, q.T, (*T), (*q.T)); whether it is a type
// or a function the builder decides.
func conversion(e ast.Expr) (string, string) {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return "", ""
	}
	fun := c.Fun
	if p, ok := fun.(*ast.ParenExpr); ok {
		fun = p.X
	}
	switch fun.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.StarExpr:
		return typeName(fun)
	}
	return "", ""
}

func qualified(q, n string) string {
	if q == "" {
		return n
	}
	return q + "." + n
}

// goUniverse holds the predeclared identifiers: a use of one names no
// symbol of the tree and is not unresolved.
var goUniverse = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64
		int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr
		true false iota nil append cap clear close complex copy delete imag len make max min
		new panic print println real recover`) {
		goUniverse[s] = true
	}
}
