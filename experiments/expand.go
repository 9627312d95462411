package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/nagc-harness/nagc/algorithms"
)

// Run is one fit of one algorithm with fully resolved options on one dataset.
type Run struct {
	// ID is derived from the dataset, algorithm, resolved options, k1 and restart only,
	// so the same run declared by two rows (say "Prop." at ρ = 0.5 and
	// "Prop. (w/o PU)") is one run; and, for a run of a timing config, from TimedAlone,
	// so that timing a fit again never finds the sweep's record of it done (nor replaces
	// it).
	ID        string
	Dataset   string
	Methods   []string // display names of the rows that include this run, config order
	Algorithm string
	Params    map[string]any
	K1        int
	Restart   int
	// Seed is derived from the config's base seed, the dataset and the restart, never from
	// the scheduling order. All grid points of one restart share it, so they start from
	// the same initialisation (common random numbers), which also lets label-free
	// initialisations be computed once per restart. A run timed alone has the seed of the
	// same fit in a sweep, so it fits the same clustering.
	Seed uint64
	// TimedAlone marks a run of a config with timing: true (Config.Timing).
	TimedAlone bool
	// Program is the program of a run of a row with algorithm: command, nil for a
	// registered method. Its argv enters the run's ID.
	Program *RowProgram
	// Plan is the run's position in the config's plan, 1 for the first: its index in
	// Expand's order, counted over every shard's runs, plus one. Records carry it
	// (results.Record.Plan) so that reports list rows in the config's order (results.SortByPlan).
	Plan int
}

// GridPoint returns the run's parameters as a canonical string (sorted keys), which
// identifies its grid point across restarts.
func (r Run) GridPoint() string { return canonicalParams(r.Params) }

func canonicalParams(p map[string]any) string {
	b, _ := json.Marshal(p) // encoding/json sorts map keys
	return string(b)
}

// RunSeed returns the seed of restart r of dataset d under base seed base.
func RunSeed(base uint64, dataset string, restart int) uint64 {
	h := sha256.New()
	fmt.Fprintf(h, "nagc-seed\x00%d\x00%s\x00%d", base, dataset, restart)
	return binary.LittleEndian.Uint64(h.Sum(nil)) >> 1 // keep it positive as an int64
}

