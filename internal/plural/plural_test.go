package plural

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestN(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 bodies"}, {1, "1 body"}, {2, "2 bodies"}, {-1, "-1 bodies"}} {
		assert.Equal(t, tc.want, N(tc.n, "body", "bodies"))
	}
	assert.Equal(t, "1 step", S(1, "step"))
	assert.Equal(t, "3 steps", S(3, "step"))
}
