package signorini

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkFC2D solves each problem of Siconos's suite (testdata/fc2d) at its tolerance;
// compare with Siconos's nsgs-sbm figures in testdata/fc2d/README.md.
func BenchmarkFC2D(b *testing.B) {
	for file, tol := range fc2dProblems(b) {
		p, _, err := ReadProblem(file)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		b.Run(name, func(b *testing.B) {
			var res *Result
			for b.Loop() {
				if res, err = NLGS(p, Options{Tol: tol, MaxSweeps: 100000}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Sweeps), "sweeps")
			b.ReportMetric(res.Residual, "residual")
			b.ReportMetric(float64(p.W.Contacts()), "contacts")
		})
	}
}

// randomSparse is a block-sparse SPD problem of n contacts: each contact
// coupled to about 6 neighbours (as in a granular packing), W diagonally
// dominant by blocks.
func randomSparse(rng *rand.Rand, n int) *Problem {
	var es []Triplet
	for a := 0; a < n; a++ {
		es = append(es, Triplet{2 * a, 2 * a, 8}, Triplet{2*a + 1, 2*a + 1, 8})
		for k := 0; k < 3; k++ {
			b := rng.IntN(n)
			if b == a {
				continue
			}
			for i := 0; i < 2; i++ {
				for j := 0; j < 2; j++ {
					v := 0.5 * rng.NormFloat64()
					es = append(es, Triplet{2*a + i, 2*b + j, v}, Triplet{2*b + j, 2*a + i, v})
				}
			}
		}
	}
	W, _ := NewBlockSparse(n, es)
	q := make([]float64, 2*n)
	mu := make([]float64, n)
	for a := range mu {
		q[2*a], q[2*a+1], mu[a] = -rng.Float64(), rng.NormFloat64(), 0.3
	}
	return &Problem{W: W, Q: q, Mu: mu}
}

// BenchmarkRandom reports the time per sweep against the number of blocks:
// it must grow no faster than the blocks.
func BenchmarkRandom(b *testing.B) {
	for _, n := range []int{50, 200, 1000} {
		p := randomSparse(rand.New(rand.NewPCG(uint64(n), 1)), n)
		b.Run(fmt.Sprintf("contacts=%d", n), func(b *testing.B) {
			var res *Result
			var err error
			for b.Loop() {
				if res, err = NLGS(p, Options{Tol: 1e-8}); err != nil {
					b.Fatal(err)
				}
			}
			perSweep := b.Elapsed().Seconds() / float64(b.N) / float64(res.Sweeps)
			blocks := float64(p.W.(*BlockSparse).NumBlocks() + n)
			b.ReportMetric(float64(res.Sweeps), "sweeps")
			b.ReportMetric(blocks, "blocks")
			b.ReportMetric(perSweep/blocks*1e9, "ns/block/sweep")
		})
	}
}

// BenchmarkNewtonPiles solves fc2d's two granular flows by Newton's
// method to 1e-8: the sparse factorisation of the reduced systems and
// the nonmonotone search (newton.go), per solve.
func BenchmarkNewtonPiles(b *testing.B) {
	for _, name := range []string{"fc2d_granularflowonwall_02020_00213", "fc2d_granularflowonwall_07002_00801"} {
		p, _, err := ReadProblem(filepath.Join(fc2dDir, name+".json"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			var res *Result
			for b.Loop() {
				if res, err = Newton(p, Options{Tol: 1e-8}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.NewtonIterations), "iterations")
		})
	}
}
