package algorithms
import ("context";"math/rand/v2";"testing";"github.com/nagc-harness/nagc/metrics")
func TestBAGCProbe(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	in := bagcPlanted(rng, 90, 3, 30, 0.12, 0.05, 0.3, 0.2)
	for _, w := range []int{0,-1} { for seed := uint64(0); seed < 4; seed++ {
		res, _ := BAGC{WarmSweeps: w, Tol: 1e-12, MaxSweeps: 60}.Fit(context.Background(), in, 3, seed)
		ari,_ := metrics.ARI(in.Truth, res.Labels)
		t.Logf("w%d s%d n=%d ari=%.3f %v %v", w, seed, len(res.Objective), ari, res.Objective[:6], res.Info["clusters_used"])
	}}
	// harder: weak topology
	in = bagcPlanted(rng, 150, 3, 60, 0.06, 0.03, 0.2, 0.2)
	for seed := uint64(0); seed < 4; seed++ {
		res, _ := BAGC{}.Fit(context.Background(), in, 3, seed)
		ari,_ := metrics.ARI(in.Truth, res.Labels)
		t.Logf("weak s%d n=%d ari=%.3f used %v", seed, len(res.Objective), ari, res.Info["clusters_used"])
	}
}
