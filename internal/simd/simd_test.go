package simd

import "testing"

func TestLevelString(t *testing.T) {
	for _, c := range []struct {
		l    Level
		want string
	}{{Go, "go"}, {AVX2, "avx2"}, {AVX512, "avx512"}, {Level(7), "go"}} {
		if got := c.l.String(); got != c.want {
			t.Errorf("Level(%d): %q, want %q", c.l, got, c.want)
		}
	}
}
