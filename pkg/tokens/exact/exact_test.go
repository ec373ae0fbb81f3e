package exact

import (
	"testing"

	"github.com/rtch/rtch/pkg/tokens"
)

func TestGet(t *testing.T) {
	c, err := Get("")
	if err != nil || c.Name != "chars4" || c.Of("abcde") != 2 {
		t.Fatalf("default: %+v %v", c, err)
	}
	for _, name := range []string{"o200k", "cl100k"} {
		c, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		// "hello world" is two tokens in both vocabularies.
		if n := c.Of("hello world"); n != 2 {
			t.Errorf("%s: hello world = %d tokens, want 2", name, n)
		}
		if n := c.Of("\xff\xfe"); n < 1 {
			t.Errorf("%s: invalid UTF-8 counted %d", name, n)
		}
		if c.Describe() != name+" tokenizer" {
			t.Errorf("describe %q", c.Describe())
		}
	}
	if _, err := Get("p50k"); err == nil {
		t.Fatal("unknown tokenizer accepted")
	}
	if tokens.Chars4.Describe() != "ceil(chars/4)" {
		t.Fatal(tokens.Chars4.Describe())
	}
}
