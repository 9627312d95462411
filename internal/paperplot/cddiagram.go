package paperplot

import (
	"errors"
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CDDiagram is a critical-difference diagram (Demšar 2006, figure 1): methods placed at
// their average ranks on an axis from 1 (best, left) to k, the best half labelled on the
// left and the others on the right, Nemenyi's critical difference drawn above the axis,
// and a thick bar joining each maximal group of methods whose ranks differ by less than
// it (no significant difference within the group). A critical difference longer than
// the axis is drawn to its end, open.
type CDDiagram struct {
	Style Style
	// Title is drawn above the diagram when Style.Title.
	Title string
	names []string
	ranks []float64
	cd    float64
}

// NewCDDiagram returns the diagram of methods names at average ranks ranks with
// critical difference cd. It needs two or more methods, as many ranks as names, ranks
// in [1, k] and cd > 0. With no Width set, the width is the column width or, where the
// labels need more, as wide as they need beside an axis of 8 em; with no Height set, the
// height grows with the number of methods.
func (s Style) NewCDDiagram(title string, names []string, ranks []float64, cd float64) (*CDDiagram, error) {
	k := len(names)
	if k < 2 || len(ranks) != k || !(cd > 0) {
		return nil, errors.New("paperplot: a CD diagram needs two or more methods, a rank each and a critical difference > 0")
	}
	for i, r := range ranks {
		if !(r >= 1 && r <= float64(k)) {
			return nil, fmt.Errorf("paperplot: rank %v of %s is outside [1, %d]", r, names[i], k)
		}
	}
	d := &CDDiagram{Style: s, Title: title, names: names, ranks: ranks, cd: cd}
	if s.Width <= 0 { // wide enough for the labels beside an axis of at least 8 em
		w, _ := s.Size()
		fs := s.fontSize()
		leftW, rightW := d.labelWidths(d.textStyle())
		d.Style.Width = max(w, leftW+rightW+10*fs+2*margin)
	}
	if s.Height <= 0 {
		lines := 4.6 + 0.6*float64(len(d.Cliques())) + 1.5*float64((k+1)/2) + 0.5
		if s.Title {
			lines += 1.5
		}
		d.Style.Height = vg.Length(lines)*s.fontSize() + 2*margin
	}
	return d, nil
}

// Cliques returns the maximal groups (as indices into names, best first) of two or more
// methods whose average ranks all lie within less than the critical difference.
func (d *CDDiagram) Cliques() [][]int {
	order := d.order()
	var out [][]int
	lastEnd := -1
	for i := range order {
		j := i
		for j+1 < len(order) && d.ranks[order[j+1]]-d.ranks[order[i]] < d.cd {
			j++
		}
		if j > i && j > lastEnd { // not inside the previous group
			out = append(out, append([]int(nil), order[i:j+1]...))
			lastEnd = j
		}
	}
	return out
}

// order returns the methods' indices by rank, best first (ties by name).
func (d *CDDiagram) order() []int {
	o := make([]int, len(d.names))
	for i := range o {
		o[i] = i
	}
	sort.SliceStable(o, func(a, b int) bool {
		if d.ranks[o[a]] != d.ranks[o[b]] {
			return d.ranks[o[a]] < d.ranks[o[b]]
		}
		return d.names[o[a]] < d.names[o[b]]
	})
	return o
}

// Save draws the diagram to stem.FORMAT in each format (PNG, PDF) and returns the files
// written.
func (d *CDDiagram) Save(stem string, formats ...string) ([]string, error) {
	return d.Style.Save(stem, formats, d.Draw)
}

// textStyle is the style of the diagram's labels.
func (d *CDDiagram) textStyle() draw.TextStyle {
	ts := draw.TextStyle{Color: color.Black, Font: plot.DefaultFont, Handler: Super}
	ts.Font.Size = d.Style.fontSize()
	return ts
}

// labelWidths returns the widths of the widest label on each side: the better half of
// the methods is named on the left, the rest on the right.
func (d *CDDiagram) labelWidths(ts draw.TextStyle) (left, right vg.Length) {
	half := (len(d.names) + 1) / 2
	for pos, i := range d.order() {
		if pos < half {
			left = max(left, ts.Width(d.label(i)))
		} else {
			right = max(right, ts.Width(d.label(i)))
		}
	}
	return left, right
}

// Draw draws the diagram on c.
func (d *CDDiagram) Draw(c draw.Canvas) {
	fs := d.Style.fontSize()
	ts := d.textStyle()
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	k := len(d.names)
	order := d.order()
	half := (k + 1) / 2
	leftW, rightW := d.labelWidths(ts)
	left, right := c.Min.X+leftW+fs, c.Max.X-rightW-fs
	if right-left < 4*fs { // too narrow for the labels: the axis keeps a third
		w := c.Size().X
		left, right = c.Min.X+w/3, c.Max.X-w/3
	}
	x := func(r float64) vg.Length { return left + (right-left)*vg.Length((r-1)/float64(k-1)) }
	row := 1.5 * fs
	y := c.Max.Y - fs/2
	if d.Style.Title && d.Title != "" {
		tt := ts
		tt.Font.Size = fs + 1
		tt.XAlign, tt.YAlign = draw.XCenter, draw.YTop
		c.FillText(tt, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y}, d.Title)
		y -= row
	}
	// The critical difference, above the axis, from rank 1, its value above it; a CD
	// longer than the axis is cut at its end, left open.
	cdY := y - 1.6*fs
	end := min(1+d.cd, float64(k))
	c.StrokeLine2(line, x(1), cdY, x(end), cdY)
	c.StrokeLine2(line, x(1), cdY-fs/4, x(1), cdY+fs/4)
	if end == 1+d.cd {
		c.StrokeLine2(line, x(end), cdY-fs/4, x(end), cdY+fs/4)
	}
	lt := ts
	lt.XAlign, lt.YAlign = draw.XCenter, draw.YBottom
	c.FillText(lt, vg.Point{X: (x(1) + x(end)) / 2, Y: cdY + fs/3}, "CD = "+fmt.Sprintf("%.2f", d.cd))
	// The axis with a tick at every rank, labelled at every step-th from 1 where the
	// labels would run together.
	axisY := cdY - 2.2*fs
	c.StrokeLine2(line, x(1), axisY, x(float64(k)), axisY)
	tl := ts
	tl.XAlign, tl.YAlign = draw.XCenter, draw.YBottom
	step := rankLabelStep(float64((right-left)/vg.Length(k-1)), float64(tl.Width(fmt.Sprint(k))+fs/2))
	for r := 1; r <= k; r++ {
		c.StrokeLine2(line, x(float64(r)), axisY, x(float64(r)), axisY+fs/3)
		if (r-1)%step == 0 {
			c.FillText(tl, vg.Point{X: x(float64(r)), Y: axisY + fs/2}, fmt.Sprint(r))
		}
	}
	// The groups without significant differences: thick bars under the axis.
	cliques := d.Cliques()
	bar := draw.LineStyle{Color: color.Black, Width: vg.Points(2)}
	for i, g := range cliques {
		by := axisY - 0.8*fs - vg.Length(i)*fs*0.6
		lo, hi := d.ranks[g[0]], d.ranks[g[len(g)-1]]
		c.StrokeLine2(bar, x(lo)-fs/6, by, x(hi)+fs/6, by)
	}
	// Each method: down from its rank, then out to its label.
	top := axisY - 0.8*fs - vg.Length(len(cliques))*fs*0.6 - fs/4
	for pos, i := range order {
		xr := x(d.ranks[i])
		lab := ts
		lab.YAlign = draw.YCenter
		var ly, lx vg.Length
		if pos < half {
			ly = top - vg.Length(pos)*row - fs/2
			lx = left - fs/2
			lab.XAlign = draw.XRight
		} else {
			ly = top - vg.Length(k-1-pos)*row - fs/2
			lx = right + fs/2
			lab.XAlign = draw.XLeft
		}
		ls := line
		ls.Color = OkabeIto[0]
		c.StrokeLines(ls, []vg.Point{{X: xr, Y: axisY}, {X: xr, Y: ly}, {X: lx + fs/4*vg.Length(sign(pos < half)), Y: ly}})
		c.FillText(lab, vg.Point{X: lx, Y: ly}, d.label(i))
	}
}

// label is a method's label: its name and average rank.
func (d *CDDiagram) label(i int) string {
	return fmt.Sprintf("%s (%.2f)", d.names[i], d.ranks[i])
}

// sign is −1 for the left side, +1 for the right: the leader line stops a quarter font
// short of the label.
func sign(leftSide bool) float64 {
	if leftSide {
		return 1
	}
	return -1
}

// rankLabelStep returns how many ranks apart the axis's numbers are written: 1 when ticks
// spacing apart leave room for a number as wide as width, else the smallest of 2, 5,
// 10, 20, 50, … that does, so that no two numbers overlap on a narrow axis.
func rankLabelStep(spacing, width float64) int {
	if spacing <= 0 {
		return 1
	}
	for step := 1; ; step *= 10 {
		for _, m := range []int{1, 2, 5} {
			if float64(step*m)*spacing >= width {
				return step * m
			}
		}
	}
}
