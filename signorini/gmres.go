package signorini

import (
	"math"

	"github.com/fecontact/fecontact/internal/reuse"
)

// gmres is restarted GMRES(restart) for Newton's inner systems when they
// are too large for a dense LU: it needs only products with the system's
// matrix, which W's blocks give at the cost of a sweep. Its storage is
// kept from one solve to the next.
type gmres struct {
	v       [][]float64 // the Krylov basis
	h       [][]float64 // the Hessenberg matrix, by column
	cs, sn  []float64   // Givens rotations
	g, y, w []float64
	z       []float64 // a preconditioned vector
}

const gmresRestart = 40

// solve solves A x = b, right-preconditioned by prec (z = M^-1 v), to a
// relative residual tol, from x = 0, in at most restarts restarts; it
// returns the relative residual reached (x holds that solution).
func (s *gmres) solve(apply, prec func(x, y []float64), b, x []float64, tol float64, restarts int) float64 {
	m := len(b)
	clear(x)
	bn := norm2(b)
	if m == 0 || bn == 0 {
		return 0
	}
	k := min(gmresRestart, m)
	s.alloc(m, k)
	r := s.w
	for range restarts {
		apply(x, r)
		for i := range r {
			r[i] = b[i] - r[i]
		}
		beta := norm2(r)
		if beta <= tol*bn {
			return beta / bn
		}
		for i := range r {
			s.v[0][i] = r[i] / beta
		}
		clear(s.g)
		s.g[0] = beta
		j := 0
		for ; j < k; j++ {
			if s.arnoldi(apply, prec, j) <= tol*bn {
				j++
				break
			}
		}
		s.update(prec, x, j)
	}
	apply(x, r)
	for i := range r {
		r[i] = b[i] - r[i]
	}
	return norm2(r) / bn
}

func (s *gmres) alloc(m, k int) {
	if len(s.v) < k+1 || len(s.v[0]) != m {
		s.v = make([][]float64, k+1)
		for i := range s.v {
			s.v[i] = make([]float64, m)
		}
	}
	if len(s.h) < k {
		s.h = make([][]float64, k)
		for i := range s.h {
			s.h[i] = make([]float64, k+1)
		}
	}
	s.cs, s.sn, s.g, s.y = reuse.Zeroed(s.cs, k), reuse.Zeroed(s.sn, k), reuse.Zeroed(s.g, k+1), reuse.Zeroed(s.y, k)
	s.w, s.z = reuse.Zeroed(s.w, m), reuse.Zeroed(s.z, m)
}

// arnoldi extends the basis by one vector (modified Gram-Schmidt), applies
// the rotations to the new column and returns the residual's estimate.
func (s *gmres) arnoldi(apply, prec func(x, y []float64), j int) float64 {
	w, h := s.v[j+1], s.h[j]
	prec(s.v[j], s.z)
	apply(s.z, w)
	for i := 0; i <= j; i++ {
		h[i] = dot(w, s.v[i])
		for l := range w {
			w[l] -= h[i] * s.v[i][l]
		}
	}
	h[j+1] = norm2(w)
	if h[j+1] > 0 {
		for l := range w {
			w[l] /= h[j+1]
		}
	}
	for i := 0; i < j; i++ {
		h[i], h[i+1] = s.cs[i]*h[i]+s.sn[i]*h[i+1], -s.sn[i]*h[i]+s.cs[i]*h[i+1]
	}
	d := math.Hypot(h[j], h[j+1])
	if d == 0 {
		s.cs[j], s.sn[j] = 1, 0
	} else {
		s.cs[j], s.sn[j] = h[j]/d, h[j+1]/d
	}
	h[j], h[j+1] = d, 0
	s.g[j], s.g[j+1] = s.cs[j]*s.g[j], -s.sn[j]*s.g[j]
	return math.Abs(s.g[j+1])
}

// update adds the preconditioned combination of the first j basis
// vectors that minimises the residual to x.
func (s *gmres) update(prec func(x, y []float64), x []float64, j int) {
	for i := j - 1; i >= 0; i-- {
		sum := s.g[i]
		for l := i + 1; l < j; l++ {
			sum -= s.h[l][i] * s.y[l]
		}
		if s.h[i][i] != 0 {
			s.y[i] = sum / s.h[i][i]
		} else {
			s.y[i] = 0
		}
	}
	clear(s.w)
	for i := 0; i < j; i++ {
		for l := range s.w {
			s.w[l] += s.y[i] * s.v[i][l]
		}
	}
	prec(s.w, s.z)
	for l := range x {
		x[l] += s.z[l]
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func norm2(a []float64) float64 { return math.Sqrt(dot(a, a)) }
