package results

import "strconv"

// cells is a history row being written: values appended as fmt's %.*g and
// %d write them, through strconv. Written by fmt, an 18-block pillar's
// rows of 142 values were a sixth of its run.
type cells []byte

// g appends a comma and v to the given significant digits, as
// fmt.Sprintf("%.*g", digits, v) does.
func (c cells) g(v float64, digits int) cells {
	return strconv.AppendFloat(append(c, ','), v, 'g', digits, 64)
}

// d appends a comma and n.
func (c cells) d(n int) cells {
	return strconv.AppendInt(append(c, ','), int64(n), 10)
}

// force appends a resultant force and the count of its closed units.
func (c cells) force(f [2]float64, closed int) cells {
	return c.g(f[0], 9).g(f[1], 9).d(closed)
}
