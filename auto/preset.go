package auto

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/configs"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// presetConfig returns the shipped config of budget b (configs/auto-b.yaml) made a
// preset of the search engine: each candidate row's grid becomes its space, searched by
// sampler grid (every grid point a trial, in one batch) under the label-free rule
// heldout, so that its runs are recorded, resumed, summarised and reported as any
// search's (docs/search.md). A row whose grid lists iterations geometrically (such as
// [10, 30]) is searched with successive halving instead: its rungs are those
// iterations (eta their ratio), every point is fitted at the first and the best 1/eta
// of them continue their fits to the next. The k1-selection rows stay as they are. The
// result is validated as any config (experiments.ParseConfig).
func presetConfig(b string) (*experiments.Config, error) {
	name := "auto-" + b
	raw, ok := configs.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no shipped config %s", name)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(doc.Content) != 1 {
		return nil, fmt.Errorf("%s: not one YAML document", name)
	}
	methods := mapValue(doc.Content[0], "methods")
	if methods == nil || methods.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: no methods", name)
	}
	for _, row := range methods.Content {
		if err := searchRow(row); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return nil, err
	}
	return experiments.ParseConfig(name+".yaml (built in)", out)
}

// searchRow makes the candidate row node (a mapping) a search of its grid: grid is
// renamed space, and a search block is added: sampler grid, rule heldout (every rung
// fitting the whole graph too: each rung's points are candidates), all its points in
// one batch, pruned by halving over the grid's iterations where it lists
// them (then removed from the space and set in options to the last rung's). A
// k1-selection row is left as it is.
func searchRow(row *yaml.Node) error {
	name := mapValue(row, "name")
	if name == nil || strings.HasPrefix(name.Value, KSelectionRow) {
		return nil
	}
	var grid *yaml.Node
	for i := 0; i+1 < len(row.Content); i += 2 {
		if row.Content[i].Value == "grid" {
			row.Content[i].Value = "space"
			grid = row.Content[i+1]
		}
	}
	if grid == nil || grid.Kind != yaml.MappingNode {
		return fmt.Errorf("candidate row %q has no grid", name.Value)
	}
	points := 1
	var rungs []int
	for i := 0; i+1 < len(grid.Content); i += 2 {
		key, values := grid.Content[i].Value, grid.Content[i+1]
		if key != "iterations" {
			points *= len(values.Content)
			continue
		}
		for _, v := range values.Content {
			n, err := strconv.Atoi(v.Value)
			if err != nil {
				return fmt.Errorf("row %q: iterations %q is not a count", name.Value, v.Value)
			}
			rungs = append(rungs, n)
		}
		grid.Content = slices.Delete(grid.Content, i, i+2)
		i -= 2
	}
	spec := fmt.Sprintf("{sampler: %s, rule: %s, batch: %d, prune: %s, whole_graph: %s}", experiments.SamplerGrid, results.SelectHeldOut, points, experiments.PruneNone, experiments.WholeGraphEveryRung)
	if len(rungs) > 0 {
		eta, err := rungRatio(rungs)
		if err != nil {
			return fmt.Errorf("row %q: %v", name.Value, err)
		}
		spec = fmt.Sprintf("{sampler: %s, rule: %s, batch: %d, prune: %s, min_iterations: %d, eta: %d, whole_graph: %s}",
			experiments.SamplerGrid, results.SelectHeldOut, points, experiments.PruneHalving, rungs[0], eta, experiments.WholeGraphEveryRung)
		opts := mapValue(row, "options")
		if opts == nil {
			opts = &yaml.Node{Kind: yaml.MappingNode}
			row.Content = append(row.Content, scalarNode("options"), opts)
		}
		opts.Content = append(opts.Content, scalarNode("iterations"), scalarNode(strconv.Itoa(rungs[len(rungs)-1])))
	}
	var block yaml.Node
	if err := yaml.Unmarshal([]byte(spec), &block); err != nil {
		return err
	}
	row.Content = append(row.Content, scalarNode("search"), block.Content[0])
	return nil
}

// rungRatio returns eta for a list of iterations that are the rungs of halving: a
// geometric sequence a, a·eta, a·eta², … with a whole eta ≥ 2.
func rungRatio(its []int) (int, error) {
	if len(its) < 2 || its[0] < 1 || its[1]%its[0] != 0 || its[1]/its[0] < 2 {
		return 0, fmt.Errorf("iterations %v are not the rungs of halving (a, a·eta, …, eta ≥ 2)", its)
	}
	eta := its[1] / its[0]
	for i := 2; i < len(its); i++ {
		if its[i] != its[i-1]*eta {
			return 0, fmt.Errorf("iterations %v are not the rungs of halving (a, a·eta, …, eta ≥ 2)", its)
		}
	}
	return eta, nil
}

// mapValue returns the value of key in the mapping node m, nil where m has none.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalarNode(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }
