// Package analytic holds the closed-form solutions that fecontact's tests
// compare with, each with its source, in one place.
package analytic
