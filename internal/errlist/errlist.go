// Package errlist joins lists of input errors for messages a person reads:
// a mesh with ten thousand inverted cells should say so without printing
// ten thousand lines.
package errlist

import (
	"errors"
	"fmt"
)

// Join joins errs like errors.Join but keeps at most max of them, followed
// by a line counting the rest. It returns nil for an empty list.
func Join(errs []error, max int) error {
	if len(errs) > max {
		rest := len(errs) - max
		errs = append(errs[:max:max], fmt.Errorf("... and %d more problems", rest))
	}
	return errors.Join(errs...)
}
