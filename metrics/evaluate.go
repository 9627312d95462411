package metrics

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// Scores holds the evaluation measures of one clustering.
type Scores struct {
	ARI            float64 `json:"ari"`             // adjusted Rand index, see ARI
	NMI            float64 `json:"nmi"`             // normalized mutual information, see NMI
	ACC            float64 `json:"acc"`             // clustering accuracy, see Accuracy
	Modularity     float64 `json:"modularity"`      // see Modularity
	Entropy        float64 `json:"entropy"`         // average attribute entropy, see AverageEntropy
	AttrModularity float64 `json:"attr_modularity"` // see AttributeModularity
	ARIConnected   float64 `json:"ari_connected"`   // ARI without isolated vertices, see ARIConnected

	// unlabelled is set by Evaluate for a graph without ground truth: the label-reading
	// measures (LabelMetrics) are then absent, not zero.
	unlabelled bool
	// noAttributes is set by Evaluate for a graph without attributes (m = 0): the
	// measures of the attributes (AttributeMetrics) are then absent, not zero.
	noAttributes bool
	// signedAttributes is set by Evaluate for dense attributes holding a negative (or
	// NaN) value: AttrModularity, whose weights are cosine similarities, is then absent.
	signedAttributes bool
}

// LabelMetrics names the measures Evaluate computes that read the ground-truth labels
// (Catalogue's ReadsLabels); a graph without labels has none of them.
var LabelMetrics = Names(func(m Metric) bool { return m.Evaluated && m.ReadsLabels })

// AttributeMetrics names the measures of the clusters' attributes Evaluate computes
// (Catalogue's ReadsAttributes); a graph without attributes has none of them.
var AttributeMetrics = Names(func(m Metric) bool { return m.Evaluated && m.ReadsAttributes })

// Labelled reports whether s holds the label-reading measures (LabelMetrics).
func (s Scores) Labelled() bool { return !s.unlabelled }

// Attributed reports whether s holds the measures of the attributes (AttributeMetrics;
// AttrModularity only where HasAttrModularity).
func (s Scores) Attributed() bool { return !s.noAttributes }

// HasAttrModularity reports whether s holds AttrModularity: the graph has attributes,
// and none of them negative (signed dense attributes have none).
func (s Scores) HasAttrModularity() bool { return !s.noAttributes && !s.signedAttributes }

// Attributes is an attribute matrix Evaluate reads: a *sparse.CSR or a *dense.Matrix.
type Attributes interface {
	Dims() (r, c int)
}

// Evaluate computes all seven measures (for truth == nil, a graph without labels, only the
// three that read no labels: see Labelled and Named; for x with no columns, a graph
// without attributes, not the two of the attributes: see Attributed) of the predicted
// labels pred: ARI, NMI and ACC
// against the ground truth truth, ARIConnected against it on the vertices of adj that
// have an edge, Modularity on the adjacency adj, and AverageEntropy and
// AttributeModularity on the attribute matrix x (all computed from pred). adj and x are required: a nil matrix
// is an error, as is any error of the individual measures (length or dimension mismatch,
// negative label, zero-weight graph, empty attribute matrix). Cost O(n + nnz(adj) +
// nnz(x) + m + k1·k2 + min(k1,k2)²·max(k1,k2)), with nnz(x) = n·m for dense x.
//
// x is sparse or dense (AverageEntropyDense, AttributeModularityDense); for dense
// attributes with a negative value AttributeModularity is left out (see
// HasAttrModularity), the entropy of their zero pattern kept.
func Evaluate(truth, pred []int, adj *sparse.CSR, x Attributes) (Scores, error) {
	var s Scores
	if adj == nil {
		return s, errors.New("metrics: Evaluate: nil adjacency")
	}
	var rows rowReader
	switch v := x.(type) {
	case *sparse.CSR:
		if v != nil {
			rows = v
		}
	case *dense.Matrix:
		if v != nil {
			rows = newDenseRows(v)
			_, _, s.signedAttributes = v.FirstNegative()
		}
	}
	if rows == nil {
		return s, errors.New("metrics: Evaluate: nil attribute matrix")
	}
	var err error
	if truth == nil {
		s.unlabelled = true
	} else {
		if s.ARI, err = ARI(truth, pred); err != nil {
			return Scores{}, err
		}
		if s.NMI, err = NMI(truth, pred); err != nil {
			return Scores{}, err
		}
		if s.ACC, err = Accuracy(truth, pred); err != nil {
			return Scores{}, err
		}
		if s.ARIConnected, err = ARIConnected(truth, pred, adj); err != nil {
			return Scores{}, err
		}
	}
	if s.Modularity, err = Modularity(adj, pred); err != nil {
		return Scores{}, err
	}
	if r, m := rows.Dims(); m == 0 {
		if r != len(pred) {
			return Scores{}, fmt.Errorf("metrics: Evaluate: attribute matrix has %d rows for %d labels", r, len(pred))
		}
		s.noAttributes, s.signedAttributes = true, false
		return s, nil
	}
	if s.Entropy, err = averageEntropy(rows, pred); err != nil {
		return Scores{}, err
	}
	if s.signedAttributes {
		return s, nil
	}
	if s.AttrModularity, err = attributeModularity(rows, pred); err != nil {
		return Scores{}, err
	}
	return s, nil
}

// Named returns the measures of s by their JSON names (ari, nmi, acc, modularity,
// entropy, attr_modularity, ari_connected), the names records use: the struct tags are
// the one list of them. Cost O(number of measures).
//
// For scores of a graph without labels the label-reading measures are left out, and for
// a graph without attributes the measures of the attributes.
func (s Scores) Named() map[string]float64 {
	v := reflect.ValueOf(s)
	named := make(map[string]float64, v.NumField())
	for i := range v.NumField() {
		name := v.Type().Field(i).Tag.Get("json")
		if name == "" || (s.unlabelled && slices.Contains(LabelMetrics, name)) ||
			(s.noAttributes && slices.Contains(AttributeMetrics, name)) ||
			(name == "attr_modularity" && !s.HasAttrModularity()) {
			continue
		}
		named[name] = v.Field(i).Float()
	}
	return named
}
