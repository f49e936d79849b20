// Package plural writes counts for people: "1 body", "2 bodies".
package plural

import "fmt"

// N is n followed by one when n is 1 and by many otherwise.
func N(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// S is N with the plural made by adding "s".
func S(n int, one string) string { return N(n, one, one+"s") }
