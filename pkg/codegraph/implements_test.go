package codegraph

import (
	"strings"
	"testing"
)

// TestImplementsGoroot builds io, bytes, strings and bufio copied from
// GOROOT/src and checks the implements edges against what the compiler
// knows (each pair below is asserted by the standard library's own
// "var _ io.X = (*T)(nil)" lines or documented in its API).
func TestImplementsGoroot(t *testing.T) {
	es, _ := edgeSet(t, copyGoroot(t, "io", "bytes", "strings", "bufio", "errors"))
	want(t, es,
		"go:strings#Reader -implements-> go:io#Reader",
		"go:strings#Reader -implements-> go:io#ReaderAt",
		"go:strings#Reader -implements-> go:io#WriterTo",
		"go:strings#Reader -implements-> go:io#ReadSeeker", // embeds Reader and Seeker
		"go:bytes#Buffer -implements-> go:io#Reader",
		"go:bytes#Buffer -implements-> go:io#ReadWriter",
		"go:bytes#Buffer -implements-> go:io#StringWriter",
		"go:bufio#Writer -implements-> go:io#Writer",
		"go:bufio#ReadWriter -implements-> go:io#Writer", // promoted from the embedded *Writer
		"go:strings#Builder -implements-> go:io#Writer",
	)
	for _, no := range []string{
		"go:strings#Builder -implements-> go:io#Reader",    // no Read method
		"go:bytes#Buffer -implements-> go:io#Seeker",       // no Seek
		"go:strings#Reader -implements-> go:io#Writer",     // no Write
		"go:strings#Reader -implements-> go:bufio#Reader",  // a struct is no interface
		"go:bufio#Scanner -implements-> go:io#ByteScanner", // no UnreadByte
	} {
		if es[no] {
			t.Errorf("edge %s should not exist", no)
		}
	}
	for e := range es {
		if strings.HasSuffix(e, "-> go:io#Reader") && strings.Contains(e, "-implements->") && strings.HasPrefix(e, "go:errors") {
			t.Errorf("errors has no reader, yet %s", e)
		}
	}
}

// TestImplementsSignatures: a method of the right name with other
// parameter or result types does not implement; a type of a package that
// does not import the interface's package is not a candidate; an
// interface with a type element or an embedded interface from outside the
// tree gets no edge; the types are compared with their import paths.
func TestImplementsSignatures(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"shape/shape.go": `package shape

import "context"

type Shape interface {
	Area() float64
	Draw(ctx context.Context, c Canvas) error
}

type Canvas struct{}

type Number interface{ ~int | ~float64 }

type Remote interface {
	context.Context
	Name() string
}

type Square struct{}

func (Square) Area() float64 { return 1 }
func (*Square) Draw(ctx context.Context, c Canvas) error { return nil }
func (Square) Name() string { return "" }
`,
		"circle/circle.go": `package circle

import (
	"context"
	sh "example.com/m/shape"
)

type Circle struct{}

func (c Circle) Area() float64 { return 3 }
func (c Circle) Draw(_ context.Context, cv sh.Canvas) error { return nil }

type Wrong struct{}

func (Wrong) Area() float64 { return 0 }
func (Wrong) Draw(ctx context.Context, c Canvas) error { return nil }

type Canvas struct{}
`,
		"other/other.go": `package other

import "context"

type Lone struct{}

func (Lone) Area() float64 { return 0 }
func (Lone) Draw(ctx context.Context, c struct{}) error { return nil }
`,
	})
	es, _ := edgeSet(t, root)
	want(t, es,
		"go:example.com/m/shape#Square -implements-> go:example.com/m/shape#Shape",
		"go:example.com/m/circle#Circle -implements-> go:example.com/m/shape#Shape",
	)
	for e := range es {
		if strings.Contains(e, "-implements->") && (strings.Contains(e, "Wrong") || strings.Contains(e, "Lone") ||
			strings.HasSuffix(e, "#Number") || strings.HasSuffix(e, "#Remote")) {
			t.Errorf("unexpected %s", e)
		}
	}
}

// TestGoScopes: the walker's own scopes decide what is local as the
// language does.
func TestGoScopes(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod": "module example.com/s\n",
		"s/s.go": `package s

import "strings"

type arch struct{}

func (a arch) name() string { return "" }

type T struct{}

func (T) Run() {}

type List[T any] struct{ items []T }

func (l *List[T]) Len() int { return len(l.items) }

var x = 1

func helper() int { return x }

//line generated.y:1000
func genRules(arch arch) {
	arch.name()
	x := x
	_ = x
	{
		helper := func(t T) { t.Run() }
		helper(T{})
	}
	helper()
	strings := []string{}
	_ = strings
loop:
	for i := range 3 {
		if i > 1 {
			break loop
		}
	}
}
`,
	})
	es, res := edgeSet(t, root)
	want(t, es,
		"go:example.com/s/s#genRules -references-> go:example.com/s/s#arch", // the parameter's type
		"go:example.com/s/s#genRules -calls-> go:example.com/s/s#arch.name", // a method of the parameter's type
		"go:example.com/s/s#genRules -references-> go:example.com/s/s#x",    // x := x reads the package's x
		"go:example.com/s/s#genRules -calls-> go:example.com/s/s#T.Run",     // a closure's typed parameter
		"go:example.com/s/s#genRules -calls-> go:example.com/s/s#helper",    // after the block, helper is the function again
	)
	if es["go:example.com/s/s#List.Len -references-> go:example.com/s/s#T"] {
		t.Error("the receiver's type parameter T was taken for the package's type T")
	}
	un := unresolvedNames(res)
	for u := range un {
		if strings.HasSuffix(u, " loop") || strings.HasSuffix(u, " strings.Builder") {
			t.Errorf("unexpected unresolved %s", u)
		}
	}
	for _, n := range res.Graph.File.Nodes {
		if n.ID == "go:example.com/s/s#genRules" && (len(n.SourceRefs) != 1 || n.SourceRefs[0] != "s/s.go#L22-L39") {
			t.Errorf("genRules refs %v, want the file's own lines s/s.go#L22-L39 (not the //line directive's)", n.SourceRefs)
		}
	}
}
