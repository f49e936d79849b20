package run

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/scene"
)

// BenchmarkRun times the colliding blocks on the path users run: run.Scene
// with its outputs (history, ledger, checkpoint, summary, pictures), the
// fields written every 10 steps (the example's own) or once (every 750),
// per step: against timestep's BenchmarkCollidingBlocks, the bare step,
// it is what outputs cost.
//
//	go test -run '^$' -bench Run -benchtime 5x ./run/
func BenchmarkRun(b *testing.B) {
	for _, refine := range []int{1, 2} {
		for _, every := range []int{10, 750} {
			b.Run(fmt.Sprintf("refine=%d/every=%d", refine, every), func(b *testing.B) {
				sc, err := scene.Example("colliding-blocks")
				require.NoError(b, err)
				dir := b.TempDir()
				for b.Loop() {
					_, err := Scene(context.Background(), sc, Options{Dir: dir, Every: every, Variant: scene.Variant{Refine: refine}})
					require.NoError(b, err)
				}
				b.ReportMetric(1e3*b.Elapsed().Seconds()/float64(b.N)/750, "ms/step")
			})
		}
	}
}
