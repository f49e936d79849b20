package kind

import (
	"encoding/gob"
	"fmt"
)

// SaveState writes a family's section, or the zero state of a family
// without a system (so that every stream has every family's section).
func SaveState[S any](enc *gob.Encoder, present bool, state func() S) error {
	var st S
	if present {
		st = state()
	}
	return enc.Encode(st)
}

// LoadState reads a family's section and gives it to set, unless the
// family has no system; what names the family in an error.
func LoadState[S any](dec *gob.Decoder, what string, present bool, set func(S) error) error {
	var st S
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("%s: damaged: %w", what, err)
	}
	if !present {
		return nil
	}
	return set(st)
}

// System is what a family of whole systems (rigid bodies, point masses)
// ends a step with.
type System interface {
	AddImpulse(k int, r []float64)
	AddShift(k int, r []float64)
	Finish()
	CheckState() error
}

// FinishSystem applies the impulses of the last contact solve (when
// loaded) and their shifts, ends the system's step and refuses a state
// out of range.
func FinishSystem(sys System, r, shift [][]float64, loaded bool, step int) error {
	if loaded {
		for k := range r {
			sys.AddImpulse(k, r[k])
			sys.AddShift(k, shift[k])
		}
	}
	sys.Finish()
	if err := sys.CheckState(); err != nil {
		return fmt.Errorf("after step %d: %w", step, err)
	}
	return nil
}
