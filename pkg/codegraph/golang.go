package codegraph

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// extractGo reads a Go file with go/parser, without the parser's object
// resolution: the walker keeps its own scopes (cheaper, and it needs only
// "is this name local, and of which declared type"). Identifiers bound to a
// local declaration are dropped; the rest become Uses for the builder to
// resolve against the package and its imports. Repeated uses are merged
// into one with a count.
func extractGo(f *Facts, src []byte) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, f.Path, src, parser.SkipObjectResolution)
	if err != nil {
		f.Problem = goProblem(f.Path, err)
		return
	}
	f.Package = file.Name.Name
	tf := fset.File(file.Pos())
	// Lines are the file's own, not those of //line directives.
	line := func(p token.Pos) int { return tf.PositionFor(p, false).Line }
	sig := func(p token.Pos) string { return signature(lineAt(src, tf.Offset(p))) }
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
	sc := scratchPool.Get().(*useScratch)
	defer sc.release()
	w := &goWalker{f: f, line: line, generated: generatedGo(src[:min(len(src), int(file.Package)+1)]), seen: sc.seen}
	f.Uses = sc.uses[:0]
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			w.funcDecl(d, sig)
		case *ast.GenDecl:
			w.genDecl(d, sig)
		}
	}
	// The uses grew in the scratch slice; the file keeps a copy of its size.
	sc.uses = f.Uses
	f.Uses = nil
	if len(sc.uses) > 0 {
		f.Uses = slices.Clone(sc.uses)
	}
	f.Defs = slices.Clip(f.Defs)
}

// useScratch is where a file's uses are collected and merged. Finished
// files hand theirs to the next file (scratchPool): on GOROOT/src a fresh
// index and a growing slice per file were 440 MB of garbage, and their
// growth three quarters of the time spent recording uses.
type useScratch struct {
	seen map[useKey]int
	uses []Use
}

var scratchPool = sync.Pool{New: func() any { return &useScratch{seen: map[useKey]int{}} }}

func (sc *useScratch) release() {
	clear(sc.seen)
	clear(sc.uses) // drop the strings they point to
	sc.uses = sc.uses[:0]
	scratchPool.Put(sc)
}

// lineAt is the text of the line holding byte offset off.
func lineAt(src []byte, off int) string {
	if off < 0 || off > len(src) {
		return ""
	}
	a := bytes.LastIndexByte(src[:off], '\n') + 1
	b := bytes.IndexByte(src[off:], '\n')
	if b < 0 {
		return string(src[a:])
	}
	return string(src[a : off+b])
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
	line      func(token.Pos) int
	from      string
	// locals are the names declared in the local scopes open at the walk's
	// position, innermost last, each with its declared type ("T" or "q.T";
	// "" when the declaration does not show one), so a selector on a
	// receiver, a parameter or a local of a declared type resolves to the
	// type's method. marks are where each open scope starts in locals.
	locals []local
	marks  []int
	// seen indexes f.Uses by use, so a repeated use adds to a count.
	seen map[useKey]int
}

type local struct{ name, typ string }

type useKey struct{ from, qual, name, kind string }

func (w *goWalker) open() { w.marks = append(w.marks, len(w.locals)) }

func (w *goWalker) close() {
	w.locals = w.locals[:w.marks[len(w.marks)-1]]
	w.marks = w.marks[:len(w.marks)-1]
}

// bind declares name in the innermost scope with type typ. A name already
// declared there (a := that redeclares err) keeps its first type.
func (w *goWalker) bind(name, typ string) {
	if len(w.marks) == 0 || name == "_" {
		return
	}
	for _, l := range w.locals[w.marks[len(w.marks)-1]:] {
		if l.name == name {
			return
		}
	}
	w.locals = append(w.locals, local{name, typ})
}

// lookup finds name in the open scopes, innermost first.
func (w *goWalker) lookup(name string) (typ string, local bool) {
	for i := len(w.locals) - 1; i >= 0; i-- {
		if w.locals[i].name == name {
			return w.locals[i].typ, true
		}
	}
	return "", false
}

