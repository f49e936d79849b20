package kind

// Energy is a body's energy account, per m of thickness. Kinetic and
// Elastic are current values; the others accumulate from the start.
// Balance is constant in time up to round-off.
type Energy struct {
	Kinetic   float64 // v'Mv/2
	Elastic   float64 // q'Kq/2
	External  float64 // work of external forces, f_theta' dq
	Damping   float64 // Rayleigh damping loss, h v_theta' C v_theta
	Numerical float64 // dissipation of theta > 1/2
	Contact   float64 // work of contact impulses, v_theta' r (negative when they dissipate)
}

// Balance is Kinetic + Elastic + Damping + Numerical - External - Contact,
// which the scheme keeps equal to its initial value.
func (e Energy) Balance() float64 {
	return e.Kinetic + e.Elastic + e.Damping + e.Numerical - e.External - e.Contact
}

// Add returns the sum of two accounts.
func (e Energy) Add(o Energy) Energy {
	return Energy{e.Kinetic + o.Kinetic, e.Elastic + o.Elastic, e.External + o.External,
		e.Damping + o.Damping, e.Numerical + o.Numerical, e.Contact + o.Contact}
}
