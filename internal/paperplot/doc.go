// Package paperplot styles and saves gonum/plot figures to go into a paper as they are.
//
// A Style says how big a figure is (a column of a two-column paper, ≈ 3.3 in, a page,
// ≈ 7 in, or any length), the one font size of all its text (8 pt by default, the size of
// a caption), whether it has a title (no: the caption says it) and where its legend goes:
// inside the axes in the corner that hides the fewest data points (as matplotlib's
// loc="best"), outside on the right, or nowhere.
//
// A Figure built from a Style draws lines in a colour-blind-safe palette (Okabe–Ito),
// each with its own marker and dash pattern so that the lines stay apart in greyscale
// print, error bars or bands around them, reference lines, and heatmaps with a colour bar
// and labelled cells (gonum's plotter.HeatMap and ColorBar over a viridis colour map).
// Its axes label at least four ticks where the range allows, log axes as powers of ten
// with real superscripts (10⁻²; drawn by a text handler that raises and shrinks the
// exponent, so that every glyph comes from the embedded font), and large or small values
// with a scale factor on the axis label ("objective (×10⁶)") instead of on every tick.
//
// Save writes PNGs at a stated resolution and PDFs of exactly the requested size, with
// the fonts embedded and Greek kept as text (through internal/pdfcanvas), the plot
// filling the page up to a hairline margin (a tight bounding box: LaTeX places it
// without trimming).
//
// It is the one package of nagc that draws: the report and nagc bench build their
// figures from its points (XY, XYs), axes (LogX, LogY, XTicks, ScaleAxis) and figure
// kinds, and import nothing of gonum/plot themselves.
package paperplot
