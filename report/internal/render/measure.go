package render

import (
	"math"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/metrics"
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

// MetricMeasure returns the measure of a recorded metric: its label and range are the
// metrics catalogue's (metrics.Lookup), its name and no bounds for a name it lacks.
func metricMeasure(name string) Measure {
	m := Measure{Name: name, Label: name, Lo: math.NaN(), Hi: math.NaN()}
	if c, ok := metrics.Lookup(name); ok {
		m.Label, m.Lo, m.Hi = c.Label, c.Lo, c.Hi
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
		return metricMeasure(experiments.MetricHeldOut)
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
	return metricMeasure(rule)
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
