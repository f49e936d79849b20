package signorini

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diskOnIncline is one step h of a disk (mass m, radius R, I = m R^2 / 2)
// at rest on an incline of angle alpha, with friction mu and rolling
// resistance muR: contact 0 the disk's contact (its rows N = v_y, T = v_x
// + R omega in the incline's frame), contact 1 its rolling row (omega).
// held is the closed form's verdict: rolling resistance holds the disk
// for tan alpha <= muR / R.
func diskOnIncline(alpha, mu, muR float64, sparse bool) *Problem {
	const m, R, g, h = 2.0, 0.1, 9.81, 1e-3
	I := m * R * R / 2
	rows := [][]float64{
		{1 / m, 0, 0, 0},
		{0, 1/m + R*R/I, R / I, 0},
		{0, R / I, 1 / I, 0},
		{0, 0, 0, 0},
	}
	p := &Problem{Q: []float64{-g * math.Cos(alpha) * h, g * math.Sin(alpha) * h, 0, 0},
		Mu: []float64{mu, muR}, RollOf: []int{-1, 0}}
	if sparse {
		var ts []Triplet
		for i, row := range rows {
			for j, v := range row {
				if v != 0 {
					ts = append(ts, Triplet{i, j, v})
				}
			}
		}
		w, err := NewBlockSparse(2, ts)
		if err != nil {
			panic(err)
		}
		p.W = w
		return p
	}
	d := &Dense{N: 2}
	for _, row := range rows {
		d.Data = append(d.Data, row...)
	}
	p.W = d
	return p
}

// TestRollingResistance: one step of a disk on an incline against the
// closed forms. Below tan alpha = mu_r / R the rolling row holds it (no
// rolling, no slip: u_T = u_R = 0, r_R = -R r_T = m g R sin alpha h);
// above, it rolls without slipping at the acceleration (2/3) g (sin alpha
// - (mu_r / R) cos alpha) with r_R at its bound mu_r r_N; every order,
// dense or block-sparse, and Auto agree; the certificate holds at round
// off and the rolling work is not positive. Newton refuses rolling rows.
func TestRollingResistance(t *testing.T) {
	const m, R, g, h, muR = 2.0, 0.1, 9.81, 1e-3, 0.005 // tan = 0.05: 2.86 degrees
	for _, tc := range []struct {
		name   string
		deg    float64
		rolls  bool
		sparse bool
		order  Order
		method Method
	}{
		{"held at 2 degrees", 2, false, false, Natural, NLGSMethod},
		{"held at 2.8 degrees, sparse, coloured", 2.8, false, true, Coloured, NLGSMethod},
		{"rolls at 3 degrees", 3, true, false, Natural, NLGSMethod},
		{"rolls at 10 degrees, sparse, alternating", 10, true, true, Alternating, Auto},
		{"rolls at 20 degrees, auto", 20, true, false, Natural, Auto},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alpha := tc.deg * math.Pi / 180
			p := diskOnIncline(alpha, 0.9, muR, tc.sparse)
			res, err := Solve(p, Options{Method: tc.method, Order: tc.order, Tol: 1e-12})
			require.NoError(t, err)
			rn := m * g * math.Cos(alpha) * h
			assert.InDelta(t, rn, res.R[0], 1e-12*rn, "r_N holds the weight")
			assert.InDelta(t, 0, res.U[1], 1e-12, "no slip")
			vx := g*math.Sin(alpha)*h + res.R[1]/m // the centre's velocity down the slope
			if tc.rolls {
				assert.InDelta(t, muR*rn, res.R[2], 1e-12*rn, "r_R at its bound")
				a := 2.0 / 3 * g * (math.Sin(alpha) - muR/R*math.Cos(alpha))
				assert.InDelta(t, a*h, vx, 1e-11, "rolls at (2/3) g (sin - mu_r/R cos)")
				assert.Less(t, res.U[2], 0.0, "rolls down: omega < 0")
				assert.Equal(t, SlideBackward, res.Status[1])
			} else {
				assert.InDelta(t, m*g*R*math.Sin(alpha)*h, res.R[2], 1e-12*rn, "r_R = m g R sin alpha h")
				assert.InDelta(t, 0, vx, 1e-12, "held")
				assert.InDelta(t, 0, res.U[2], 1e-12, "no rolling")
				assert.Equal(t, Stick, res.Status[1])
			}
			assert.LessOrEqual(t, res.R[2]*res.U[2], 0.0, "the rolling moment does no positive work")
			c := Certify(p, res.R, res.U)
			assert.Less(t, c.ComplementarityRel, 1e-10)
			assert.Less(t, c.ConeViolation, 1e-10)
			assert.Less(t, Residual(p, res.R, nil), 1e-10)
		})
	}
	_, err := Newton(diskOnIncline(0.1, 0.9, muR, false), Options{})
	assert.ErrorIs(t, err, ErrRolling)
}

// TestRollingCertificateCatchesBreaches: impulses outside the rolling
// law are caught by the certificate and the residual (a moment over its
// bound; a moment under its bound while the disk rolls).
func TestRollingCertificateCatchesBreaches(t *testing.T) {
	p := diskOnIncline(0.2, 0.9, 0.005, false)
	res, err := NLGS(p, Options{Tol: 1e-12})
	require.NoError(t, err)
	over := append([]float64(nil), res.R...)
	over[2] *= 1.5
	u := make([]float64, 4)
	assert.Greater(t, Residual(p, over, u), 1e-3)
	assert.Greater(t, Certify(p, over, u).ConeViolation, 1e-3)
	under := append([]float64(nil), res.R...)
	under[2] *= 0.5
	assert.Greater(t, Residual(p, under, u), 1e-3)
	assert.Greater(t, Certify(p, under, u).ComplementarityRel, 1e-3)
}

// TestRollingRowsExchanged: a problem with rolling rows written and read
// back (rolling_of) is the same problem, solved to the same impulses; a
// rolling row of a rolling row is refused.
func TestRollingRowsExchanged(t *testing.T) {
	p := diskOnIncline(0.2, 0.9, 0.005, true)
	path := filepath.Join(t.TempDir(), "disk.json")
	require.NoError(t, WriteProblem(path, "disk", p))
	back, _, err := ReadProblem(path)
	require.NoError(t, err)
	assert.Equal(t, p.RollOf, back.RollOf)
	a, err := NLGS(p, Options{Tol: 1e-12})
	require.NoError(t, err)
	b, err := NLGS(back, Options{Tol: 1e-12})
	require.NoError(t, err)
	assert.Equal(t, a.R, b.R)

	bad := diskOnIncline(0.2, 0.9, 0.005, false)
	bad.RollOf = []int{1, 0}
	_, err = NLGS(bad, Options{})
	assert.ErrorContains(t, err, "contact 0: the rolling row of contact 1, itself a rolling row")
}
