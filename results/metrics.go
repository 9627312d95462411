package results

import "github.com/nagc-harness/nagc/metrics"

// AllMetrics lists the metrics a run can record from its clustering, in table order.
// They are the metrics catalogue's measures that metrics.Evaluate computes.
var AllMetrics = metrics.Names(func(m metrics.Metric) bool { return m.Evaluated })

// MetricHeldOut names the metric of a config with Holdout > 0: the modularity, on the
// held-out edges alone, of the clustering fitted to the graph without them.
const MetricHeldOut = "heldout_modularity"

// Metrics of a run whose method flags vertices (algorithms.Result.Flags, PAICAN's
// anomalies): the ARI over the vertices no mask flags (PAICAN's own protocol; "ari" stays
// the ARI over all vertices, the NAGC paper's) and the share of the vertices kept. They
// are recorded beside the config's metrics whenever the method returns flags ("ari"
// among them for MetricARIUnflagged); no config asks for them.
const (
	MetricARIUnflagged   = "ari_unflagged"
	MetricUnflaggedShare = "unflagged_share"
)

// ComparePaper is the value of a config's compare key (Provenance.Compare) asking for
// the NAGC paper's comparison.
const ComparePaper = "paper"
