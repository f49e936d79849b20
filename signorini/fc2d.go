package signorini

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
)

// File is a problem in the exchange format of testdata/fc2d (JSON, W inline
// as rows or as a MatrixMarket file next to it), extended with an optional
// "shift" (the normal shift per contact; absent means the velocity law)
// and an optional "rolling_of" (Problem.RollOf: -1 for a contact, its
// contact's index from 0 for a rolling row; absent means none, as in
// Siconos' files, which have no rolling rows).
type File struct {
	N      int         `json:"n"`
	Name   string      `json:"name,omitempty"`
	W      [][]float64 `json:"W,omitempty"`
	WMtx   string      `json:"W_mtx,omitempty"`
	Q      []float64   `json:"q"`
	Mu     []float64   `json:"mu"`
	Shift  []float64   `json:"shift,omitempty"`
	RollOf []int       `json:"rolling_of,omitempty"`
}

// maxProblemBytes bounds a problem's files as read.
const maxProblemBytes = 1 << 30

// ReadProblem reads a problem file. W becomes a BlockSparse in both forms.
func ReadProblem(path string) (*Problem, string, error) {
	data, err := inputfile.ReadFile(path, maxProblemBytes, "contact problem (fc2d JSON)")
	if err != nil {
		return nil, "", err
	}
	open := func(name string) (io.ReadCloser, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(path), name)
		}
		return inputfile.Open(name, maxProblemBytes, "MatrixMarket matrix (W_mtx)")
	}
	return DecodeProblem(data, path, open)
}

// DecodeProblem reads a problem from the JSON in data; path is used in
// messages and open finds the MatrixMarket file that "W_mtx" names. Every
// size is checked against the data it comes with before anything is
// allocated from it, so that a small file cannot ask for gigabytes.
func DecodeProblem(data []byte, path string, open func(string) (io.ReadCloser, error)) (*Problem, string, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, "", fmt.Errorf("%s: %w (expected the keys n, name, W or W_mtx, q, mu, shift, rolling_of)", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, "", fmt.Errorf("%s: more after the problem's JSON object (at byte %d): expected one object; a damaged or concatenated file?", path, dec.InputOffset())
	}
	switch {
	case f.N < 1:
		return nil, "", fmt.Errorf("%s: \"n\" = %d contacts: expected at least 1", path, f.N)
	case len(f.Q)/2 != f.N || len(f.Q)%2 != 0:
		return nil, "", fmt.Errorf("%s: \"q\" has %d entries for \"n\" = %d contacts: expected 2n", path, len(f.Q), f.N)
	case len(f.Mu) != f.N:
		return nil, "", fmt.Errorf("%s: \"mu\" has %d entries for \"n\" = %d contacts", path, len(f.Mu), f.N)
	}
	entries, err := f.entries(path, open)
	if err != nil {
		return nil, "", err
	}
	W, err := NewBlockSparse(f.N, entries)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	p := &Problem{W: W, Q: f.Q, Mu: f.Mu, Shift: f.Shift, RollOf: f.RollOf}
	if err := p.check(); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if err := checkDiagonal(p, W); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return p, f.Name, nil
}

// checkDiagonal refuses a Delassus operator whose diagonal blocks are not
// positive definite (their symmetric part: Siconos' problems with
// constraints have slightly unsymmetric ones): a contact's own compliance
// is, whatever the bodies, and the single-contact solve divides by it
// (W = 0 or W = -2 I gave a "residual 0" that meant nothing). A rolling
// row's is its compliance, positive, and zeros.
func checkDiagonal(p *Problem, W *BlockSparse) error {
	for a := range W.Contacts() {
		d := W.Diag(a) // nn, nt, tn, tt
		if p.rollOf(a) >= 0 {
			if !(d[0] > 0) || d[1] != 0 || d[2] != 0 || d[3] != 0 {
				return fmt.Errorf("rolling row %d: its block of W, [[%g, %g], [%g, %g]], is not [[w, 0], [0, 0]] with w > 0 (its compliance to a moment)", a+1, d[0], d[1], d[2], d[3])
			}
			continue
		}
		off := (d[1] + d[2]) / 2
		if !(d[0] > 0 && d[3] > 0 && d[0]*d[3]-off*off > 0) {
			return fmt.Errorf("contact %d: its block of W, [[%g, %g], [%g, %g]], is not positive definite (a contact's own compliance is): W was not built from masses and stiffnesses", a+1, d[0], d[1], d[2], d[3])
		}
	}
	return nil
}

