package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/sparse"
)

// heldOutPrefix is the start of the cache keys of the held-out splits of dataset for run
// seed runSeed (one split per fraction held out).
func heldOutPrefix(dataset string, runSeed uint64) string {
	return fmt.Sprintf("%s\x00%d\x00", dataset, heldOutSeed(runSeed))
}

// newDatasetCache returns the cache of a dataset's input in a sweep or a search, which its
// held-out copies share what reads only the attributes with (heldOutOf); a variable so
// that tests can observe what it computes (algorithms.Cache.Observe).
var newDatasetCache = algorithms.NewCache

// heldOutInput is a dataset with part of its edges held out: the input the method is
// fitted on and the held-out edges it is scored on.
type heldOutInput struct {
	in   algorithms.Input
	test *sparse.CSR
}

// heldOutSeed returns the seed of the held-out split used with run seed seed: all grid
// points of one restart share the split.
func heldOutSeed(seed uint64) uint64 {
	h := sha256.New()
	fmt.Fprintf(h, "nagc-holdout\x00%d", seed)
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// heldOutSplit draws the split of g's edges that the held-out fit of a run with seed
// runSeed uses, and the key that identifies it among a sweep's splits.
func heldOutSplit(g *datasets.Graph, dataset string, holdout float64, runSeed uint64) (key string, split func() (train, test *sparse.CSR, err error)) {
	seed := heldOutSeed(runSeed)
	return fmt.Sprintf("%s%v", heldOutPrefix(dataset, runSeed), holdout), func() (*sparse.CSR, *sparse.CSR, error) {
		return datasets.HoldOutEdges(g.Adj, holdout, seed)
	}
}
