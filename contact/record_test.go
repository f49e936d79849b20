package contact

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecordIntegratesExactly: a record whose acceleration is linear in
// time (a ramp) has the exact quadratic velocity and cubic offset at any
// time, on samples of any spacing; a sampled sine ground acceleration,
// -A w^2 sin(w t), gives the offset A sin(w t) - A w t (at rest at 0)
// over 2 s to 1e-3 of A at 1 ms samples (6.5e-4), converging at the
// second order;
// bad records are refused by sample.
func TestRecordIntegratesExactly(t *testing.T) {
	ts := []float64{0, 0.1, 0.15, 0.4, 1}
	as := make([]float64, len(ts))
	for i, x := range ts {
		as[i] = 2 + 3*x
	}
	r, err := NewRecord(ts, as, [2]float64{0, 2})
	require.NoError(t, err)
	for _, x := range []float64{0.05, 0.1, 0.3, 0.77, 1} {
		v, off := r.Velocity(x), r.Offset(x)
		assert.InDelta(t, 2*x+1.5*x*x, v[1], 1e-14, "velocity at %g", x)
		assert.InDelta(t, x*x+0.5*x*x*x, off[1], 1e-14, "offset at %g", x)
		assert.Zero(t, v[0])
	}
	v1 := 2 + 1.5
	assert.InDelta(t, 1+0.5+v1*0.5, r.Offset(1.5)[1], 1e-14, "on at the last velocity")
	assert.Equal(t, [2]float64{}, r.Offset(-1))

	const A, period = 0.075, 0.4
	w := 2 * math.Pi / period
	var errs []float64
	for _, dt := range []float64{1e-3, 5e-4} {
		var st, sa []float64
		for k := 0; k <= int(math.Round(2/dt)); k++ {
			x := float64(k) * dt
			st, sa = append(st, x), append(sa, -A*w*w*math.Sin(w*x))
		}
		r, err := NewRecord(st, sa, [2]float64{1, 0})
		require.NoError(t, err)
		worst := 0.0
		for x := 0.0; x <= 2; x += 0.0137 {
			worst = max(worst, math.Abs(r.Offset(x)[0]-(A*math.Sin(w*x)-A*w*x)))
		}
		errs = append(errs, worst)
	}
	assert.Less(t, errs[0], 1e-3*A, "within 1e-3 of the amplitude at 1 ms")
	assert.InDelta(t, 4, errs[0]/errs[1], 0.5, "second order: %g then %g", errs[0], errs[1])
	for _, bad := range []struct {
		t, a []float64
		want string
	}{
		{[]float64{0, 0.1, 0.1}, []float64{1, 2, 3}, "record sample 3: time 0.1 s after 0.1 s: expected increasing times"},
		{[]float64{0, 0.1}, []float64{1, math.NaN()}, "record sample 2 (t = 0.1 s): acceleration NaN"},
		{[]float64{-1, 0.1}, []float64{1, 2}, "its first time -1"},
		{[]float64{0}, []float64{1}, "expected two or more samples"},
	} {
		_, err := NewRecord(bad.t, bad.a, [2]float64{1, 0})
		assert.ErrorContains(t, err, bad.want)
	}
}

// TestRecordQuantities: a velocity record's offset is its samples' exact
// integral (quadratic between them), its velocity the samples; a
// displacement record's offset is its samples and its velocity their
// slope; after the last sample both move on at the last velocity; a
// displacement record that does not start at 0 is refused.
func TestRecordQuantities(t *testing.T) {
	ts := []float64{0, 0.1, 0.3, 0.4}
	vs := []float64{0, 2, -1, 0.5}
	r, err := NewRecordOf(Velocity, ts, vs, [2]float64{0, 2})
	require.NoError(t, err)
	x := 0.0
	for i := 1; i < len(ts); i++ {
		x += (ts[i] - ts[i-1]) * (vs[i-1] + vs[i]) / 2
		assert.InDelta(t, x, r.Offset(ts[i])[1], 1e-15, "velocity record: offset at sample %d", i)
		assert.InDelta(t, vs[i], r.Velocity(ts[i])[1], 1e-15, "velocity record: velocity at sample %d", i)
	}
	mid := 0.2 // the offset halfway through [0.1, 0.3]: v goes 2 -> 0.5 linearly
	assert.InDelta(t, 0.1+0.1*(2+0.5)/2, r.Offset(mid)[1], 1e-15)
	assert.InDelta(t, x+0.5*0.1, r.Offset(0.5)[1], 1e-15, "on at the last velocity")
	ds := []float64{0, 0.01, 0.03, 0.02}
	d, err := NewRecordOf(Displacement, ts, ds, [2]float64{1, 0})
	require.NoError(t, err)
	for i := 1; i < len(ts); i++ {
		assert.InDelta(t, ds[i], d.Offset(ts[i])[0], 1e-15, "displacement record: offset at sample %d", i)
		assert.InDelta(t, (ds[i]-ds[i-1])/(ts[i]-ts[i-1]), d.Velocity(ts[i])[0], 1e-12, "its slope before sample %d", i)
	}
	assert.InDelta(t, 0.025, d.Offset(0.35)[0], 1e-15, "linear between samples")
	_, err = NewRecordOf(Displacement, ts, []float64{0.1, 0, 0, 0}, [2]float64{1, 0})
	assert.EqualError(t, err, "a displacement record starting at 0.1 m: expected 0 at its first time (the place it moves from)")
}