// entries gathers W's nonzero entries from the rows or the MatrixMarket file.
func (f *File) entries(path string, open func(string) (io.ReadCloser, error)) ([]Triplet, error) {
	var entries []Triplet
	switch {
	case f.W != nil && f.WMtx != "":
		return nil, fmt.Errorf("%s: give either \"W\" or \"W_mtx\", not both", path)
	case f.W != nil:
		if len(f.W) != 2*f.N {
			return nil, fmt.Errorf("%s: W has %d rows, expected 2n = %d", path, len(f.W), 2*f.N)
		}
		for i, row := range f.W {
			if len(row) != 2*f.N {
				return nil, fmt.Errorf("%s: W row %d has %d entries, expected %d", path, i, len(row), 2*f.N)
			}
			for j, v := range row {
				if v != 0 {
					entries = append(entries, Triplet{i, j, v})
				}
			}
		}
		return entries, nil
	case f.WMtx != "":
		fh, err := open(f.WMtx)
		if err != nil {
			return nil, fmt.Errorf("%s: W_mtx: %w", path, err)
		}
		defer fh.Close()
		name := f.WMtx
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(path), name)
		}
		return readMatrixMarket(fh, name, 2*f.N)
	}
	return nil, fmt.Errorf("%s: needs \"W\" (rows) or \"W_mtx\" (a MatrixMarket file)", path)
}

// readMatrixMarket reads a real coordinate MatrixMarket matrix of size
// n x n (general or symmetric), 1-based; name is used in messages.
func readMatrixMarket(r io.Reader, name string, n int) ([]Triplet, error) {
	sc := bufio.NewScanner(r)
	line := 0
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: "+format, append([]any{name, line}, a...)...)
	}
	symmetric := false
	var entries []Triplet
	declared, read := -1, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			h := strings.Fields(strings.ToLower(text))
			if len(h) < 5 || h[0] != "%%matrixmarket" || h[1] != "matrix" || h[2] != "coordinate" || (h[3] != "real" && h[3] != "integer") {
				return nil, fail("expected %%%%MatrixMarket matrix coordinate real general|symmetric, got %q", text)
			}
			symmetric = h[4] == "symmetric"
			if !symmetric && h[4] != "general" {
				return nil, fail("symmetry %q is not supported: expected general or symmetric", h[4])
			}
			continue
		}
		if text == "" || text[0] == '%' {
			continue
		}
		f := strings.Fields(text)
		if declared < 0 {
			r, e1 := strconv.Atoi(f[0])
			c, e2 := strconv.Atoi(f[min(1, len(f)-1)])
			nnz, e3 := strconv.Atoi(f[len(f)-1])
			if len(f) != 3 || e1 != nil || e2 != nil || e3 != nil || nnz < 0 {
				return nil, fail("expected \"rows cols entries\", got %q", text)
			}
			if r != n || c != n {
				return nil, fail("matrix is %dx%d, expected %dx%d (2n for the JSON's n)", r, c, n, n)
			}
			declared = nnz
			continue
		}
		if len(f) != 3 {
			return nil, fail("expected \"i j value\", got %q", text)
		}
		i, e1 := strconv.Atoi(f[0])
		j, e2 := strconv.Atoi(f[1])
		v, e3 := strconv.ParseFloat(f[2], 64)
		switch {
		case e1 != nil || e2 != nil || i < 1 || j < 1 || i > n || j > n:
			return nil, fail("entry %q: expected indices in [1, %d]", text, n)
		case e3 != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fail("entry %q: expected a finite value", text)
		case read == declared:
			return nil, fail("more entries than the %d the size line declares", declared)
		}
		read++
		entries = append(entries, Triplet{i - 1, j - 1, v})
		if symmetric && i != j {
			entries = append(entries, Triplet{j - 1, i - 1, v})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case declared < 0:
		return nil, fmt.Errorf("%s: no size line", name)
	case read != declared:
		return nil, fmt.Errorf("%s: %d entries, the size line declares %d", name, read, declared)
	}
	return entries, nil
}

