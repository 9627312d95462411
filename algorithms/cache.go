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
	// computed, when set, is raised whenever Do runs a computation through this Cache
	// value (see observed).
	computed *bool
}

// cacheStore is the memory a Cache and its observed views share.
type cacheStore struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
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
	return &Cache{cacheStore: c.cacheStore, computed: computed}
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
	c.mu.Unlock()
	ran := false
	e.once.Do(func() { ran = true; e.val, e.err = compute() })
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
