package element

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/mesh"
)

// rubber is the disc of [BRF] (seeds/003) with nu a little below 0.5.
var rubber = Hyperelastic{E: 7e6, Nu: 0.45, Rho: 1722}

var laws = []Law{StVenantKirchhoff, NeoHookean}

// materials is rubber under each law and dilatation.
func materials() []Hyperelastic {
	var ms []Hyperelastic
	for _, law := range laws {
		for _, d := range []Dilatation{FullDilatation, MeanDilatation} {
			m := rubber
			m.Law, m.Dilatation = law, d
			ms = append(ms, m)
		}
	}
	return ms
}

func label(m Hyperelastic) string { return m.Law.String() + "/" + m.Dilatation.String() }

// strainOf is the Green-Lagrange strain of F in Voigt form (engineering
// shear).
func strainOf(F [2][2]float64) [3]float64 {
	c00 := F[0][0]*F[0][0] + F[1][0]*F[1][0]
	c11 := F[0][1]*F[0][1] + F[1][1]*F[1][1]
	c01 := F[0][0]*F[0][1] + F[1][0]*F[1][1]
	return [3]float64{(c00 - 1) / 2, (c11 - 1) / 2, c01}
}

// TestLawDerivatives: S is the derivative of W and T that of S, against
// central differences in the components of F (dW = S : dE,
// dS = T dE), for both laws at a large deformation.
func TestLawDerivatives(t *testing.T) {
	F := [2][2]float64{{1.3, 0.4}, {-0.2, 0.8}}
	const h = 1e-6
	for _, law := range laws {
		m := rubber
		m.Law = law
		r, err := m.At(F)
		require.NoError(t, err)
		Sv := [3]float64{r.S[0][0], r.S[1][1], r.S[0][1]}
		for i := range 2 {
			for j := range 2 {
				Fp, Fm := F, F
				Fp[i][j] += h
				Fm[i][j] -= h
				rp, err := m.At(Fp)
				require.NoError(t, err)
				rm, err := m.At(Fm)
				require.NoError(t, err)
				ep, em := strainOf(Fp), strainOf(Fm)
				var dE [3]float64
				for p := range 3 {
					dE[p] = ep[p] - em[p]
				}
				dW := Sv[0]*dE[0] + Sv[1]*dE[1] + Sv[2]*dE[2]
				assert.InDelta(t, rp.W-rm.W, dW, 1e-7*math.Abs(rp.W-rm.W)+1e-9*m.E*h, "%v: dW/dF_%d%d", law, i, j)
				dS := [3]float64{rp.S[0][0] - rm.S[0][0], rp.S[1][1] - rm.S[1][1], rp.S[0][1] - rm.S[0][1]}
				for p := range 3 {
					want := r.T[p][0]*dE[0] + r.T[p][1]*dE[1] + r.T[p][2]*dE[2]
					assert.InDelta(t, dS[p], want, 1e-6*m.E*h, "%v: dS_%d/dF_%d%d", law, p, i, j)
				}
			}
		}
	}
}

// TestLawsSmallStrain: for a small strain both laws give Elastic's plane
// strain stress to second order, and they part at large strain (uniaxial
// stretch 1.5: the neo-Hookean S_11 differs from St Venant-Kirchhoff's).
func TestLawsSmallStrain(t *testing.T) {
	const eps = 1e-6
	F := [2][2]float64{{1 + eps, 0.5 * eps}, {0.3 * eps, 1 - 0.7*eps}}
	e := strainOf(F)
	D := Elastic{E: rubber.E, Nu: rubber.Nu, Rho: 1}.D()
	var big [2]float64
	for k, law := range laws {
		m := rubber
		m.Law = law
		r, err := m.At(F)
		require.NoError(t, err)
		S := [3]float64{r.S[0][0], r.S[1][1], r.S[0][1]}
		for p := range 3 {
			want := D[p][0]*e[0] + D[p][1]*e[1] + D[p][2]*e[2]
			assert.InDelta(t, want, S[p], 10*eps*eps*m.E, "%v: S_%d", law, p)
		}
		r, err = m.At([2][2]float64{{1.5, 0}, {0, 1}})
		require.NoError(t, err)
		big[k] = r.S[0][0]
	}
	// Uniaxial plane strain stretch 1.5: E_11 = 0.625, so St Venant-
	// Kirchhoff gives (lambda + 2 mu) 0.625; neo-Hookean
	// mu (1 - 1/2.25) + lambda ln 1.5 / 2.25.
	lambda, mu := rubber.Lame()
	assert.InDelta(t, (lambda+2*mu)*0.625, big[0], 1e-9*rubber.E)
	assert.InDelta(t, mu*(1-1/2.25)+lambda*math.Log(1.5)/2.25, big[1], 1e-9*rubber.E)
}

