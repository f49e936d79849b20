// Package gallery runs the built-in examples and writes the page of their
// pictures: one command (fecontact gallery) regenerates every picture the
// README and docs/gallery.md show, from the examples as they ship. It is
// a package apart because it is the only code that runs every example and
// knows the page's layout; run knows one run, examples only the scenes.
package gallery
