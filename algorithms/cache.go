package algorithms

import (
	"strings"
	"sync"
)

// Cache memoises label-free, deterministic preprocessing of one graph (such as the
// k-means initial factors for a given k1, k2 and seed), so that a sweep over λ and ρ
// computes each initialisation once instead of once per grid point. A method asks for a
// value by a key that fully determines it; concurrent requests for the same key wait for
// one computation. Values must not be modified by callers. A nil *Cache computes every
// time. Safe for concurrent use.
type Cache struct {
	*cacheStore
	// attrs, when set, stores the values that read only the attributes (attributes),
	// shared with the cache it was made from (SharingAttributes).
	attrs *cacheStore
	// computed, when set, is raised whenever Do runs a computation through this Cache
	// value (see observed).
	computed *bool
}

// cacheStore is the memory a Cache and its observed views share.
type cacheStore struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	// onCompute, when set, is called with the key of every computation Do runs here.
	onCompute func(key string)
}

type cacheEntry struct {
	once sync.Once
	val  any
	err  error
}

// NewCache returns an empty cache. Use one cache per graph.
func NewCache() *Cache { return &Cache{cacheStore: &cacheStore{entries: map[string]*cacheEntry{}}} }

// observed returns a view of c that shares its entries and sets *computed to true whenever
// a Do through the view runs its computation (rather than finding the value stored or
// waiting for another caller's computation). A fit uses it to tell whether its
// initialisation came from the cache. A nil c gives nil: nothing is cached.
func (c *Cache) observed(computed *bool) *Cache {
	if c == nil {
		return nil
	}
	return &Cache{cacheStore: c.cacheStore, attrs: c.attrs, computed: computed}
}

// SharingAttributes returns an empty cache for an input with c's attributes on another
// graph (a held-out copy of c's graph): the values that read only the attributes (NAGC's
// k-means start on attributes not graph-filtered, an attribute transform) are c's, each
// computed once for both inputs; every other value (a graph filter, a spectral
// embedding, SGC labels) is its own. A nil c gives a new cache.
func (c *Cache) SharingAttributes() *Cache {
	own := NewCache()
	if c != nil {
		own.attrs = c.cacheStore
		if c.attrs != nil {
			own.attrs = c.attrs
		}
		c.mu.Lock()
		own.onCompute = c.onCompute
		c.mu.Unlock()
	}
	return own
}

// attributes returns the view of c that stores the values reading only the attributes:
// c itself, or for a cache made by SharingAttributes the store it shares (through which
// a Do still raises c's observation).
func (c *Cache) attributes() *Cache {
	if c == nil || c.attrs == nil {
		return c
	}
	return &Cache{cacheStore: c.attrs, computed: c.computed}
}

// Do returns the value stored under key, computing it with compute on first use.
// An error is cached like a value, except a context's cancellation or deadline: that is
// forgotten once returned (to the callers waiting on that computation), so that the next
// Do computes afresh.
func (c *Cache) Do(key string, compute func() (any, error)) (any, error) {
	if c == nil {
		return compute()
	}
	c.mu.Lock()
	e, ok := c.entries[key]
	if !ok {
		e = &cacheEntry{}
		c.entries[key] = e
	}
	onCompute := c.onCompute
	c.mu.Unlock()
	ran := false
	e.once.Do(func() {
		ran = true
		if onCompute != nil {
			onCompute(key)
		}
		e.val, e.err = compute()
	})
	if ran && c.computed != nil {
		*c.computed = true
	}
	if ran && isCancel(e.err) {
		// A cancelled computation is not a result: the next fit computes it afresh.
		c.mu.Lock()
		if c.entries[key] == e {
			delete(c.entries, key)
		}
		c.mu.Unlock()
	}
	return e.val, e.err
}

// Observe has f called with the key of every computation that Do runs in c's store from
// now on, whichever view or cache sharing it (observed, SharingAttributes) asks, and in
// the own stores of the caches SharingAttributes makes of c afterwards: how a test counts
// what a sweep computes. f must be safe for concurrent use.
func (c *Cache) Observe(f func(key string)) {
	c.mu.Lock()
	c.onCompute = f
	c.mu.Unlock()
}

// Len returns the number of keys stored.
func (c *Cache) Len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Forget drops every entry whose key starts with prefix ("" drops all), so that their
// values can be freed once no fit will ask for them again. A later Do computes them
// anew. Cost O(entries).
func (c *Cache) Forget(prefix string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		if strings.HasPrefix(k, prefix) {
			delete(c.entries, k)
		}
	}
}
