package paperplot

import (
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
)

// Widths of the two figure sizes of a two-column paper: a column (IEEE, ACM and
// NeurIPS-style two-column classes have 3.3–3.5 in) and the full text width (6.5–7.1 in).
const (
	ColumnWidth = 3.3 * vg.Inch
	PageWidth   = 7 * vg.Inch
)

// units are the length units ParseLength accepts, in points.
var units = []struct {
	suffix string
	size   vg.Length
}{
	{"in", vg.Inch}, {"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"pt", 1},
}

// ParseLength reads a figure length: "column" (ColumnWidth), "page" (PageWidth) or a
// positive number with a unit, "8cm", "3.5in", "90mm", "240pt" (a space before the unit
// is allowed). Lengths above 50 in are refused as typing errors.
func ParseLength(s string) (vg.Length, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "column":
		return ColumnWidth, nil
	case "page":
		return PageWidth, nil
	}
	for _, u := range units {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || v <= 0 {
			break
		}
		l := vg.Length(v) * u.size
		if l > 50*vg.Inch {
			return 0, fmt.Errorf("figure length %q is over 50 in: a typing error?", s)
		}
		return l, nil
	}
	return 0, fmt.Errorf("figure length %q: want column, page or a positive number with a unit (in, cm, mm, pt), e.g. 8cm", s)
}
