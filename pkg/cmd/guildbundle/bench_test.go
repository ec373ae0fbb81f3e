package guildbundle

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/bundle"
	"github.com/rtch/rtch/pkg/guildconfig"
)

// BenchmarkAssembleFixture measures the assembly of one bundle of the Ledgerly
// fixture with recall in-process (plan, wiki, receipts, recall, trimming check,
// strict lint; no file written). Run: go test -bench AssembleFixture ./pkg/cmd/guildbundle
func BenchmarkAssembleFixture(b *testing.B) {
	for _, task := range []string{"T1-architect", "T2-backend", "T3-tech-writer"} {
		b.Run(task, func(b *testing.B) {
			root := fixtureCopy(b)
			opt := bundle.Options{Root: root, PlanPath: ".guild/plan/invoice-retries.md", RunID: "run-2026-11-30", Now: time.Now()}
			opt.Recall = RecallFunc(context.Background(), root, opt.RunID, guildconfig.Defaults(), opt.Now, nil)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := bundle.Build(opt, []string{task}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// fixtureCopy copies the fixture project to a temporary directory and adds the
// T2 receipt, so every lane can be bundled.
func fixtureCopy(b *testing.B) string {
	src, _ := filepath.Abs("../../../testdata/fixtures/wiki-project")
	dst := b.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		t := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(t, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(t, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	receipt := "```guild.handoff.v2\n{\"schema_version\":\"guild.handoff.v2\",\"task_id\":\"T2-backend\",\"tier\":\"mid\",\"status\":\"done\",\"summary\":\"retry.Do takes a Budget.\",\"artifacts\":[\"pkg/retry/budget.go\"],\"issues\":[]}\n```\n"
	if err := os.WriteFile(filepath.Join(dst, ".guild/runs/run-2026-11-30/handoffs/T2-backend.md"), []byte(receipt), 0o644); err != nil {
		b.Fatal(err)
	}
	return dst
}
