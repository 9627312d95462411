package paperplot

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/pdftext"
)

// TestPDFSizeAndText writes each figure kind as PDF and reads back, as pdftotext would,
// its page size (the style's, to a hundredth of a point), its embedded fonts and its
// text: the Greek parameter names, the metric's axis label, exponents as text after
// their base, the scale factor on the loss axis.
func TestPDFSizeAndText(t *testing.T) {
	dir := outDir(t)
	figs := figureKinds(t)
	for _, tc := range []struct {
		name string
		w, h float64
		want []string
	}{
		{"sensitivity", 237.6, 148.5, []string{"λ", "ARI", "ρ = 0.1", "ρ = 0.9", "SNMF", "10\n−10", "10\n−2", "0.30\n0.35\n0.40\n0.45\n0.50"}},
		{"sensitivity_band_page", 504, 168, []string{"λ", "ARI", "ρ = 0.5"}},
		{"heatmap", 237.6, 148.5, []string{"k\n2", "λ", "NMI", "0.250", "10\n−6"}},
		{"objective", 237.6, 148.5, []string{"iteration", "objective (×10\n6\n)", "5.575\n5.580"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := figs[tc.name].Save(filepath.Join(dir, tc.name), PDF)
			if err != nil {
				t.Fatal(err)
			}
			page, err := pdftext.Read(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(page.Width-tc.w) > 0.01 || math.Abs(page.Height-tc.h) > 0.01 {
				t.Errorf("page %.2f × %.2f pt, want %.2f × %.2f", page.Width, page.Height, tc.w, tc.h)
			}
			for name, embedded := range page.Fonts {
				if !embedded {
					t.Errorf("font %s not embedded", name)
				}
			}
			if len(page.Fonts) == 0 {
				t.Error("no font")
			}
			joined := strings.Join(page.Lines(), "\n")
			for _, s := range tc.want {
				if !strings.Contains(joined, s) {
					t.Errorf("text has no %q:\n%s", s, joined)
				}
			}
		})
	}
}
