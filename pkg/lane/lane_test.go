package lane

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/record"
)

func TestCollect(t *testing.T) {
	in := strings.Join([]string{
		`{"kind":"rtch.intake","v":1,"id":"a","goal":"g","fanout_level":"normal"}`,
		`{"kind":"rtch.hit","v":1,"id":"b","path":"x.go","line":3}`,
		`{"kind":"rtch.hit","v":1,"id":"c","path":"y.go","line":4}`,
		`{"kind":"rtch.hit","v":2,"id":"d","path":"future.go"}`,
		`{"kind":"other.kind","v":1}`,
		`{"kind":"rtch.skip","v":1,"id":"e","path":"bin","reason":"binary"}`,
	}, "\n")
	r := record.NewReader(strings.NewReader(in), "stdin")
	var ln Lane
	for {
		l, err := r.Next()
		if err != nil {
			break
		}
		if err := ln.Collect(l); err != nil {
			t.Fatal(err)
		}
	}
	if ln.Intake == nil || ln.Intake.Goal != "g" || ln.Intake.FanoutLevel != "normal" {
		t.Fatalf("intake %+v", ln.Intake)
	}
	if len(ln.Hits) != 2 || ln.Hits[1].Path != "y.go" || ln.Hits[1].Line != 4 {
		t.Fatalf("hits %+v (a newer version must be ignored)", ln.Hits)
	}
	if len(ln.Skips) != 1 || ln.Skips[0].Reason != "binary" || ln.Zone != nil {
		t.Fatalf("skips %+v zone %v", ln.Skips, ln.Zone)
	}
	bad := record.Line{Raw: []byte(`{"kind":"rtch.hit","v":1,"line":"three"}`), Kind: "rtch.hit", V: 1, No: 7}
	if err := ln.Collect(bad); err == nil || !strings.Contains(err.Error(), "input line 7: rtch.hit record") {
		t.Fatalf("bad record error %v", err)
	}
}
