package rtchmcp

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// originList is --allow-origin: web origins besides loopback ones that may
// call the server over HTTP.
type originList []string

func (l *originList) String() string { return strings.Join(*l, ",") }

func (l *originList) Set(s string) error {
	o, ok := canonicalOrigin(s)
	if !ok {
		return fmt.Errorf("%q is not an origin (scheme://host[:port])", s)
	}
	*l = append(*l, o)
	return nil
}

// canonicalOrigin is an origin's scheme://host[:port] in lower case; ok is
// false for anything else, "null" included.
func canonicalOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), true
}

// checkOrigin refuses with 403 a request whose Origin header names a web
// origin that is neither loopback nor allowed: a page in the user's
// browser may post to a loopback port, and the MCP transport rules ask a
// server to refuse it. A request without an Origin (any client that is not
// a browser) passes; the SDK checks the Host header after this.
func checkOrigin(allowed originList, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !originAllowed(origin, allowed) {
			http.Error(w, fmt.Sprintf("forbidden: origin %q is neither loopback nor allowed with --allow-origin", origin), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func originAllowed(origin string, allowed originList) bool {
	o, ok := canonicalOrigin(origin)
	if !ok {
		return false
	}
	u, _ := url.Parse(o)
	if isLoopback(u.Hostname()) {
		return true
	}
	for _, a := range allowed {
		if a == o {
			return true
		}
	}
	return false
}
