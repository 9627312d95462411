package render

import (
	"fmt"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/paperplot"
	"github.com/nagc-harness/nagc/metrics"
)

// layoutSeed seeds the start positions of the layout figure's force-directed layout.
const layoutSeed = 1

// layoutIterations is the number of Fruchterman–Reingold iterations of the layout figure.
const layoutIterations = 300

// layoutPanel is one clustering drawn on the layout: per vertex, the class its cluster is
// matched to (by metrics.Match) and whether that differs from the vertex's true class.
type layoutPanel struct {
	Method string
	// Title is the panel's heading; Note says why a panel is empty ("" if it is not).
	Title, Note string
	// Class is the matched class of each vertex's cluster (−1: unmatched); Wrong marks
	// misassigned vertices. Both are nil for an empty panel.
	Class []int
	Wrong []bool
	// Misassigned counts the true entries of Wrong.
	Misassigned int
}

// clusterPanel builds the panel of a clustering: the clusters of pred are matched to the
// classes of truth by the Hungarian method, and vertices whose cluster's class is not
// their own are marked wrong.
func clusterPanel(method string, truth, pred []int) (layoutPanel, error) {
	if len(truth) != len(pred) {
		return layoutPanel{}, fmt.Errorf("%s: %d labels for %d vertices", method, len(pred), len(truth))
	}
	match, err := metrics.Match(truth, pred)
	if err != nil {
		return layoutPanel{}, err
	}
	p := layoutPanel{Method: method, Class: make([]int, len(pred)), Wrong: make([]bool, len(pred))}
	for i, c := range pred {
		cl, ok := match[c]
		if !ok {
			cl = -1
		}
		p.Class[i] = cl
		if cl != truth[i] {
			p.Wrong[i] = true
			p.Misassigned++
		}
	}
	return p, nil
}

// layoutPanels builds the panels of the layout figure from the selected (paper's rule)
// grid point's restart-0 record of each method in LayoutMethods.
func (r results) layoutPanels(dataset string, g *datasets.Graph) []layoutPanel {
	var out []layoutPanel
	for _, m := range r.Spec.Layout.Rows {
		empty := layoutPanel{Method: m, Title: m}
		if why := r.Missing(dataset, m); why != "" {
			empty.Note = why
			out = append(out, empty)
			continue
		}
		sel := r.Selected(PaperRule, dataset, m)
		rec := restartZero(sel)
		pred, err := experiments.DecodeLabels(rec.Labels)
		switch {
		case rec.Labels == "":
			empty.Note = "no labels recorded"
		case err != nil:
			empty.Note = err.Error()
		case len(pred) != g.N():
			empty.Note = fmt.Sprintf("%d labels recorded for %d vertices", len(pred), g.N())
		}
		if empty.Note != "" {
			out = append(out, empty)
			continue
		}
		p, err := clusterPanel(m, g.Labels, pred)
		if err != nil {
			empty.Note = err.Error()
			out = append(out, empty)
			continue
		}
		ari := fmt3(rec.Metrics["ari"])
		p.Title = fmt.Sprintf("%s (restart %d): %d of %d misassigned, ARI %s", m, rec.Restart, p.Misassigned, g.N(), ari)
		if ps := ParamString(sel.Params); ps != "" {
			p.Note = fmt.Sprintf("restart %d of %s", rec.Restart, ps)
		} else {
			p.Note = fmt.Sprintf("restart %d", rec.Restart)
		}
		out = append(out, p)
	}
	return out
}

// layoutFigure draws the paper's Fig. 1: a force-directed layout of the graph g of a
// dataset, vertices coloured (and shaped) by the class their cluster is matched to,
// misassigned vertices as crosses, one panel per method of LayoutMethods (the selected
// grid point's restart-0 labels). It writes dir/layout_<dataset>.<format>.
func layoutFigure(r results, dataset string, g *datasets.Graph, o FigureOptions) (*Figure, error) {
	panels := r.layoutPanels(dataset, g)
	edges := edgesOf(g.Adj)
	pos := forceLayout(g.N(), edges, layoutIterations, layoutSeed)
	fig := &Figure{
		Name: "layout_" + r.slug(dataset), Kind: "layout", Dataset: dataset,
		Title: fmt.Sprintf("%s clusterings drawn on a force-directed layout", DatasetTitle(dataset)),
		Caption: fmt.Sprintf("%s (%d vertices, %d edges without self-loops), Fruchterman–Reingold layout (%d iterations, seed %d) of the "+
			"graph only. Colour and marker: the class each vertex's cluster is matched to (Hungarian matching of "+
			"clusters to classes); crosses: misassigned vertices. Labels of the grid point selected by %s, restart 0.",
			DatasetTitle(dataset), g.N(), len(edges), layoutIterations, layoutSeed, ruleText(PaperRule)),
	}
	for _, p := range panels {
		switch {
		case p.Class == nil:
			fig.Facts = append(fig.Facts, fmt.Sprintf("%s: not drawn (%s).", p.Method, p.Note))
		default:
			fig.Facts = append(fig.Facts, fmt.Sprintf("%s (%s): %d of %d vertices misassigned.", p.Method, p.Note, p.Misassigned, g.N()))
		}
	}
	gp := make([]paperplot.GraphPanel, len(panels))
	for i, pn := range panels {
		gp[i] = paperplot.GraphPanel{Title: pn.Title, Class: pn.Class, Wrong: pn.Wrong}
		if pn.Class == nil {
			gp[i].Title = pn.Method + ": " + pn.Note
		}
	}
	xy := make([][2]float64, len(pos))
	for i, q := range pos {
		xy[i] = [2]float64{q.X, q.Y}
	}
	names := make([]string, g.K())
	for i := range names {
		names[i] = fmt.Sprintf("class %d", i)
		if i < len(g.ClassNames) {
			names[i] = g.ClassNames[i]
		}
	}
	gf, err := o.Style.NewGraphFigure(xy, edges, names, gp...)
	if err != nil {
		return nil, err
	}
	return fig, o.Save(fig, gf)
}
