package results

import (
	"fmt"
	"io"

	"github.com/fecontact/fecontact/discrete"
)

// pointLedger gives each point contact's resultant force on its masses
// in history.csv.
type pointLedger struct {
	sys *discrete.System
}

func (l pointLedger) header(w io.Writer) {
	if l.sys != nil {
		for k := 1; k <= len(l.sys.Contacts()); k++ {
			c := fmt.Sprintf("point%d", k)
			writeColumns(w, c+"_fx", "N/m", c+"_fy", "N/m", c+"_closed", "")
		}
	}
}

// row appends the point contacts' resultant forces on the masses
// (Simulation.PointForces).
func (l pointLedger) row(c cells, force [][2]float64, closed []int) cells {
	for k := range force {
		c = c.force(force[k], closed[k])
	}
	return c
}