func (w *goWalker) funcDecl(d *ast.FuncDecl, sig func(token.Pos) string) {
	def := Def{Name: d.Name.Name, Kind: "func", Start: w.line(d.Pos()), End: w.line(d.End()), Signature: sig(d.Pos())}
	if d.Recv != nil && len(d.Recv.List) > 0 {
		def.Kind = "method"
		def.Container = recvType(d.Recv.List[0].Type)
		def.Sig = goSig(d.Type, typeParamNames(d.Recv.List[0].Type, d.Type.TypeParams))
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
	w.open()
	// Type parameters are in scope in the signature; the parameters'
	// types are read before their names are bound (func f(arch arch)).
	if d.Recv != nil {
		for _, fl := range d.Recv.List {
			w.recvParams(fl.Type)
		}
	}
	w.fields(d.Type.TypeParams, false)
	if d.Recv != nil {
		for _, fl := range d.Recv.List {
			w.walk(fl.Type)
		}
	}
	w.walk(d.Type)
	if d.Recv != nil {
		for _, fl := range d.Recv.List {
			for _, n := range fl.Names {
				w.bind(n.Name, def.Container)
			}
		}
	}
	w.fields(d.Type.Params, true)
	w.fields(d.Type.Results, true)
	if d.Body != nil {
		// The body shares the parameters' scope, as in the language.
		w.stmts(d.Body.List)
	}
	w.close()
}

// recvParams binds the type parameters a receiver names (the T of
// func (l *List[T]) …).
func (w *goWalker) recvParams(t ast.Expr) {
	for n := range typeParamNames(t, nil) {
		w.bind(n, "")
	}
}

// fields binds a field list's names, with their declared types when
// typed (parameters and results).
func (w *goWalker) fields(fl *ast.FieldList, typed bool) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		typ := ""
		if typed {
			typ = declaredType(f.Type)
		}
		for _, n := range f.Names {
			w.bind(n.Name, typ)
		}
	}
}

// declaredType is the type name a declaration's type expression shows (T,
// *T, q.T, G[X]), "" for a predeclared or unnamed type.
func declaredType(t ast.Expr) string {
	q, n := typeName(t)
	switch {
	case n == "" || (q == "" && goUniverse[n]):
		return ""
	case q != "":
		return q + "." + n
	}
	return n
}

// valueType is the type a local's initial value shows: a composite
// literal T{…} or its address &T{…}.
func valueType(v ast.Expr) string {
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = u.X
	}
	if c, ok := v.(*ast.CompositeLit); ok && c.Type != nil {
		return declaredType(c.Type)
	}
	return ""
}

func recvType(e ast.Expr) string {
	_, n := typeName(e)
	return n
}

func (w *goWalker) genDecl(d *ast.GenDecl, sig func(token.Pos) string) {
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			w.typeSpec(d, s, sig)
		case *ast.ValueSpec:
			w.valueSpec(d, s, sig)
		}
	}
	w.from = ""
}

func (w *goWalker) typeSpec(d *ast.GenDecl, s *ast.TypeSpec, sig func(token.Pos) string) {
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
		def.Methods, def.TypeSet = interfaceMethods(t, typeParamNames(nil, s.TypeParams))
	}
	if def.Name == "_" {
		return
	}
	w.f.Defs = append(w.f.Defs, def)
	w.from = def.Key()
	w.open()
	w.typeParams(s.TypeParams)
	w.typeBody(s.Type)
	w.close()
}

// typeParams binds a type declaration's type parameters and walks their
// constraints.
func (w *goWalker) typeParams(fl *ast.FieldList) {
	if fl != nil {
		w.fields(fl, false)
		w.walk(fl)
	}
}

func (w *goWalker) valueSpec(d *ast.GenDecl, s *ast.ValueSpec, sig func(token.Pos) string) {
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

// interfaceMethods lists an interface's own methods with their
// signatures, and reports a type element (a union or ~T), which makes it
// a constraint.
func interfaceMethods(t *ast.InterfaceType, tparams map[string]bool) (ms []Method, typeSet bool) {
	for _, fl := range t.Methods.List {
		ft, ok := fl.Type.(*ast.FuncType)
		switch {
		case ok:
			for _, n := range fl.Names {
				ms = append(ms, Method{Name: n.Name, Sig: goSig(ft, tparams)})
			}
		case len(fl.Names) == 0:
			q, n := typeName(fl.Type)
			switch {
			case q == "" && n == "error":
				ms = append(ms, Method{Name: "Error", Sig: "()(string)"})
			case n == "" || (q == "" && goUniverse[n] && n != "any"):
				typeSet = true
			}
		}
	}
	return ms, typeSet
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

// use records one use; a repeat of the same use in the same definition
// adds to the first one's count.
func (w *goWalker) use(qual, name, kind string, pos token.Pos) {
	k := useKey{w.from, qual, name, kind}
	if i, ok := w.seen[k]; ok {
		w.f.Uses[i].Count++
		return
	}
	w.seen[k] = len(w.f.Uses)
	w.f.Uses = append(w.f.Uses, Use{From: w.from, Qual: qual, Name: name, Kind: kind, Line: w.line(pos), Count: 1})
}

// stmts walks a statement list in the current scope.
func (w *goWalker) stmts(list []ast.Stmt) {
	for _, s := range list {
		w.walk(s)
	}
}

// scoped walks nodes inside a new scope.
func (w *goWalker) scoped(nodes ...ast.Node) {
	w.open()
	for _, n := range nodes {
		w.walk(n)
	}
	w.close()
}

// walk records the uses inside n, opening a scope where the language does.
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
		case *ast.Field:
			// Field, parameter and method names are declarations.
			w.walk(n.Type)
			return false
		default:
			return w.statement(n)
		}
		return true
	})
}

