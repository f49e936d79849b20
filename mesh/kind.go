package mesh

import (
	"fmt"
	"strings"
)

// Kind is the kind of a 2D cell.
type Kind int

// The supported cell kinds. Their node order is described in the package
// documentation.
const (
	T3 Kind = iota // 3-node linear triangle
	Q4             // 4-node bilinear quadrangle
	T6             // 6-node quadratic triangle
	Q8             // 8-node serendipity quadrangle
)

// Kinds lists every supported kind, in a fixed order.
var Kinds = []Kind{T3, Q4, T6, Q8}

var kindInfo = [...]struct {
	name    string
	nodes   int
	corners int
	order   int
}{
	T3: {"T3", 3, 3, 1},
	Q4: {"Q4", 4, 4, 1},
	T6: {"T6", 6, 3, 2},
	Q8: {"Q8", 8, 4, 2},
}

// Valid reports whether k is one of T3, Q4, T6, Q8.
func (k Kind) Valid() bool { return k >= 0 && int(k) < len(kindInfo) }

// String returns the kind's name, e.g. "Q8".
func (k Kind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindInfo[k].name
}

// NumNodes is the number of nodes of a cell of this kind.
func (k Kind) NumNodes() int { return kindInfo[k].nodes }

// NumCorners is the number of corner nodes (and of sides).
func (k Kind) NumCorners() int { return kindInfo[k].corners }

// Order is the polynomial order of the kind's edges: 1 or 2.
func (k Kind) Order() int { return kindInfo[k].order }

// IsTriangle reports whether the kind is a triangle.
func (k Kind) IsTriangle() bool { return k.NumCorners() == 3 }

// SideNodes returns the nodes (local numbers) of side s of a cell of this
// kind: the two ends, counter-clockwise, then the mid-side node if any.
func (k Kind) SideNodes(s int) []int {
	nc := k.NumCorners()
	if k.Order() == 1 {
		return []int{s, (s + 1) % nc}
	}
	return []int{s, (s + 1) % nc, nc + s}
}

// ParseKind reads a kind's name (case-insensitive: "q8", "T3").
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if strings.EqualFold(k.String(), s) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown cell kind %q: expected one of T3, Q4, T6, Q8", s)
}
