package element

import (
	"errors"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/mesh"
)

// Law is a hyperelastic constitutive law.
type Law int

// Laws of [BRF], eqs. 5 and 6.
const (
	// StVenantKirchhoff: W = lambda/2 (tr E)^2 + mu E:E,
	// S = lambda tr(E) I + 2 mu E.
	StVenantKirchhoff Law = iota + 1
	// NeoHookean (compressible): W = mu/2 (tr C - 3) - mu ln J +
	// lambda/2 (ln J)^2, S = mu (I - C^-1) + lambda ln J C^-1.
	NeoHookean
)

func (l Law) String() string {
	switch l {
	case 0:
		return "linear"
	case StVenantKirchhoff:
		return "stvenant"
	case NeoHookean:
		return "neohookean"
	}
	return fmt.Sprintf("Law(%d)", int(l))
}

// Hyperelastic is an isotropic hyperelastic material in plane strain
// (F_33 = 1), described in the total Lagrangian way: the second
// Piola-Kirchhoff stress S as a function of the Green-Lagrange strain
// E = (F'F - I)/2 of the reference configuration. E and Nu give the Lamé
// constants lambda = E nu / ((1 + nu)(1 - 2 nu)), mu = E / (2 (1 + nu)),
// so that both laws reduce to Elastic's plane strain for small strains.
type Hyperelastic struct {
	Law       Law
	E, Nu     float64 // Young's modulus (Pa), Poisson's ratio
	Rho       float64 // density of the reference configuration, kg/m^3
	Thickness float64 // m; 0 means 1
	// Dilatation is how a cell's volume change enters the law: at every
	// point (the zero value) or as the cell's mean (no volumetric locking
	// as nu nears 1/2).
	Dilatation Dilatation
}

// Validate reports a material that no computation should use.
func (m Hyperelastic) Validate() error {
	switch {
	case m.Law != StVenantKirchhoff && m.Law != NeoHookean:
		return fmt.Errorf("material: unknown hyperelastic law %v (stvenant or neohookean)", m.Law)
	case m.Dilatation != FullDilatation && m.Dilatation != MeanDilatation:
		return fmt.Errorf("material: unknown dilatation %v (full or mean)", m.Dilatation)
	case m.Nu == 0.5:
		return fmt.Errorf("material: Poisson's ratio nu = 0.5 is exact incompressibility, which a displacement model cannot represent (lambda is infinite): use nu = 0.4999 or less")
	}
	return Elastic{E: m.E, Nu: m.Nu, Rho: m.Rho, Thickness: m.Thickness}.Validate()
}

// Lame returns lambda and mu.
func (m Hyperelastic) Lame() (lambda, mu float64) {
	return m.E * m.Nu / ((1 + m.Nu) * (1 - 2*m.Nu)), m.E / (2 * (1 + m.Nu))
}

// Response is the law at a deformation gradient: the stored energy per
// unit reference volume, S (symmetric, 2x2) and the tangent dS/dE in Voigt
// order (11, 22, 12) with engineering shear on the strain side, so that
// dS = T [dE11, dE22, 2 dE12].
type Response struct {
	W   float64
	S   [2][2]float64
	S33 float64 // the out-of-plane stress plane strain holds
	T   [3][3]float64
}

// ErrInverted is wrapped by the error of a deformation gradient with
// det F <= 0: a material point turned inside out.
var ErrInverted = errors.New("det F <= 0: the material is inverted")

