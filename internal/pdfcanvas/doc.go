// Package pdfcanvas draws gonum/plot figures to PDF with Unicode text.
//
// Canvas is a vg.Canvas, like gonum.org/v1/plot/vg/vgpdf's, whose fonts are embedded as
// Unicode (Type0, Identity-H) subsets with a ToUnicode map, so that Greek letters (λ, ρ)
// are drawn and stay in the PDF's text layer: vgpdf embeds fonts with the cp1252 code
// page, which has no Greek. The drawing code follows vgpdf (BSD licence); only the text
// encoding differs.
//
// Files are reproducible: the creation date is $SOURCE_DATE_EPOCH when set, else
// 2000-01-01 UTC, so that the same figure drawn twice gives the same bytes.
package pdfcanvas
