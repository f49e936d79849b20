package signorini

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fc2dDir holds the problems of Siconos's suite (its README: source and
// licence), in the clone so that every checkout runs these tests.
const fc2dDir = "testdata/fc2d"

// fc2dProblems lists the problems of the suite with the
// tolerance each must reach: 1e-8, and 1e-6 for the two large granular ones.
func fc2dProblems(t testing.TB) map[string]float64 {
	files, err := filepath.Glob(filepath.Join(fc2dDir, "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 11, "the fc2d problems in %s", fc2dDir)
	out := map[string]float64{}
	for _, f := range files {
		tol := 1e-8
		if strings.Contains(f, "granularflowonwall_02020") || strings.Contains(f, "granularflowonwall_07002") {
			tol = 1e-6
		}
		out[f] = tol
	}
	return out
}

// independentResidual recomputes u = W r + q from the triplets of W and
// the natural map of each contact with its own cone projection, without
// the package's Residual, Delassus products or projection.
func independentResidual(p *Problem, r []float64) float64 {
	n := p.W.Contacts()
	u := append([]float64(nil), p.Q...)
	for _, e := range triplets(p.W) {
		u[e.I] += e.V * r[e.J]
	}
	var res2, rr, uu, qq float64
	for a := 0; a < n; a++ {
		rn, rt, un, ut, mu := r[2*a], r[2*a+1], u[2*a], u[2*a+1], p.Mu[a]
		xn, xt := rn-(un+mu*math.Abs(ut)), rt-ut
		var pn, pt float64
		switch {
		case xn >= 0 && math.Abs(xt) <= mu*xn:
			pn, pt = xn, xt
		case mu*math.Abs(xt) <= -xn:
		default:
			pn = (xn + mu*math.Abs(xt)) / (1 + mu*mu)
			pt = mu * pn * math.Copysign(1, xt)
		}
		res2 += (rn-pn)*(rn-pn) + (rt-pt)*(rt-pt)
		rr += rn*rn + rt*rt
		uu += un*un + ut*ut
		qq += p.Q[2*a]*p.Q[2*a] + p.Q[2*a+1]*p.Q[2*a+1]
	}
	scale := math.Sqrt(math.Max(rr, math.Max(uu, qq)))
	if scale <= 2.220446049250313e-16 { // as Siconos and the peer script
		scale = 1
	}
	return math.Sqrt(res2) / scale
}

// TestFC2DSuite solves the 11 problems of Siconos' own tests to the
// residuals they ask for, checked independently.
func TestFC2DSuite(t *testing.T) {
	probs := fc2dProblems(t)
	require.Len(t, probs, 11)
	for file, tol := range probs {
		t.Run(filepath.Base(file), func(t *testing.T) {
			if testing.Short() && strings.Contains(file, "07002") {
				t.Skip("the 7 002-contact problem is left out with -short")
			}
			p, _, err := ReadProblem(file)
			require.NoError(t, err)
			res, err := NLGS(p, Options{Tol: tol, MaxSweeps: 100000})
			require.NoError(t, err)
			got := independentResidual(p, res.R)
			t.Logf("%d contacts: %d sweeps, residual %.2g (independent %.2g)", p.W.Contacts(), res.Sweeps, res.Residual, got)
			assert.LessOrEqual(t, got, tol)
		})
	}
}

// mtxFiles serves MatrixMarket files from memory, for DecodeProblem.
func mtxFiles(files map[string]string) func(string) (io.ReadCloser, error) {
	return func(name string) (io.ReadCloser, error) {
		s, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("open %s: no such file", name)
		}
		return io.NopCloser(strings.NewReader(s)), nil
	}
}

const mtxHead = "%%MatrixMarket matrix coordinate real general\n"

var problemErrors = []struct{ name, body, mtx, want string }{
	{"rows", `{"n": 1, "W": [[1, 0]], "q": [0, 0], "mu": [0.1]}`, "", "W has 1 rows, expected 2n = 2"},
	{"mu", `{"n": 1, "W": [[1, 0], [0, 1]], "q": [0, 0], "mu": [-0.1]}`, "", "mu = -0.1"},
	{"nomat", `{"n": 1, "q": [0, 0], "mu": [0.1]}`, "", `needs "W"`},
	{"index", `{"n": 1, "W_mtx": "a.mtx", "q": [0, 0], "mu": [0.1]}`, mtxHead + "2 2 1\n3 1 1.0\n", `a.mtx:3: entry "3 1 1.0": expected indices in [1, 2]`},
	{"syntax", `{"n": 1,`, "", "unexpected EOF"},
	{"huge n", `{"n": 4611686018427387904, "W_mtx": "a.mtx", "q": [0, 0], "mu": [0.1]}`, mtxHead + "-1 -1 1\n", `"q" has 2 entries for "n" = 4611686018427387904 contacts: expected 2n`},
	{"big n", `{"n": 1000000000, "W_mtx": "a.mtx", "q": [0, 0], "mu": [0.1]}`, mtxHead + "2000000000 2000000000 1\n1 1 1\n", `"q" has 2 entries`},
	{"negative size", `{"n": 1, "W_mtx": "a.mtx", "q": [0, 0], "mu": [0.1]}`, mtxHead + "-2 -2 1\n", "a.mtx:2: matrix is -2x-2, expected 2x2"},
	{"nan", `{"n": 1, "W_mtx": "a.mtx", "q": [0, 0], "mu": [0.1]}`, mtxHead + "2 2 1\n1 1 NaN\n", `a.mtx:3: entry "1 1 NaN": expected a finite value`},
	{"count", `{"n": 1, "W_mtx": "a.mtx", "q": [0, 0], "mu": [0.1]}`, mtxHead + "2 2 3\n1 1 1\n", "a.mtx: 1 entries, the size line declares 3"},
	{"unknown key", `{"n": 1, "W": [[1, 0], [0, 1]], "q": [0, 0], "mu": [0.1], "tolerance": 1e-8}`, "", `unknown field "tolerance"`},
	{"both", `{"n": 1, "W": [[1, 0], [0, 1]], "W_mtx": "a.mtx", "q": [0, 0], "mu": [0.1]}`, "", `either "W" or "W_mtx"`},
	{"W = 0", `{"n": 1, "W": [[0, 0], [0, 0]], "q": [-1, 0], "mu": [0.1]}`, "", "contact 1: its block of W, [[0, 0], [0, 0]], is not positive definite"},
	{"W = -2 I", `{"n": 1, "W": [[-2, 0], [0, -2]], "q": [-1, 0], "mu": [0.1]}`, "", "contact 1: its block of W, [[-2, 0], [0, -2]], is not positive definite"},
	{"W singular", `{"n": 1, "W": [[1, 1], [1, 1]], "q": [-1, 0], "mu": [0.1]}`, "", "is not positive definite"},
	{"mu 1e300", `{"n": 1, "W": [[1, 0], [0, 1]], "q": [0, 0], "mu": [1e300]}`, "", "mu = 1e+300: expected a friction coefficient in [0, 1000]"},
	{"garbage", `{"n": 1, "W": [[1, 0], [0, 1]], "q": [0, 0], "mu": [0.1]} trailing`, "", "more after the problem's JSON object"},
	{"two objects", `{"n": 1, "W": [[1, 0], [0, 1]], "q": [0, 0], "mu": [0.1]}{"n": 1}`, "", "more after the problem's JSON object"},
}

func TestReadProblemErrors(t *testing.T) {
	for _, tc := range problemErrors {
		_, _, err := DecodeProblem([]byte(tc.body), "p.json", mtxFiles(map[string]string{"a.mtx": tc.mtx}))
		assert.ErrorContains(t, err, tc.want, tc.name)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "p.json") || strings.HasPrefix(err.Error(), "a.mtx"), "%s: %v names the file", tc.name, err)
		}
	}
}

// FuzzDecodeProblem: whatever the JSON and MatrixMarket bytes, an error or a
// problem NLGS accepts; never a panic, never an allocation the input does
// not pay for.
func FuzzDecodeProblem(f *testing.F) {
	for _, tc := range problemErrors {
		f.Add(tc.body, tc.mtx)
	}
	files, _ := filepath.Glob(filepath.Join(fc2dDir, "*000*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 20000 {
			f.Add(string(b), "")
		}
	}
	f.Add(`{"n": 1, "W_mtx": "a.mtx", "q": [0, 1], "mu": [0.1]}`, mtxHead+"2 2 2\n1 1 2\n2 2 1\n")
	f.Fuzz(func(t *testing.T, body, mtx string) {
		p, _, err := DecodeProblem([]byte(body), "p.json", mtxFiles(map[string]string{"a.mtx": mtx}))
		if err != nil {
			return
		}
		if p.W.Contacts() < 1 || len(p.Q) != 2*p.W.Contacts() {
			t.Fatalf("accepted %d contacts with %d q", p.W.Contacts(), len(p.Q))
		}
	})
}
