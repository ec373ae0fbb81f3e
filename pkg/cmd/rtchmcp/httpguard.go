package rtchmcp

import (
	"bytes"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// guardBodies passes each POST body through the guard (guard.go) before the
// SDK reads it: a malformed message gets 400 (413 when over limit) with
// the guard's JSON-RPC error, where the SDK would answer some with a bare
// text and hand others on to the session.
func guardBodies(limit int, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
		if err != nil {
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		body = bytes.TrimPrefix(body, bom)
		over := len(body) > limit
		if over {
			body = body[:min(len(body), headSize)]
		}
		v := inspect(body, over, limit, "request body: ")
		switch {
		case v.drop != "":
			http.Error(w, v.drop, http.StatusBadRequest)
			return
		case v.answer == nil && v.msg == nil:
			v.answer = encodeRefusal(jsonrpc.ID{}, invalid("an empty body"), "request body: ")
		}
		if v.answer != nil {
			status := http.StatusBadRequest
			if over {
				status = http.StatusRequestEntityTooLarge
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write(v.answer)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}
