package probe

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rtch/rtch/pkg/basket"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

// BenchGoal is the fixed goal of the discovery benchmark: twelve words, the
// same twelve terms the ripgrep comparison searches for (docs/BENCHMARKS.md).
const BenchGoal = "command runnable parse flag help output execute error context writer buffer token"

func benchLane(b *testing.B) (schema.Intake, *config.Config, string) {
	root := filepath.Join(runtime.GOROOT(), "src")
	m := intake.Merge(intake.Layer{Name: "flags", Fields: schema.IntakeFields{Goal: BenchGoal, TargetProfile: "code_path",
		FanoutLevel: "normal", MutationRisk: "read_only", ExpectedOutput: "hydration_packet", EnoughEvidenceDefinition: "bench"}})
	in, err := intake.Build(m)
	if err != nil {
		b.Fatal(err)
	}
	return in, &config.Config{}, root
}

// BenchmarkScoutGoroot is the shape scout over $GOROOT/src.
func BenchmarkScoutGoroot(b *testing.B) {
	in, cfg, root := benchLane(b)
	wo := scout.WalkOptions(cfg, root)
	for i := 0; i < b.N; i++ {
		if _, err := scout.Run(context.Background(), scout.Options{Walk: wo, Terms: basket.ScoutTerms(in, nil)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProbeGoroot is the probe pass and ranking over $GOROOT/src.
func BenchmarkProbeGoroot(b *testing.B) {
	in, cfg, root := benchLane(b)
	wo := scout.WalkOptions(cfg, root)
	res, err := scout.Run(context.Background(), scout.Options{Walk: wo, Terms: basket.ScoutTerms(in, nil)})
	if err != nil {
		b.Fatal(err)
	}
	bk := basket.Build(basket.Input{Intake: in, Zone: schema.Zone{ZoneRoot: root}, Scout: res})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, err := Run(context.Background(), Options{Walk: wo, Intake: in, Candidates: bk.Candidates, Basket: bk.Basket,
			AvgBytes: res.Shape.Corpus.AvgLen * 4, Budget: cfg.FanoutFor("normal")})
		if err != nil {
			b.Fatal(err)
		}
	}
}
