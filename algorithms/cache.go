package algorithms

import (
	"sync"
)

// Cache memoises label-free, deterministic preprocessing of one graph (such as the
// k-means initial factors for a given k1, k2 and seed), so that a sweep over λ and ρ
// computes each initialisation once instead of once per grid point. A method asks for a
// value by a key that fully determines it; concurrent requests for the same key wait for
// one computation. Values must not be modified by callers. A nil *Cache computes every
// time. Safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	val  any
	err  error
}

// NewCache returns an empty cache. Use one cache per graph.
func NewCache() *Cache { return &Cache{entries: map[string]*cacheEntry{}} }

// Do returns the value stored under key, computing it with compute on first use.
// An error is cached like a value.
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
	e.once.Do(func() { e.val, e.err = compute() })
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
