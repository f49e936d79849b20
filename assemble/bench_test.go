package assemble

import (
	"fmt"
	"math"
	"testing"

	"github.com/fecontact/fecontact/assemble/cholesky"
	"github.com/fecontact/fecontact/mesh"
)

// benchSizes are rectangles of about 20k, 80k and 320k DOFs: Q4 with
// (n+1)^2 nodes, Q8 with about 3 n^2 nodes on an n x n grid.
var benchSizes = []struct {
	kind mesh.Kind
	n    int
}{
	{mesh.Q4, 100}, {mesh.Q4, 200}, {mesh.Q4, 400},
	{mesh.Q8, 58}, {mesh.Q8, 116}, {mesh.Q8, 231},
}

func benchSpace(b *testing.B, k mesh.Kind, n int) *Space {
	m, err := mesh.Rectangle([2]float64{}, 1, 1, n, n, k)
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSpace(m, Fix{"bottom", XY})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func name(s *Space, k mesh.Kind) string {
	return fmt.Sprintf("%v/dofs=%dk", k, int(math.Round(float64(s.N())/1000)))
}

// BenchmarkAssemble times the assembly of K and M on a fixed pattern.
func BenchmarkAssemble(b *testing.B) {
	for _, sz := range benchSizes {
		s := benchSpace(b, sz.kind, sz.n)
		b.Run(name(s, sz.kind), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Stiffness(steel); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Mass(steel); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(s.ind)), "nnz(K)")
			b.ReportMetric(float64(s.N())*float64(b.N)/b.Elapsed().Seconds(), "DOF/s")
		})
	}
}

// BenchmarkFactor times ordering, analysis and numeric factorisation of
// Mhat = M + h^2/4 K, and reports nnz(L), the memory the factor keeps
// (factorMB: its values and indices) and, with B/op, all it allocates on
// the way (frontal and update matrices included): a bound on its peak.
func BenchmarkFactor(b *testing.B) {
	for _, sz := range benchSizes {
		s := benchSpace(b, sz.kind, sz.n)
		K, _ := s.Stiffness(steel)
		M, _ := s.Mass(steel)
		A := s.Combine(1, M, 0.25e-12, K)
		b.Run(name(s, sz.kind), func(b *testing.B) {
			b.ReportAllocs()
			var f *cholesky.Factor
			for b.Loop() {
				var err error
				if f, err = s.Factor(A); err != nil {
					b.Fatal(err)
				}
			}
			st := f.Stats()
			b.ReportMetric(float64(st.NNZL), "nnz(L)")
			b.ReportMetric(float64(8*st.NNZL)/1e6, "factorMB")
		})
	}
}

// BenchmarkSolve times one forward and backward substitution.
func BenchmarkSolve(b *testing.B) {
	for _, sz := range benchSizes {
		s := benchSpace(b, sz.kind, sz.n)
		K, _ := s.Stiffness(steel)
		M, _ := s.Mass(steel)
		f, err := s.Factor(s.Combine(1, M, 0.25e-12, K))
		if err != nil {
			b.Fatal(err)
		}
		x := s.Vector()
		for i := range x {
			x[i] = 1
		}
		b.Run(name(s, sz.kind), func(b *testing.B) {
			for b.Loop() {
				f.SolveTo(x, x)
			}
			b.ReportMetric(float64(f.Stats().NNZL), "nnz(L)")
		})
	}
}

// BenchmarkMulVec2 times a step's products K v and M v, fused and as two
// passes, and reports the bytes streamed per second (values of both, the
// pattern once or twice, x and the results).
func BenchmarkMulVec2(b *testing.B) {
	for _, sz := range benchSizes[:2] {
		s := benchSpace(b, sz.kind, sz.n)
		K, err := s.Stiffness(steel)
		if err != nil {
			b.Fatal(err)
		}
		M, err := s.Mass(steel)
		if err != nil {
			b.Fatal(err)
		}
		n, nnz := s.N(), len(s.ind)
		x, kx, mx := make([]float64, n), make([]float64, n), make([]float64, n)
		for _, fused := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/fused=%v", name(s, sz.kind), fused), func(b *testing.B) {
				for b.Loop() {
					if fused {
						MulVec2To(kx, mx, K, M, x)
					} else {
						MulVecTo(kx, K, x)
						MulVecTo(mx, M, x)
					}
				}
				bytes := float64(2*8*nnz + 8*nnz + 8*3*n)
				if !fused {
					bytes += float64(8*nnz + 8*n)
				}
				b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}

// BenchmarkStresses times the stress recovery a run does at every output
// of an elastic body (its gradients kept from the first call).
func BenchmarkStresses(b *testing.B) {
	for _, sz := range benchSizes[:1] {
		s := benchSpace(b, sz.kind, sz.n)
		u := make([]float64, 2*len(s.Mesh.Nodes))
		for i := range u {
			u[i] = 1e-4 * float64(i%7)
		}
		b.Run(name(s, sz.kind), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Stresses(u, steel); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