// WriteProblem writes a problem in the exchange format: W inline when
// 2n <= 200, else as NAME_W.mtx next to the JSON. Any Delassus is written
// through its blocks, so W never needs to be dense in memory. The shifts
// are written as they are ("shift"; an infinite one, a unit left open,
// as the largest float), so that the problem read back is the step's own:
// its residual for the same impulses is the run's (folded into q, the
// same law, its denominator max(|r|, |u|, |q|) measured other vectors:
// 8.4e-8 against the run's 2.11e-7). A reader of the format without
// shifts, Siconos', solves the same problem with q_N + s for q_N
// (peers/siconos folds them).
func WriteProblem(path, name string, p *Problem) error {
	n := p.W.Contacts()
	f := File{N: n, Name: name, Q: p.Q, Mu: p.Mu, RollOf: p.RollOf}
	if p.Shift != nil {
		f.Shift = make([]float64, n)
		for a, s := range p.Shift {
			f.Shift[a] = min(s, math.MaxFloat64)
		}
	}
	entries := triplets(p.W)
	if 2*n <= 200 {
		f.W = make([][]float64, 2*n)
		for i := range f.W {
			f.W[i] = make([]float64, 2*n)
		}
		for _, e := range entries {
			f.W[e.I][e.J] = e.V
		}
	} else {
		mtx := strings.TrimSuffix(path, filepath.Ext(path)) + "_W.mtx"
		f.WMtx = filepath.Base(mtx)
		if err := atomicfile.Write(mtx, func(w io.Writer) error {
			fmt.Fprintf(w, "%%%%MatrixMarket matrix coordinate real general\n%%Delassus W for %s\n%d %d %d\n", name, 2*n, 2*n, len(entries))
			for _, e := range entries {
				fmt.Fprintf(w, "%d %d %.17g\n", e.I+1, e.J+1, e.V)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(f)
	})
}

// triplets lists the nonzero entries of W. BlockSparse is read directly;
// any other Delassus is probed with unit impulses (n^2 OffDiag calls: for
// small problems).
func triplets(W Delassus) []Triplet {
	n := W.Contacts()
	var out []Triplet
	add := func(a, b int, blk [4]float64) {
		for k, v := range blk {
			if v != 0 {
				out = append(out, Triplet{2*a + k/2, 2*b + k%2, v})
			}
		}
	}
	if bs, ok := W.(*BlockSparse); ok {
		for a := 0; a < n; a++ {
			add(a, a, bs.diag[a])
			for k := bs.Ptr[a]; k < bs.Ptr[a+1]; k++ {
				add(a, bs.Col[k], bs.Blocks[k])
			}
		}
		return out
	}
	r := make([]float64, 2*n)
	for a := 0; a < n; a++ {
		add(a, a, W.Diag(a))
		for b := 0; b < n; b++ {
			if b == a {
				continue
			}
			var blk [4]float64
			for c := 0; c < 2; c++ {
				r[2*b+c] = 1
				blk[c], blk[2+c] = W.OffDiag(a, r)
				r[2*b+c] = 0
			}
			add(a, b, blk)
		}
	}
	return out
}