// At evaluates the law at the in-plane deformation gradient F.
func (m Hyperelastic) At(F [2][2]float64) (Response, error) {
	J := det2(F)
	if !(J > 0) {
		return Response{}, fmt.Errorf("%w (J = %g)", ErrInverted, J)
	}
	// C = F'F
	c := [2][2]float64{
		{F[0][0]*F[0][0] + F[1][0]*F[1][0], F[0][0]*F[0][1] + F[1][0]*F[1][1]},
		{F[0][1]*F[0][0] + F[1][1]*F[1][0], F[0][1]*F[0][1] + F[1][1]*F[1][1]},
	}
	lambda, mu := m.Lame()
	var r Response
	switch m.Law {
	case StVenantKirchhoff:
		e := [2][2]float64{{(c[0][0] - 1) / 2, c[0][1] / 2}, {c[1][0] / 2, (c[1][1] - 1) / 2}}
		tr := e[0][0] + e[1][1]
		r.W = lambda/2*tr*tr + mu*(e[0][0]*e[0][0]+e[1][1]*e[1][1]+2*e[0][1]*e[0][1])
		for i := range 2 {
			for j := range 2 {
				r.S[i][j] = 2 * mu * e[i][j]
			}
			r.S[i][i] += lambda * tr
		}
		r.S33 = lambda * tr
		r.T = [3][3]float64{{lambda + 2*mu, lambda, 0}, {lambda, lambda + 2*mu, 0}, {0, 0, mu}}
	case NeoHookean:
		lnJ := math.Log(J)
		// C^-1 of the 2x2 block (C_33 = 1, (C^-1)_33 = 1).
		ci := [2][2]float64{{c[1][1] / (J * J), -c[0][1] / (J * J)}, {-c[1][0] / (J * J), c[0][0] / (J * J)}}
		r.W = mu/2*(c[0][0]+c[1][1]-2) - mu*lnJ + lambda/2*lnJ*lnJ
		for i := range 2 {
			for j := range 2 {
				r.S[i][j] = (lambda*lnJ - mu) * ci[i][j]
			}
			r.S[i][i] += mu
		}
		r.S33 = lambda * lnJ
		// T_IJKL = lambda Ci_IJ Ci_KL + (mu - lambda ln J)(Ci_IK Ci_JL + Ci_IL Ci_JK)
		idx := [3][2]int{{0, 0}, {1, 1}, {0, 1}}
		g := mu - lambda*lnJ
		for p, ij := range idx {
			for q, kl := range idx {
				I, J, K, L := ij[0], ij[1], kl[0], kl[1]
				r.T[p][q] = lambda*ci[I][J]*ci[K][L] + g*(ci[I][K]*ci[J][L]+ci[I][L]*ci[J][K])
			}
		}
	default:
		return Response{}, fmt.Errorf("material: unknown hyperelastic law %v", m.Law)
	}
	return r, nil
}

// Hyper adds a cell's internal force and, when ke is not nil, its tangent
// stiffness in the total Lagrangian description to fe (2n) and ke (2n x
// 2n, row-major), and returns its stored energy. X are the reference
// coordinates of its nodes, u their displacements (node-major):
//
//	f_a = int P grad0 N_a dV0,  P = F S,
//	K_ab = int grad0 N_a . S grad0 N_b I + (F B_a)' T (F B_b) dV0,
//
// the first term the geometric stiffness, the second the material one. An
// inverted point is an error naming the Gauss point.
func (e *Element) Hyper(fe, ke []float64, X [][2]float64, u []float64, m Hyperelastic, w *Workspace) (float64, error) {
	n := e.NumNodes()
	nd := 2 * n
	t := m.Thickness
	if t == 0 {
		t = 1
	}
	if m.Dilatation == MeanDilatation {
		return e.hyperMean(fe, ke, X, u, m, t, w)
	}
	g := w.grads(n)
	floor := minDet(e.Kind, X)
	var energy float64
	for q, p := range e.Points {
		det := e.Map(X, q, g)
		if err := checkDet(det, floor, point{Q: q}); err != nil {
			return 0, err
		}
		F := deformation(g, u)
		r, err := m.At(F)
		if err != nil {
			return 0, fmt.Errorf("%v: %w", point{Q: q}, err)
		}
		f := t * det * p.W
		energy += f * r.W
		P := [2][2]float64{
			{F[0][0]*r.S[0][0] + F[0][1]*r.S[1][0], F[0][0]*r.S[0][1] + F[0][1]*r.S[1][1]},
			{F[1][0]*r.S[0][0] + F[1][1]*r.S[1][0], F[1][0]*r.S[0][1] + F[1][1]*r.S[1][1]},
		}
		for a := range n {
			fe[2*a] += f * (P[0][0]*g[a][0] + P[0][1]*g[a][1])
			fe[2*a+1] += f * (P[1][0]*g[a][0] + P[1][1]*g[a][1])
		}
		if ke != nil {
			addTangent(ke, nd, g, F, r, f)
		}
	}
	return energy, nil
}

