package auto

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
)

// synthetic returns a small planted graph with k clusters.
func synthetic(t *testing.T, k int, seed uint64) *datasets.Graph {
	t.Helper()
	cfg := datasets.DefaultSynthetic()
	cfg.N, cfg.K1, cfg.K2, cfg.Seed = 240, k, k, seed
	cfg.M = 40 * k
	g, err := datasets.Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestChooseKRecoversPlanted: without k1, auto finds the planted number of clusters of
// synthetic graphs with several planted k.
func TestChooseKRecoversPlanted(t *testing.T) {
	for _, k := range []int{2, 3, 5, 8} {
		g := synthetic(t, k, uint64(10+k))
		res, err := Run(context.Background(), Options{Graph: g, Budget: "quick", OutDir: t.TempDir(), Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		var curve []string
		for _, p := range res.KCurve {
			curve = append(curve, strings.TrimSpace(strings.Join([]string{itoa(p.K), ftoa(p.Score)}, ":")))
		}
		t.Logf("planted %d: chose %d; curve %s; ARI %.3f", k, res.K1, strings.Join(curve, " "), *res.ARI)
		if res.K1 != k {
			t.Errorf("planted k = %d: chose k1 = %d", k, res.K1)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
func ftoa(f float64) string {
	b, _ := json.Marshal(float64(int(f*1e4)) / 1e4)
	return string(b)
}

var _ = bytes.Equal
var _ = os.ReadFile
var _ = filepath.Join
var _ = reflect.DeepEqual
var _ = slices.Equal[[]int]
var _ = rand.New
