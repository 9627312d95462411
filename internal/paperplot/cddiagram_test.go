package paperplot

import (
	"fmt"
	"testing"
)

// TestCDCliques checks the groups of Demšar's (2006) figure 1: at α = 0.10 (CD = 1.12)
// C4.5+m+cf, C4.5+m and C4.5+cf form one group and C4.5+cf and C4.5 another; at α =
// 0.05 (CD = 1.25) all four are one group.
func TestCDCliques(t *testing.T) {
	names := []string{"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}
	ranks := []float64{3.143, 2.000, 2.893, 1.964}
	for _, c := range []struct {
		cd   float64
		want string
	}{{1.12, "[[3 1 2] [2 0]]"}, {1.25, "[[3 1 2 0]]"}, {0.01, "[]"}} {
		d, err := Style{}.NewCDDiagram("", names, ranks, c.cd)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(d.Cliques()); got != c.want {
			t.Errorf("CD %v: groups %s, want %s", c.cd, got, c.want)
		}
	}
	for _, bad := range []struct {
		names []string
		ranks []float64
		cd    float64
	}{{names[:1], ranks[:1], 1}, {names, ranks[:3], 1}, {names, ranks, 0}, {names, []float64{0.5, 2, 3, 4}, 1}} {
		if _, err := (Style{}).NewCDDiagram("", bad.names, bad.ranks, bad.cd); err == nil {
			t.Errorf("%v %v CD %v: no error", bad.names, bad.ranks, bad.cd)
		}
	}
}

// TestRankLabelStep checks that the axis's numbers are thinned only when they would overlap.
func TestRankLabelStep(t *testing.T) {
	for _, c := range []struct {
		spacing, width float64
		want           int
	}{{20, 10, 1}, {10, 10, 1}, {9, 10, 2}, {4, 10, 5}, {1.5, 10, 10}, {0.3, 10, 50}, {0, 10, 1}} {
		if got := rankLabelStep(c.spacing, c.width); got != c.want {
			t.Errorf("rankLabelStep(%v, %v) = %d, want %d", c.spacing, c.width, got, c.want)
		}
	}
}

// Long labels widen the diagram beyond the column so that no label is cut at the edge;
// short ones keep the column width.
func TestCDDiagramWidensForLabels(t *testing.T) {
	long := make([]string, 20)
	ranks := make([]float64, 20)
	for i := range long {
		long[i] = fmt.Sprintf("a method with a long name %d (its authors' code)", i)
		ranks[i] = float64(i + 1)
	}
	for _, c := range []struct {
		names []string
		ranks []float64
		wider bool
	}{{long, ranks, true}, {[]string{"A", "B", "C"}, []float64{1, 2, 3}, false}} {
		d, err := Style{}.NewCDDiagram("", c.names, c.ranks, 2)
		if err != nil {
			t.Fatal(err)
		}
		l, r := d.labelWidths(d.textStyle())
		if need := l + r + 10*d.Style.fontSize() + 2*margin; d.Style.Width < need && c.wider {
			t.Errorf("%d methods: width %v, labels need %v", len(c.names), d.Style.Width, need)
		}
		if (d.Style.Width > ColumnWidth) != c.wider {
			t.Errorf("%d methods: width %v against the column's %v, want wider %v", len(c.names), d.Style.Width, ColumnWidth, c.wider)
		}
	}
}
