package rtchmcp

import "testing"

// firstValue splits a document from what follows it, indented or not.
func TestFirstValue(t *testing.T) {
	cases := []struct{ out, want string }{
		{"{\n  \"a\": \"x\\n}\\n\",\n  \"b\": {\n    \"c\": 1\n  }\n}\n{\n  \"kind\": \"handoff\"\n}\n", "{\n  \"a\": \"x\\n}\\n\",\n  \"b\": {\n    \"c\": 1\n  }\n}"},
		{"{\"a\":1}\n{\n}\n", "{\"a\":1}"},
		{"{\"a\":1}\n", "{\"a\":1}"},
	}
	for _, c := range cases {
		got, err := firstValue([]byte(c.out))
		if err != nil || string(got) != c.want {
			t.Errorf("firstValue(%q) = %q, %v; want %q", c.out, got, err, c.want)
		}
	}
	if _, err := firstValue([]byte("not json")); err == nil {
		t.Error("firstValue took text that is not JSON")
	}
}
