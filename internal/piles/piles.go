package piles

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// Walls are a fixed floor under [0, width] and two fixed walls of the
// given height at x = 0 and x = width, t thick, their faces on those
// lines: the bodies "floor", "left" and "right".
func Walls(width, height, t float64) ([]*rigid.Body, error) {
	var walls []*rigid.Body
	for _, w := range []struct {
		name           string
		sw, sh, cx, cy float64
	}{
		{"floor", width + 2*t, t, width / 2, -t / 2},
		{"left", t, height, -t / 2, height / 2},
		{"right", t, height, width + t/2, height / 2},
	} {
		shape, err := rigid.Rectangle(w.sw, w.sh)
		if err != nil {
			return nil, err
		}
		b, err := rigid.NewBody(w.name, shape, [2]float64{w.cx, w.cy}, 0)
		if err != nil {
			return nil, err
		}
		b.Motion = contact.Fixed{}
		walls = append(walls, b)
	}
	return walls, nil
}

// Hex is rows of equal disks of radius r (m per even row, m-1 per odd
// one) stacked in the triangular packing between walls 0.1 m thick (Walls),
// density 2600, under gravity: at rest, every disk above the first row on
// two below, the forces indeterminate at every grain. round, when not nil,
// is applied to the centres' coordinates (EightDigits: as read from a
// file).
func Hex(m, rows int, r float64, round func(float64) float64) ([]*rigid.Body, error) {
	if round == nil {
		round = func(v float64) float64 { return v }
	}
	w, h := 2*r*float64(m), 2*r*float64(rows)
	bodies, err := Walls(w, h, 0.1)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		n, x0 := m, r
		if i%2 == 1 {
			n, x0 = m-1, 2*r
		}
		for k := range n {
			c := [2]float64{round(x0 + 2*r*float64(k)), round(r + math.Sqrt(3)*r*float64(i))}
			b, err := rigid.NewBody(fmt.Sprintf("d%d_%d", i, k), rigid.Disk{R: r}, c, 2600)
			if err != nil {
				return nil, err
			}
			b.Gravity = [2]float64{0, -9.81}
			bodies = append(bodies, b)
		}
	}
	return bodies, nil
}

// EightDigits rounds v to 8 significant digits, as a pile read from a file
// of %14.7E values is: touching disks then overlap by up to 1e-8 m.
func EightDigits(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 7, 64), 64)
	return f
}

// BoxOnGround is a w x h box of the given density resting under gravity on
// a fixed ground, a 2 x 0.2 m slab whose top is y = 0: the box's bottom on
// it, its centre at (0, h/2).
func BoxOnGround(w, h, density float64) (box, ground *rigid.Body, err error) {
	shape, err := rigid.Rectangle(w, h)
	if err != nil {
		return nil, nil, err
	}
	if box, err = rigid.NewBody("box", shape, [2]float64{0, h / 2}, density); err != nil {
		return nil, nil, err
	}
	box.Gravity = [2]float64{0, -9.81}
	slab, err := rigid.Rectangle(2, 0.2)
	if err != nil {
		return nil, nil, err
	}
	if ground, err = rigid.NewBody("ground", slab, [2]float64{0, -0.1}, 0); err != nil {
		return nil, nil, err
	}
	ground.Motion = contact.Fixed{}
	return box, ground, nil
}
