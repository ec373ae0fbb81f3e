package rtchmcp

import "testing"

// replyID finds the id of a reply wherever its members are, and of
// nothing else the server writes.
func TestReplyID(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"x"}]}}`, "7"},
		{`{"jsonrpc":"2.0","result":{"a":[1,{"id":3}]},"id":"s-1"}`, `"s-1"`},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, "null"},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, ""},
		{`{"jsonrpc":"2.0","id":2,"method":"roots/list"}`, ""},
		{`{"jsonrpc":"2.0","id":2}`, ""},
		{`not json`, ""},
	} {
		if got := string(replyID([]byte(c.line))); got != c.want {
			t.Errorf("%s: id %q, want %q", c.line, got, c.want)
		}
	}
}
