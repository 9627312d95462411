package auto

import (
	"cmp"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
)

// LabelScore is a candidate scored against the labels, after the choice: the mean and
// population std over its restarts of the ARI of each restart's clustering (isolated
// vertices placed by PlaceIsolated), over all vertices and over those with an edge.
type LabelScore struct {
	Method         string         `json:"method"`
	Params         map[string]any `json:"params"`
	ARI            float64        `json:"ari"`
	ARISD          float64        `json:"ari_sd"`
	ARIConnected   float64        `json:"ari_connected"`
	ARIConnectedSD float64        `json:"ari_connected_sd"`
}

// scoreLabels returns the mean ARI of every restart of cand on g's labels.
func scoreLabels(g *datasets.Graph, cand *Candidate) (LabelScore, error) {
	var all, conn []float64
	for _, rec := range cand.records {
		p, err := results.DecodeLabels(rec.Labels)
		if err != nil {
			return LabelScore{}, err
		}
		if p, _, err = PlaceIsolated(g, p); err != nil {
			return LabelScore{}, err
		}
		a, err := metrics.ARI(g.Labels, p)
		if err != nil {
			return LabelScore{}, err
		}
		c, err := metrics.ARIConnected(g.Labels, p, g.Adj)
		if err != nil {
			return LabelScore{}, err
		}
		all, conn = append(all, a), append(conn, c)
	}
	s := LabelScore{Method: cand.Method, Params: cand.Params}
	s.ARI, s.ARISD = results.MeanStd(all)
	s.ARIConnected, s.ARIConnectedSD = results.MeanStd(conn)
	return s, nil
}

// labelScores scores the chosen candidate and finds the candidate with the best mean ARI
// (the label-selected point, which reads the labels), both after the choice.
func (r *Result) labelScores(g *datasets.Graph) error {
	var best *LabelScore
	for i := range r.Candidates {
		s, err := scoreLabels(g, &r.Candidates[i])
		if err != nil {
			return err
		}
		if i == 0 {
			r.ChosenLabels = &s
		}
		if best == nil || cmp.Compare(s.ARI, best.ARI) > 0 {
			best = &s
		}
	}
	r.LabelSelected = best
	return nil
}
