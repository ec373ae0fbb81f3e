package codegraph

import (
	"go/ast"
	"strings"
)

// goSig writes a function type's parameter and result types, names
// dropped, "(P1,P2)(R1)"; "?" marks a part it does not write exactly. A named type is written "@q.T" for q.T and
// "@.T" for a type of the file's own package, so the builder can qualify
// both with import paths; predeclared types stay bare.
func goSig(ft *ast.FuncType, tparams map[string]bool) string {
	var b strings.Builder
	goSigTo(&b, ft, tparams)
	return b.String()
}

func goSigTo(b *strings.Builder, ft *ast.FuncType, tparams map[string]bool) {
	b.WriteByte('(')
	goFieldTypes(b, ft.Params, tparams)
	b.WriteString(")(")
	goFieldTypes(b, ft.Results, tparams)
	b.WriteByte(')')
}

// typeParamNames are the type parameters a receiver and a type
// parameter list declare; goSig writes them as "?", not compared.
func typeParamNames(recv ast.Expr, fl *ast.FieldList) map[string]bool {
	var out map[string]bool
	add := func(id *ast.Ident) {
		if out == nil {
			out = map[string]bool{}
		}
		out[id.Name] = true
	}
	if fl != nil {
		for _, f := range fl.List {
			for _, n := range f.Names {
				add(n)
			}
		}
	}
	for recv != nil {
		switch x := recv.(type) {
		case *ast.StarExpr:
			recv = x.X
			continue
		case *ast.ParenExpr:
			recv = x.X
			continue
		case *ast.IndexExpr:
			if id, ok := x.Index.(*ast.Ident); ok {
				add(id)
			}
		case *ast.IndexListExpr:
			for _, i := range x.Indices {
				if id, ok := i.(*ast.Ident); ok {
					add(id)
				}
			}
		}
		recv = nil
	}
	return out
}

func goFieldTypes(b *strings.Builder, fl *ast.FieldList, tparams map[string]bool) {
	if fl == nil {
		return
	}
	first := true
	for _, f := range fl.List {
		for i := 0; i < max(len(f.Names), 1); i++ {
			if !first {
				b.WriteByte(',')
			}
			first = false
			goType(b, f.Type, tparams)
		}
	}
}

// goType writes a type expression in goSig's notation.
func goType(b *strings.Builder, e ast.Expr, tp map[string]bool) {
	switch t := e.(type) {
	case *ast.Ident:
		if tp[t.Name] {
			b.WriteByte('?')
			return
		}
		if goUniverse[t.Name] {
			b.WriteString(t.Name)
			return
		}
		b.WriteString("@.")
		b.WriteString(t.Name)
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			b.WriteString("@" + x.Name + "." + t.Sel.Name)
			return
		}
		b.WriteString("?")
	case *ast.StarExpr:
		b.WriteByte('*')
		goType(b, t.X, tp)
	case *ast.ParenExpr:
		goType(b, t.X, tp)
	case *ast.Ellipsis:
		b.WriteString("...")
		goType(b, t.Elt, tp)
	case *ast.ArrayType:
		switch l := t.Len.(type) {
		case nil:
			b.WriteString("[]")
		case *ast.BasicLit:
			b.WriteString("[" + l.Value + "]")
		default:
			// A length of a named constant: not compared.
			b.WriteString("[?]")
		}
		goType(b, t.Elt, tp)
	case *ast.MapType:
		b.WriteString("map[")
		goType(b, t.Key, tp)
		b.WriteByte(']')
		goType(b, t.Value, tp)
	case *ast.ChanType:
		b.WriteString([...]string{ast.SEND: "chan<- ", ast.RECV: "<-chan ", ast.SEND | ast.RECV: "chan "}[t.Dir])
		goType(b, t.Value, tp)
	case *ast.FuncType:
		b.WriteString("func")
		goSigTo(b, t, tp)
	case *ast.IndexExpr:
		goType(b, t.X, tp)
		b.WriteByte('[')
		goType(b, t.Index, tp)
		b.WriteByte(']')
	case *ast.IndexListExpr:
		goType(b, t.X, tp)
		b.WriteByte('[')
		for i, x := range t.Indices {
			if i > 0 {
				b.WriteByte(',')
			}
			goType(b, x, tp)
		}
		b.WriteByte(']')
	case *ast.InterfaceType:
		if len(t.Methods.List) == 0 {
			b.WriteString("any")
			return
		}
		// An unnamed interface or struct type is not compared: "?"
		// marks a signature no method is matched on.
		b.WriteString("interface{?}")
	case *ast.StructType:
		b.WriteString("struct{?}")
	default:
		b.WriteString("?")
	}
}
