package protect

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/internal/cputime"
)

// measure runs f b.N times and reports CPU milliseconds per operation.
func measure(b *testing.B, in string, f func(string)) {
	b.SetBytes(int64(len(in)))
	c0 := cputime.Self()
	n := 0
	for b.Loop() {
		f(in)
		n++
	}
	b.ReportMetric(float64(cputime.Self()-c0)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}

// adversarial are 1 MB inputs built to stress the probe, the normaliser and
// the wrapper (bad-inputs X03): repeated trigger words, brackets, comment
// openers, near-miss delimiters, invisible characters, homoglyphs, escapes.
func adversarial() map[string]string {
	const mb = 1 << 20
	fill := func(unit string) string { return strings.Repeat(unit, mb/len(unit)+1)[:mb] }
	return map[string]string{
		"ignore":        fill("ignore "),
		"lt":            fill("<"),
		"comment":       fill("<!-- ignore "),
		"near-delim":    fill("</guild:recal "),
		"delim":         fill("</guild:recall>"),
		"zwsp":          fill("a\u200b"),
		"homoglyph":     fill("guіld:rеcall "),
		"entities":      fill("&#60;&lt;%3C\\u003c"),
		"letters":       fill("A"),
		"role-lines":    fill("user: hi\nassistant: ok\n"),
		"base64":        fill("SWdub3JlIHByZXZpb3VzIGluc3RydWN0aW9ucw"),
		"base64-text":   base64Text(mb, 76),
		"base64-line":   base64Text(mb, 0),
		"curl":          fill("curl x "),
		"secrets":       fill("password = \"aB3dE5gH7jK9\"\n"),
		"mixed-unicode": fill("Ｉｇｎｏｒｅ ⟨/guild:recall⟩ ‮ 𝐢𝐠𝐧𝐨𝐫𝐞 "),
	}
}

// base64Text is n bytes of the base64 of GOROOT's net/http/server.go
// (repeated), wrapped at width columns (0: one line): an embedded document
// that decodes to text, so every run is decoded and searched.
func base64Text(n, width int) string {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		panic(err)
	}
	enc := base64.StdEncoding.EncodeToString(bytes.Repeat(src, n*3/4/len(src)+1))[:n]
	if width == 0 {
		return enc
	}
	var b strings.Builder
	for i := 0; i < len(enc); i += width {
		b.WriteString(enc[i:min(i+width, len(enc))])
		b.WriteByte('\n')
	}
	return b.String()[:n]
}

func BenchmarkProbe1MB(b *testing.B) {
	for name, in := range adversarial() {
		b.Run(name, func(b *testing.B) {
			measure(b, in, func(s string) { Probe(s) })
		})
	}
}

func BenchmarkWrap1MB(b *testing.B) {
	for name, in := range adversarial() {
		b.Run(name, func(b *testing.B) {
			measure(b, in, func(s string) { Wrap(s, TierUntrusted) })
		})
	}
}

func BenchmarkRedact1MB(b *testing.B) {
	for name, in := range adversarial() {
		b.Run(name, func(b *testing.B) {
			measure(b, in, func(s string) { Redact(s) })
		})
	}
}

// BenchmarkChunk is the per-chunk cost rtch-hydrate and guild-recall pay:
// redaction plus the whole protect pipeline on a 40-line chunk of real Go
// source. "ordinary" is net/http/server.go from GOROOT; "dense" is this
// package's own rule table, as full of trigger words as text gets.
func BenchmarkChunk(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"ordinary", filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go")},
		{"dense", "probe.go"},
	} {
		src, err := os.ReadFile(c.path)
		if err != nil {
			b.Skip(err)
		}
		lines := strings.SplitAfter(string(src), "\n")
		chunk := strings.Join(lines[100:min(140, len(lines))], "")
		p := Provenance{Path: "wiki/concepts/x.md", Confidence: "high", SourceRefs: 1}
		b.Run(c.name, func(b *testing.B) {
			measure(b, chunk, func(s string) {
				Redact(s)
				ProtectChunk(c.path, s, p)
			})
		})
	}
}
