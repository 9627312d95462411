package results

import (
	"testing"
)

func TestFiguresMerge(t *testing.T) {
	no := false
	cfg := Figures{Width: "column", Metric: "ari", FontSize: 8, Rows: []string{"A"}}
	got := cfg.Merge(Figures{Metric: "nmi", Title: &no, Formats: []string{"pdf"}})
	if got.Width != "column" || got.Metric != "nmi" || got.FontSize != 8 || got.Title == nil || *got.Title ||
		len(got.Rows) != 1 || len(got.Formats) != 1 {
		t.Errorf("merged %+v", got)
	}
}
