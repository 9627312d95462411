package render

import (
	"math"

	"github.com/nagc-harness/nagc/experiments"
)

// Measure is a quantity of a grid point that a table or figure shows: a metric's mean
// and std over restarts, or a selection rule's score.
type Measure struct {
	// Name is the key (a metric name, "two-view" or "objective"); Label the axis label.
	Name, Label string
	// Lo and Hi bound the quantity (ARI in [−0.5, 1], modularity in [−0.5, 1], …); NaN
	// when unbounded.
	Lo, Hi float64
	get    func(p *experiments.PointStats) (mean, std float64, ok bool)
}

// metricRange is the range of each metric: error bars and axes are clipped to it.
var metricRange = map[string][2]float64{
	"ari": {-0.5, 1}, "ari_connected": {-0.5, 1}, "nmi": {0, 1}, "acc": {0, 1},
	"modularity": {-0.5, 1}, "attr_modularity": {-0.5, 1}, experiments.MetricHeldOut: {-0.5, 1},
}

// metricLabels are the axis labels of the metrics.
var metricLabels = map[string]string{
	"ari": "ARI", "ari_connected": "ARI (vertices with an edge)", "nmi": "NMI", "acc": "accuracy",
	"modularity": "modularity", "attr_modularity": "attribute modularity", "entropy": "average entropy",
	experiments.MetricHeldOut: "held-out modularity",
}

// MetricMeasure returns the measure of a recorded metric.
func MetricMeasure(name string) Measure {
	m := Measure{Name: name, Label: name, Lo: math.NaN(), Hi: math.NaN()}
	if l, ok := metricLabels[name]; ok {
		m.Label = l
	}
	if r, ok := metricRange[name]; ok {
		m.Lo, m.Hi = r[0], r[1]
	}
	m.get = func(p *experiments.PointStats) (float64, float64, bool) {
		v, ok := p.Mean[name]
		if p.Runs == 0 || !ok {
			return math.NaN(), math.NaN(), false
		}
		return v, p.Std[name], true
	}
	return m
}

// ruleMeasure returns the quantity a selection rule optimises.
func ruleMeasure(rule string) Measure {
	switch rule {
	case experiments.SelectHeldOut:
		return MetricMeasure(experiments.MetricHeldOut)
	case experiments.SelectTwoView:
		return Measure{Name: rule, Label: "modularity + attribute modularity", Lo: -1, Hi: 2,
			get: func(p *experiments.PointStats) (float64, float64, bool) {
				v := twoViewScore(p)
				if p.Runs == 0 || math.IsInf(v, -1) {
					return math.NaN(), math.NaN(), false
				}
				return v, math.NaN(), true
			}}
	case experiments.SelectObjective:
		return Measure{Name: rule, Label: "final objective", Lo: math.NaN(), Hi: math.NaN(),
			get: func(p *experiments.PointStats) (float64, float64, bool) {
				var vs []float64
				for _, rec := range p.Records {
					if rec.FinalObjective != nil {
						vs = append(vs, *rec.FinalObjective)
					}
				}
				if len(vs) == 0 {
					return math.NaN(), math.NaN(), false
				}
				m, s := experiments.MeanStd(vs)
				return m, s, true
			}}
	}
	return MetricMeasure(rule)
}

// twoViewScore is experiments.SelectTwoView's score of a point, −Inf when incomplete.
func twoViewScore(p *experiments.PointStats) float64 {
	q, ok := p.Mean["modularity"]
	qx, okx := p.Mean["attr_modularity"]
	if !ok || !okx {
		return math.Inf(-1)
	}
	return q + qx
}
