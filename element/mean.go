package element

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/mesh"
)

// Dilatation says how the volume change of a hyperelastic cell enters its
// law.
type Dilatation int

const (
	// FullDilatation: the law sees F at every point. With nu near 1/2
	// every point's det F is held near 1 and displacement cells lock.
	FullDilatation Dilatation = iota
	// MeanDilatation: the law sees Fbar = (Theta / J)^(1/2) F, Theta the
	// cell's volume ratio (the mean of J over the cell), so that
	// det Fbar = Theta at every point: one volumetric constraint per cell
	// (Q4/P0, Q8/P0, T6/P0) instead of one per point. It is the F-bar
	// method in its variational form: the cell's energy is the integral of
	// W(Fbar), its force and tangent are the exact derivatives of that
	// energy, so the tangent stays symmetric and the energy ledger holds.
	// On T3, J is constant and Fbar = F.
	MeanDilatation
)

func (d Dilatation) String() string {
	switch d {
	case FullDilatation:
		return "full"
	case MeanDilatation:
		return "mean"
	}
	return fmt.Sprintf("Dilatation(%d)", int(d))
}

// vec4 and mat4 are 2x2 tensors and maps between them, flattened in the
// order (11, 12, 21, 22): index 2i+J.
type (
	vec4 = [4]float64
	mat4 = [4][4]float64
)

// hessJ is the second derivative of det F, constant in 2D.
var hessJ = mat4{{0, 0, 0, 1}, {0, 0, -1, 0}, {0, -1, 0, 0}, {1, 0, 0, 0}}

// meanPoint is what the mean-dilatation kernel keeps of a Gauss point
// between its passes.
type meanPoint struct {
	c    float64 // thickness x weight x det of the map
	F    [2][2]float64
	J    float64
	D    mat4 // second derivative of the point's energy in vec F
	grad [8][2]float64
}

// hyperMean is Hyper under MeanDilatation. With Theta = sum c J / sum c
// and phi(F, Theta) = W(Fbar), the cell's energy is sum c phi, whose
// gradient in u is sum c (G' phi_F + phi_Theta theta) and whose Hessian
// is sum c (G' phi_FF G + G' phi_FT theta' + theta phi_FT' G +
// phi_TT theta theta' + phi_Theta Theta_uu); G maps u to vec F at the
// point and theta is dTheta/du.
func (e *Element) hyperMean(fe, ke []float64, X [][2]float64, u []float64, m Hyperelastic, t float64, w *Workspace) (float64, error) {
	n := e.NumNodes()
	nd := 2 * n
	pts, vol, Theta, err := e.dilatation(X, u, t, w)
	if err != nil {
		return 0, err
	}
	theta, bvec := w.meanVecs(nd)
	// theta_(a,i) = sum c J k_(iJ) N_a,J / vol, k = vec F^-T.
	for _, p := range pts {
		k := cofactor(p.F)
		for a := range n {
			for i := range 2 {
				theta[2*a+i] += p.c * p.J * (k[2*i]*p.grad[a][0] + k[2*i+1]*p.grad[a][1]) / vol
			}
		}
	}
	var energy, cT, cTT float64
	for q := range pts {
		p := &pts[q]
		d, err := meanAt(m, p.F, p.J, Theta, ke != nil)
		if err != nil {
			return 0, fmt.Errorf("%v: %w", point{Q: q}, err)
		}
		energy += p.c * d.W
		cT += p.c * d.T
		cTT += p.c * d.TT
		p.D = d.FF
		for a := range n {
			for i := range 2 {
				gF := d.F[2*i]*p.grad[a][0] + d.F[2*i+1]*p.grad[a][1]
				fe[2*a+i] += p.c * gF
				bvec[2*a+i] += p.c * (d.FT[2*i]*p.grad[a][0] + d.FT[2*i+1]*p.grad[a][1])
			}
		}
	}
	for a := range nd {
		fe[a] += cT * theta[a]
	}
	if ke == nil {
		return energy, nil
	}
	for q := range pts {
		p := &pts[q]
		for r := range 4 {
			for s := range 4 {
				p.D[r][s] += cT / vol * hessJ[r][s]
			}
		}
		addGDG(ke, nd, p.grad[:n], &p.D, p.c)
	}
	for a := range nd {
		row := ke[a*nd : (a+1)*nd]
		for b := range nd {
			row[b] += bvec[a]*theta[b] + theta[a]*bvec[b] + cTT*theta[a]*theta[b]
		}
	}
	return energy, nil
}

