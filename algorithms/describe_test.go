package algorithms

import (
	"context"
	"testing"
)

func TestDescribeSetting(t *testing.T) {
	for _, c := range []struct {
		m          SettingDescriber
		st         Setting
		k1, n      int
		value, why string
	}{
		{NAGC{}, Setting{"k2", 7}, 7, 100, "7 (k1)", ""},
		{NAGC{}, Setting{"k2", 5}, 7, 100, "", ""},
		{NAGC{}, Setting{"init_n_init", 1}, 7, SGCLargeN, "", oneStartWhy},
		{NAGC{}, Setting{"init_n_init", 1}, 7, SGCLargeN - 1, "", ""},
		{NAGC{}, Setting{"init_n_init", 10}, 7, SGCLargeN, "", ""},
		{SGCKMeans{}, Setting{"n_init", 1}, 7, SGCLargeN, "", oneStartWhy},
		{SGCKMeans{}, Setting{"n_init", 1}, 7, 10, "", ""},
		{JWNMF{}, Setting{"lambda", 0.0}, 7, 10, "", ""}, // Settings gives a whole number as an int (YAML)
		{JWNMF{}, Setting{"lambda", 0}, 7, 10, "0.1·‖S‖²/‖X‖² of this graph", ""},
		{JWNMF{}, Setting{"lambda", 0.5}, 7, 10, "", ""},
	} {
		v, w := c.m.DescribeSetting(c.st, c.k1, c.n)
		if v != c.value || w != c.why {
			t.Errorf("%T %v k1=%d n=%d: (%q, %q), want (%q, %q)", c.m, c.st, c.k1, c.n, v, w, c.value, c.why)
		}
	}
}

// JWNMF precomputes its default k-means start and no other; the precomputed start is
// what the fit then finds in the cache.
func TestJWNMFPrecomputeStart(t *testing.T) {
	in := nmfFamilyPlanted(3, 60, 20, 2, 0.3, 0.02, 0.4, 0.02)
	in.Cache = NewCache()
	for _, c := range []struct {
		j    JWNMF
		want bool
	}{{JWNMF{}, true}, {JWNMF{Init: InitRandom}, false}} {
		did, err := c.j.PrecomputeStart(context.Background(), in, 2, 1)
		if err != nil || did != c.want {
			t.Errorf("%+v: %v, %v; want %v", c.j, did, err, c.want)
		}
	}
}