// runID returns the id of a run. timed (a run of a timing config) and argv (a command
// row's program) add fields to what is hashed; without them the hashed text, and so every
// id of a sweep, is what it always was.
func runID(dataset, algorithm string, params map[string]any, k1, restart int, timed bool, argv []string) string {
	b, _ := json.Marshal(struct {
		Dataset    string         `json:"dataset"`
		Algorithm  string         `json:"algorithm"`
		Params     map[string]any `json:"params"`
		K1         int            `json:"k1"`
		Restart    int            `json:"restart"`
		TimedAlone bool           `json:"timed_alone,omitempty"`
		Command    []string       `json:"command,omitempty"`
	}{dataset, algorithm, params, k1, restart, timed, argv})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Expand lists the runs of the config, in config order (dataset, then method row, then
// grid point with options in sorted order, then restart), each run once. k1 gives the
// number of classes of each dataset, for "k1" grid values and the number of clusters.
func (c *Config) Expand(k1 map[string]int) ([]Run, error) {
	return c.expand(k1, nil)
}

// expandLoaded is Expand for the config's datasets as loadDataset read them: each
// dataset's number of clusters is its K1, and its run ids and seeds derive from its
// Identity rather than its display name (which records keep as Dataset).
func (c *Config) expandLoaded(ds []*LoadedDataset) ([]Run, error) {
	k1, identity := map[string]int{}, map[string]string{}
	for _, d := range ds {
		k1[d.Name], identity[d.Name] = d.K1, d.Identity
	}
	return c.expand(k1, identity)
}

// expand lists the runs; identity maps a dataset to the name its run ids and seeds
// derive from (the dataset's own name where it has none).
func (c *Config) expand(k1 map[string]int, identity map[string]string) ([]Run, error) {
	var runs []Run
	index := map[string]int{}
	for _, d := range c.DatasetNames() {
		k, ok := k1[d]
		if !ok {
			return nil, fmt.Errorf("no k1 for dataset %q", d)
		}
		id := d
		if v, ok := identity[d]; ok {
			id = v
		}
		for _, m := range c.Methods {
			if (len(m.Datasets) > 0 && !hasPos(m.Datasets, d)) || len(m.Space) > 0 { // a search plans its runs as it goes
				continue
			}
			points, err := c.gridPoints(m, k)
			if err != nil {
				return nil, err
			}
			for _, p := range points {
				for r := 0; r < c.Restarts; r++ {
					var argv []string
					if m.program != nil {
						argv = m.program.Argv
					}
					rid := runID(id, m.Algorithm.Value, p, k, r, c.Timing, argv)
					if i, dup := index[rid]; dup {
						if !containsStr(runs[i].Methods, m.Name.Value) {
							runs[i].Methods = append(runs[i].Methods, m.Name.Value)
						}
						continue
					}
					index[rid] = len(runs)
					runs = append(runs, Run{
						ID: rid, Dataset: d, Methods: []string{m.Name.Value},
						Algorithm: m.Algorithm.Value, Params: p, K1: k, Restart: r,
						Seed: RunSeed(c.Seed, id, r), TimedAlone: c.Timing, Program: m.program, Plan: len(runs) + 1,
					})
				}
			}
		}
	}
	return runs, nil
}

func hasPos(list []posString, s string) bool {
	for _, x := range list {
		if x.Value == s {
			return true
		}
	}
	return false
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// gridPoints returns every combination of the row's grid values, merged with its fixed
// options and the config's iterations, with "k1" replaced by k.
func (c *Config) gridPoints(m MethodSpec, k int) ([]map[string]any, error) {
	base := map[string]any{}
	for key, n := range m.Options {
		v, err := scalar(&n)
		if err != nil {
			return nil, err
		}
		base[key] = resolveK1(v, k)
	}
	if m.ReadsLabels {
		base[paramReadsLabels] = true
	}
	if c.Iterations > 0 {
		if keys, _ := algorithms.Params(m.Algorithm.Value); containsStr(keys, "iterations") {
			if _, set := base["iterations"]; !set {
				if _, inGrid := m.Grid["iterations"]; !inGrid {
					base["iterations"] = c.Iterations
				}
			}
		}
	}
	points := []map[string]any{base}
	for _, key := range sortedKeys(m.Grid) {
		n := m.Grid[key]
		var next []map[string]any
		seen := map[string]bool{}
		for _, p := range points {
			for _, vn := range n.Content {
				v, err := scalar(vn)
				if err != nil {
					return nil, err
				}
				q := make(map[string]any, len(p)+1)
				for kk, vv := range p {
					q[kk] = vv
				}
				q[key] = resolveK1(v, k)
				// k2: [k1, 5, …] repeats a value where k1 is in the list too.
				if cp := canonicalParams(q); !seen[cp] {
					seen[cp] = true
					next = append(next, q)
				}
			}
		}
		points = next
	}
	return points, nil
}

func resolveK1(v any, k int) any {
	if s, ok := v.(string); ok && s == "k1" {
		return k
	}
	return v
}

// Shard returns the runs that shard i of n (0-based) executes: those whose ID hashes to
// i mod n. The split depends on the run IDs only, never on the order or the worker count.
func shardRuns(runs []Run, i, n int) []Run {
	if n <= 1 {
		return runs
	}
	var out []Run
	for _, r := range runs {
		h := fnv.New64a()
		h.Write([]byte(r.ID))
		if int(h.Sum64()%uint64(n)) == i {
			out = append(out, r)
		}
	}
	return out
}