// dilatation evaluates F, J and the weights at the cell's Gauss points and
// returns them with the cell's reference volume (times t) and its volume
// ratio Theta.
func (e *Element) dilatation(X [][2]float64, u []float64, t float64, w *Workspace) ([]meanPoint, float64, float64, error) {
	n := e.NumNodes()
	pts := w.meanPoints(len(e.Points))
	floor := minDet(e.Kind, X)
	var vol, Theta float64
	for q, ip := range e.Points {
		p := &pts[q]
		det := e.Map(X, q, p.grad[:n])
		if err := checkDet(det, floor, point{Q: q}); err != nil {
			return nil, 0, 0, err
		}
		p.F = deformation(p.grad[:n], u)
		p.J = det2(p.F)
		if !(p.J > 0) {
			return nil, 0, 0, fmt.Errorf("%v: %w (J = %g)", point{Q: q}, ErrInverted, p.J)
		}
		p.c = t * det * ip.W
		vol += p.c
		Theta += p.c * p.J
	}
	return pts, vol, Theta / vol, nil
}

// deformation is F = I + grad u at a point with shape gradients g.
func deformation(g [][2]float64, u []float64) [2][2]float64 {
	F := [2][2]float64{{1, 0}, {0, 1}}
	for a := range g {
		for i := range 2 {
			F[i][0] += u[2*a+i] * g[a][0]
			F[i][1] += u[2*a+i] * g[a][1]
		}
	}
	return F
}

// det2 is det F.
func det2(F [2][2]float64) float64 { return F[0][0]*F[1][1] - F[0][1]*F[1][0] }

// cofactor is vec F^-T = vec(cof F) / J.
func cofactor(F [2][2]float64) vec4 {
	J := det2(F)
	return vec4{F[1][1] / J, -F[1][0] / J, -F[0][1] / J, F[0][0] / J}
}

// meanDerivs are phi(F, Theta) = W(Fbar) and its first and second
// derivatives in vec F and Theta.
type meanDerivs struct {
	W, T, TT float64
	F, FT    vec4
	FF       mat4
}

// meanAt differentiates phi(F, Theta) = W(alpha F), alpha = (Theta/J)^(1/2),
// by the chain rule through Fbar: with P = dW/dFbar and A = dP/dFbar,
// phi_F = M'P, M = dFbar/dF = alpha (I - f k'/2), m = dFbar/dTheta =
// alpha f / (2 Theta), plus the second derivatives of Fbar contracted
// with P. Without second, only W and the first derivatives.
func meanAt(mat Hyperelastic, F [2][2]float64, J, Theta float64, second bool) (meanDerivs, error) {
	alpha := math.Sqrt(Theta / J)
	Fb := [2][2]float64{{alpha * F[0][0], alpha * F[0][1]}, {alpha * F[1][0], alpha * F[1][1]}}
	r, err := mat.At(Fb)
	if err != nil {
		return meanDerivs{}, err
	}
	f := vec4{F[0][0], F[0][1], F[1][0], F[1][1]}
	k := cofactor(F)
	var P vec4
	var A mat4
	if second {
		P, A = firstPiola(Fb, r)
	} else {
		P = firstPiolaStress(Fb, r)
	}
	d := meanDerivs{W: r.W}
	var s float64 // P : F
	for i := range 4 {
		s += P[i] * f[i]
	}
	// M'P = alpha (P - k (f.P) / 2), m.P = alpha (f.P) / (2 Theta).
	for i := range 4 {
		d.F[i] = alpha * (P[i] - k[i]*s/2)
	}
	d.T = alpha * s / (2 * Theta)
	if !second {
		return d, nil
	}
	var M mat4
	var mv vec4
	for i := range 4 {
		for j := range 4 {
			M[i][j] = -alpha / 2 * f[i] * k[j]
		}
		M[i][i] += alpha
		mv[i] = alpha * f[i] / (2 * Theta)
	}
	var AM mat4 // A M
	var Am vec4 // A m
	for i := range 4 {
		for j := range 4 {
			for l := range 4 {
				AM[i][j] += A[i][l] * M[l][j]
			}
			Am[i] += A[i][j] * mv[j]
		}
	}
	for i := range 4 {
		d.TT += mv[i] * Am[i]
		for j := range 4 {
			d.FT[i] += M[j][i] * Am[j]
			for l := range 4 {
				d.FF[i][j] += M[l][i] * AM[l][j]
			}
			// s alpha_FF + alpha_F P' + P alpha_F', alpha_F = -alpha k / 2,
			// alpha_FF = alpha (3/4 k k' - hessJ / (2J)).
			d.FF[i][j] += s*alpha*(0.75*k[i]*k[j]-hessJ[i][j]/(2*J)) - alpha/2*(k[i]*P[j]+P[i]*k[j])
		}
		d.FT[i] += -s*alpha/(4*Theta)*k[i] + alpha/(2*Theta)*P[i]
	}
	d.TT -= s * alpha / (4 * Theta * Theta)
	return d, nil
}