// statement walks the statements that declare names or open scopes and
// reports whether Inspect should descend into n itself.
func (w *goWalker) statement(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.AssignStmt:
		w.assign(n)
	case *ast.DeclStmt:
		w.localDecl(n.Decl.(*ast.GenDecl))
	case *ast.BlockStmt:
		w.open()
		w.stmts(n.List)
		w.close()
	case *ast.IfStmt:
		w.scoped(n.Init, n.Cond, n.Body, n.Else)
	case *ast.ForStmt:
		w.scoped(n.Init, n.Cond, n.Post, n.Body)
	case *ast.RangeStmt:
		w.rangeStmt(n)
	case *ast.SwitchStmt:
		w.scoped(n.Init, n.Tag, n.Body)
	case *ast.TypeSwitchStmt:
		w.scoped(n.Init, n.Assign, n.Body)
	case *ast.CaseClause:
		w.open()
		for _, e := range n.List {
			w.walk(e)
		}
		w.stmts(n.Body)
		w.close()
	case *ast.CommClause:
		w.open()
		w.walk(n.Comm)
		w.stmts(n.Body)
		w.close()
	case *ast.FuncLit:
		w.open()
		w.walk(n.Type)
		w.fields(n.Type.Params, true)
		w.fields(n.Type.Results, true)
		w.stmts(n.Body.List)
		w.close()
	case *ast.LabeledStmt:
		w.walk(n.Stmt)
	case *ast.BranchStmt:
	default:
		return true
	}
	return false
}

// assign walks an assignment; a := binds its left side after its right
// side is read (x := x names the outer x).
func (w *goWalker) assign(n *ast.AssignStmt) {
	for _, r := range n.Rhs {
		w.walk(r)
	}
	if n.Tok != token.DEFINE {
		for _, l := range n.Lhs {
			w.walk(l)
		}
		return
	}
	for i, l := range n.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		typ := ""
		if len(n.Lhs) == len(n.Rhs) {
			typ = valueType(n.Rhs[i])
		}
		w.bind(id.Name, typ)
	}
}

func (w *goWalker) rangeStmt(n *ast.RangeStmt) {
	w.walk(n.X)
	w.open()
	if n.Tok == token.DEFINE {
		for _, e := range []ast.Expr{n.Key, n.Value} {
			if id, ok := e.(*ast.Ident); ok {
				w.bind(id.Name, "")
			}
		}
	} else {
		w.walk(n.Key)
		w.walk(n.Value)
	}
	w.stmts(n.Body.List)
	w.close()
}

// localDecl walks a declaration inside a function: its values are read
// before its names are bound; a type's name is bound before its body
// (a type may refer to itself).
func (w *goWalker) localDecl(d *ast.GenDecl) {
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			w.walk(s.Type)
			for _, v := range s.Values {
				w.walk(v)
			}
			for i, id := range s.Names {
				typ := ""
				if s.Type != nil {
					typ = declaredType(s.Type)
				} else if i < len(s.Values) {
					typ = valueType(s.Values[i])
				}
				w.bind(id.Name, typ)
			}
		case *ast.TypeSpec:
			w.bind(s.Name.Name, "")
			w.open()
			w.typeParams(s.TypeParams)
			w.walk(s.Type)
			w.close()
		}
	}
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
			if _, local := w.lookup(t.Name); t.Name == "_" || local {
				return
			}
			w.use("", t.Name, kind, t.Pos())
		case *ast.SelectorExpr:
			w.selector(t, kind)
		default:
			w.walk(e)
		}
		return
	}
}

// selector records x.Sel: a method of x's declared type, a local of
// unknown type ("?"), or a qualified name (an import, a package-level
// variable) for the builder to resolve.
func (w *goWalker) selector(t *ast.SelectorExpr, kind string) {
	x, ok := t.X.(*ast.Ident)
	if !ok {
		w.walk(t.X)
		if q, n := conversion(t.X); n != "" {
			// T(v).M or (*T)(v).M: a method of T when T is a type.
			w.use("#!"+qualified(q, n), t.Sel.Name, kind, t.Sel.Pos())
		}
		return
	}
	typ, local := w.lookup(x.Name)
	switch {
	case local && typ != "":
		w.use("#"+typ, t.Sel.Name, kind, t.Sel.Pos())
	case local:
		// A method or field of a local value: its type is unknown
		// without type checking.
		w.use("?", t.Sel.Name, kind, t.Sel.Pos())
	default:
		w.use(x.Name, t.Sel.Name, kind, t.Sel.Pos())
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
