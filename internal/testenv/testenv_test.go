package testenv

import "testing"

func TestRequired(t *testing.T) {
	for _, c := range []struct {
		val  string
		want bool
	}{
		{"", false}, {"0", false}, {"false", false}, {"yes", false},
		{"1", true}, {"true", true}, {"TRUE", true},
	} {
		t.Setenv(RequireVar, c.val)
		if got := Required(); got != c.want {
			t.Errorf("%s=%q: Required() = %v, want %v", RequireVar, c.val, got, c.want)
		}
	}
}

// recorder is a testing.TB that records how Missing ended it instead of ending.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, format
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, format
}

func TestMissing(t *testing.T) {
	t.Setenv(RequireVar, "")
	r := &recorder{TB: t}
	Missing(r, "cora", "fetch it")
	if !r.skipped || r.failed {
		t.Errorf("without %s: skipped %v, failed %v", RequireVar, r.skipped, r.failed)
	}
	t.Setenv(RequireVar, "1")
	r = &recorder{TB: t}
	Missing(r, "cora", "fetch it")
	if r.skipped || !r.failed {
		t.Errorf("with %s=1: skipped %v, failed %v", RequireVar, r.skipped, r.failed)
	}
}