// firstPiolaStress returns P = F S of a response at F.
func firstPiolaStress(F [2][2]float64, r Response) vec4 {
	var P vec4
	for i := range 2 {
		for J := range 2 {
			P[2*i+J] = F[i][0]*r.S[0][J] + F[i][1]*r.S[1][J]
		}
	}
	return P
}

// firstPiola returns P = F S and A = dP/dF of a response at F:
// A_iJkL = delta_ik S_JL + F_iM C_MJNL F_kN, C the tangent dS/dE.
func firstPiola(F [2][2]float64, r Response) (vec4, mat4) {
	voigt := [2][2]int{{0, 2}, {2, 1}}
	P := firstPiolaStress(F, r)
	var A mat4
	for i := range 2 {
		for J := range 2 {
			for k := range 2 {
				for L := range 2 {
					v := 0.0
					if i == k {
						v = r.S[J][L]
					}
					for M := range 2 {
						for N := range 2 {
							v += F[i][M] * r.T[voigt[M][J]][voigt[N][L]] * F[k][N]
						}
					}
					A[2*i+J][2*k+L] = v
				}
			}
		}
	}
	return P, A
}

// addGDG adds c G'DG to ke, G mapping node-major displacements to vec F at
// a point of shape gradients g: with (DG)_(b,k) = sum_L D[.][2k+L] g_b,L
// formed once per column, entry ((a,i),(b,k)) is sum_J g_a,J (DG)_(b,k)[2i+J].
func addGDG(ke []float64, nd int, g [][2]float64, D *mat4, c float64) {
	var dg [16]vec4 // DG's columns, 2 per node
	for b := range g {
		for k := range 2 {
			col := &dg[2*b+k]
			for r := range 4 {
				col[r] = c * (D[r][2*k]*g[b][0] + D[r][2*k+1]*g[b][1])
			}
		}
	}
	for a := range g {
		for i := range 2 {
			row := ke[(2*a+i)*nd : (2*a+i+1)*nd]
			ga0, ga1 := g[a][0], g[a][1]
			for col := range nd {
				row[col] += ga0*dg[col][2*i] + ga1*dg[col][2*i+1]
			}
		}
	}
}

// defaults are the kinds tabulated on their default rules, read-only:
// stress recovery evaluates Theta at every node of every cell.
var defaults = func() map[mesh.Kind]*Element {
	m := map[mesh.Kind]*Element{}
	for _, k := range mesh.Kinds {
		m[k] = New(k)
	}
	return m
}()

// meanVolumeRatio is Theta of a cell of kind k on its default rule.
func meanVolumeRatio(k mesh.Kind, X [][2]float64, u []float64) (float64, error) {
	var w Workspace
	_, _, Theta, err := defaults[k].dilatation(X, u, 1, &w)
	return Theta, err
}