// addTangent adds f times the geometric and material stiffness at one
// point. B_a maps node a's displacement to dE in Voigt form:
// dE = sym(F' grad du), so the x and y columns of F B_a are
// (F_i1 N_a,1, F_i2 N_a,2, F_i1 N_a,2 + F_i2 N_a,1) for component i.
func addTangent(ke []float64, nd int, g [][2]float64, F [2][2]float64, r Response, f float64) {
	n := nd / 2
	for b := range n {
		var tb [2][3]float64 // T B_b, one column per component of node b
		for k := range 2 {
			bv := [3]float64{F[k][0] * g[b][0], F[k][1] * g[b][1], F[k][0]*g[b][1] + F[k][1]*g[b][0]}
			for p := range 3 {
				tb[k][p] = r.T[p][0]*bv[0] + r.T[p][1]*bv[1] + r.T[p][2]*bv[2]
			}
		}
		sb := [2]float64{r.S[0][0]*g[b][0] + r.S[0][1]*g[b][1], r.S[1][0]*g[b][0] + r.S[1][1]*g[b][1]}
		for a := range n {
			geo := g[a][0]*sb[0] + g[a][1]*sb[1]
			for i := range 2 {
				av := [3]float64{F[i][0] * g[a][0], F[i][1] * g[a][1], F[i][0]*g[a][1] + F[i][1]*g[a][0]}
				row := (2*a + i) * nd
				for k := range 2 {
					v := av[0]*tb[k][0] + av[1]*tb[k][1] + av[2]*tb[k][2]
					if i == k {
						v += geo
					}
					ke[row+2*b+k] += f * v
				}
			}
		}
	}
}

// CauchyAt returns the Cauchy (true) stress sigma = F S F' / J at
// reference point x of a cell of kind k with reference node coordinates X
// and nodal displacements u (node-major), the out-of-plane component
// S_33 / J.
func CauchyAt(k mesh.Kind, X [][2]float64, u []float64, x [2]float64, m Hyperelastic) (Stress, error) {
	var g [8][2]float64
	n := k.NumNodes()
	if err := GradsAt(k, X, x, g[:n]); err != nil {
		return Stress{}, err
	}
	F := deformation(g[:n], u)
	if m.Dilatation == MeanDilatation {
		Theta, err := meanVolumeRatio(k, X, u)
		if err != nil {
			return Stress{}, err
		}
		J := det2(F)
		if !(J > 0) {
			return Stress{}, fmt.Errorf("%v: %w (J = %g)", point{Q: -1, X: x}, ErrInverted, J)
		}
		a := math.Sqrt(Theta / J)
		F = [2][2]float64{{a * F[0][0], a * F[0][1]}, {a * F[1][0], a * F[1][1]}}
	}
	r, err := m.At(F)
	if err != nil {
		return Stress{}, fmt.Errorf("%v: %w", point{Q: -1, X: x}, err)
	}
	J := det2(F)
	var sig [2][2]float64
	for i := range 2 {
		for j := range 2 {
			for k := range 2 {
				for l := range 2 {
					sig[i][j] += F[i][k] * r.S[k][l] * F[j][l]
				}
			}
			sig[i][j] /= J
		}
	}
	return Stress{XX: sig[0][0], YY: sig[1][1], XY: sig[0][1], ZZ: r.S33 / J}, nil
}

// HyperDamping adds to kd (2n x 2n, row-major) a cell's damping stiffness
// at the displacements u: the material part of the tangent with the
// tensor at rest,
//
//	Kd_ab = int (F B_a)' T0 (F B_b) dV0,
//
// so that Kd v is the force of a viscous stress T0 dE/dt with dE/dt =
// sym(F' grad0 v), the rate of the Green-Lagrange strain. It is symmetric
// positive semi-definite and vanishes on every rigid motion of the
// configuration u (dE/dt = 0 there), whatever its orientation, while the
// stiffness at rest damps a rotation away from the reference; at u = 0 it
// is that stiffness (T0 is the plane-strain tensor of both laws at small
// strain). It takes the deformation at every point, with either
// Dilatation.
func (e *Element) HyperDamping(kd []float64, X [][2]float64, u []float64, m Hyperelastic, w *Workspace) error {
	n := e.NumNodes()
	t := m.Thickness
	if t == 0 {
		t = 1
	}
	lambda, mu := m.Lame()
	rest := Response{T: [3][3]float64{{lambda + 2*mu, lambda, 0}, {lambda, lambda + 2*mu, 0}, {0, 0, mu}}}
	g := w.grads(n)
	floor := minDet(e.Kind, X)
	for q, p := range e.Points {
		det := e.Map(X, q, g)
		if err := checkDet(det, floor, point{Q: q}); err != nil {
			return err
		}
		addTangent(kd, 2*n, g, deformation(g, u), rest, t*det*p.W)
	}
	return nil
}
