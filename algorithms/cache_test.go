package algorithms

import "testing"

// TestCacheForget checks that Forget drops the entries under a prefix, and only those,
// and that a forgotten key is computed again on its next use.
func TestCacheForget(t *testing.T) {
	c := NewCache()
	calls := 0
	get := func(key string) any {
		v, _ := c.Do(key, func() (any, error) { calls++; return key, nil })
		return v
	}
	for _, k := range []string{"cora/0.2/1", "cora/0.2/2", "cora2/0.2/1", "webkb/0.2/1"} {
		get(k)
	}
	c.Forget("cora/")
	if c.Len() != 2 {
		t.Errorf("%d entries after forgetting cora/, want 2 (cora2's and webkb's)", c.Len())
	}
	calls = 0
	if get("cora/0.2/1") != "cora/0.2/1" || get("webkb/0.2/1") != "webkb/0.2/1" || calls != 1 {
		t.Errorf("%d computations, want 1 (the forgotten key only)", calls)
	}
	c.Forget("")
	if c.Len() != 0 {
		t.Errorf("%d entries after forgetting all", c.Len())
	}
	var none *Cache
	none.Forget("") // a nil cache holds nothing
}
