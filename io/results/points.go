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

// row writes the point contacts' resultant forces on the masses
// (Simulation.PointForces).
func (l pointLedger) row(w io.Writer, force [][2]float64, closed []int) {
	for k := range force {
		fmt.Fprintf(w, ",%.9g,%.9g,%d", force[k][0], force[k][1], closed[k])
	}
}