// TestHyperObjectivity: a cell rotated rigidly by 90 degrees stores no
// energy and has no internal force with either law and dilatation (the small-strain
// stiffness gives it forces of the order of E times the cell), and a
// stretched cell then rotated keeps the stretched cell's energy.
func TestHyperObjectivity(t *testing.T) {
	for _, k := range mesh.Kinds {
		e := New(k)
		X := distorted(k)
		n := len(X)
		rot := func(theta float64, pre func([2]float64) [2]float64) []float64 {
			c, s := math.Cos(theta), math.Sin(theta)
			u := make([]float64, 2*n)
			for a, x := range X {
				y := pre(x)
				u[2*a], u[2*a+1] = c*y[0]-s*y[1]-x[0], s*y[0]+c*y[1]-x[1]
			}
			return u
		}
		id := func(x [2]float64) [2]float64 { return x }
		stretch := func(x [2]float64) [2]float64 { return [2]float64{1.2 * x[0], 0.9*x[1] + 0.1*x[0]} }
		for _, m := range materials() {
			law := label(m)
			var w Workspace
			fe := make([]float64, 2*n)
			W, err := e.Hyper(fe, nil, X, rot(math.Pi/2, id), m, &w)
			require.NoError(t, err)
			assert.InDelta(t, 0, W, 1e-9*m.E, "%v %v: energy", k, law)
			for i, f := range fe {
				assert.InDelta(t, 0, f, 1e-8*m.E, "%v %v: force %d", k, law, i)
			}
			W0, err := e.Hyper(make([]float64, 2*n), nil, X, rot(0, stretch), m, &w)
			require.NoError(t, err)
			W1, err := e.Hyper(make([]float64, 2*n), nil, X, rot(math.Pi/2, stretch), m, &w)
			require.NoError(t, err)
			assert.InDelta(t, W0, W1, 1e-12*W0, "%v %v: stretched energy", k, law)
		}
		// The linear model under the same rotation: forces of order E.
		ke := make([]float64, 4*n*n)
		require.NoError(t, e.Stiffness(ke, X, Elastic{E: rubber.E, Nu: rubber.Nu, Rho: 1}, &Workspace{}))
		u := rot(math.Pi/2, id)
		var fmax float64
		for i := range 2 * n {
			var f float64
			for j := range 2 * n {
				f += ke[i*2*n+j] * u[j]
			}
			fmax = math.Max(fmax, math.Abs(f))
		}
		assert.Greater(t, fmax, 0.01*rubber.E, "%v: the linear model's spurious force", k)
	}
}

// TestHyperElement: for every kind and law, at a random large
// deformation, the internal force is the gradient of the energy and the
// tangent the gradient of the force (central differences), the forces sum
// to zero and have no moment about the origin in the deformed
// configuration (P F' is symmetric); under both dilatations.
func TestHyperElement(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range mesh.Kinds {
		e := New(k)
		X := distorted(k)
		n := len(X)
		u := make([]float64, 2*n)
		for a, x := range X {
			u[2*a] = 0.2*x[0] - 0.15*x[1] + 0.02*rng.NormFloat64()
			u[2*a+1] = 0.1*x[0] + 0.1*x[1] + 0.02*rng.NormFloat64()
		}
		for _, md := range materials() {
			m, law := md, label(md)
			var w Workspace
			fe, ke := make([]float64, 2*n), make([]float64, 4*n*n)
			_, err := e.Hyper(fe, ke, X, u, m, &w)
			require.NoError(t, err)
			const h = 1e-7
			var fsum [2]float64
			var moment, fscale float64
			for j := range 2 * n {
				up, um := append([]float64(nil), u...), append([]float64(nil), u...)
				up[j] += h
				um[j] -= h
				fp, fm := make([]float64, 2*n), make([]float64, 2*n)
				Wp, err := e.Hyper(fp, nil, X, up, m, &w)
				require.NoError(t, err)
				Wm, err := e.Hyper(fm, nil, X, um, m, &w)
				require.NoError(t, err)
				assert.InDelta(t, fe[j], (Wp-Wm)/(2*h), 1e-6*m.E, "%v %v: dW/du_%d", k, law, j)
				for i := range 2 * n {
					assert.InDelta(t, ke[i*2*n+j], (fp[i]-fm[i])/(2*h), 1e-5*m.E, "%v %v: K_%d,%d", k, law, i, j)
				}
				fsum[j%2] += fe[j]
				fscale = math.Max(fscale, math.Abs(fe[j]))
			}
			for a, x := range X {
				moment += (x[0]+u[2*a])*fe[2*a+1] - (x[1]+u[2*a+1])*fe[2*a]
			}
			assert.InDelta(t, 0, fsum[0], 1e-10*fscale, "%v %v: sum of x forces", k, law)
			assert.InDelta(t, 0, fsum[1], 1e-10*fscale, "%v %v: sum of y forces", k, law)
			assert.InDelta(t, 0, moment, 1e-10*fscale, "%v %v: moment", k, law)
		}
	}
}

