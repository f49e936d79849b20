package kind

// Holder is a family whose bodies an embedding program holds by handle,
// the pointer it made each with (a rigid body): an obstacle a body
// carries names its body by that handle (contact.Obstacle.Owner), and the
// simulation asks the families which of their bodies it is when it
// numbers them, so that no caller counts bodies.
type Holder interface {
	// Index is the place in the family of the body whose handle is h; ok
	// is false when h is none of its bodies.
	Index(h any) (k int, ok bool)
}