// TestHyperErrors: nu = 0.5 is refused with what to use; an inverted
// point names the Gauss point.
func TestHyperErrors(t *testing.T) {
	m := rubber
	m.Law, m.Nu = NeoHookean, 0.5
	err := m.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "use nu = 0.4999 or less")
	m.Nu = 0.4999
	require.NoError(t, m.Validate())
	m.Law = 0
	assert.ErrorContains(t, m.Validate(), "unknown hyperelastic law")

	e := New(mesh.Q4)
	X := RefNodes(mesh.Q4)
	u := make([]float64, 8)
	for a, x := range X {
		u[2*a] = -2 * x[0] // x -> -x: inverted
	}
	m = rubber
	m.Law = StVenantKirchhoff
	_, err = e.Hyper(make([]float64, 8), nil, X, u, m, &Workspace{})
	require.ErrorIs(t, err, ErrInverted)
	assert.Contains(t, err.Error(), "Gauss point 0")
}

// TestCauchyAt: a cell stretched homogeneously by diag(1.3, 0.9) has the
// true stress F S F' / J of the laws written out (sigma_11 = l1 S_11 / l2,
// sigma_22 = l2 S_22 / l1, sigma_33 = S_33 / J); rotated by 90 degrees,
// the same stress turned (sigma_xx and sigma_yy swap).
func TestCauchyAt(t *testing.T) {
	const l1, l2 = 1.3, 0.9
	for _, law := range laws {
		m := rubber
		m.Law = law
		lambda, mu := m.Lame()
		var s11, s22, s33 float64
		if law == StVenantKirchhoff {
			e1, e2 := (l1*l1-1)/2, (l2*l2-1)/2
			s11, s22, s33 = lambda*(e1+e2)+2*mu*e1, lambda*(e1+e2)+2*mu*e2, lambda*(e1+e2)
		} else {
			lnJ := math.Log(l1 * l2)
			s11, s22, s33 = mu*(1-1/(l1*l1))+lambda*lnJ/(l1*l1), mu*(1-1/(l2*l2))+lambda*lnJ/(l2*l2), lambda*lnJ
		}
		for _, k := range mesh.Kinds {
			X := distorted(k)
			for _, turn := range []bool{false, true} {
				u := make([]float64, 2*len(X))
				for a, x := range X {
					y := [2]float64{l1 * x[0], l2 * x[1]}
					if turn {
						y = [2]float64{-y[1], y[0]}
					}
					u[2*a], u[2*a+1] = y[0]-x[0], y[1]-x[1]
				}
				s, err := CauchyAt(k, X, u, [2]float64{0.2, 0.1}, m)
				require.NoError(t, err)
				xx, yy := l1*s11/l2, l2*s22/l1
				if turn {
					xx, yy = yy, xx
				}
				assert.InDelta(t, xx, s.XX, 1e-9*m.E, "%v %v turned %v: xx", law, k, turn)
				assert.InDelta(t, yy, s.YY, 1e-9*m.E, "%v %v turned %v: yy", law, k, turn)
				assert.InDelta(t, 0, s.XY, 1e-9*m.E, "%v %v turned %v: xy", law, k, turn)
				assert.InDelta(t, s33/(l1*l2), s.ZZ, 1e-9*m.E, "%v %v turned %v: zz", law, k, turn)
			}
		}
	}
}
