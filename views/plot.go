package views

import (
	"math"
	"strconv"
)

// Plot geometry (SVG user units): the drawing area is inset by the margins.
const (
	plotW, plotH        = 640, 300
	plotLeft, plotRight = 70, 20
	plotTop, plotBottom = 20, 40
	plotInnerW          = plotW - plotLeft - plotRight
	plotInnerH          = plotH - plotTop - plotBottom
	barW, barH          = 640, 160
	barLeft, barBottom  = 40, 24
	barTop, barInnerH   = 10, barH - barBottom - 10
	barInnerW           = barW - barLeft - 10
)

// ValuePoint is one value to plot against its paper's year.
type ValuePoint struct {
	Year          int
	Value, Lo, Hi float64 // Lo ≤ Value ≤ Hi: the error bar or range
	Bound         string  // "", "<", ">", "~", "range"
	Label         string  // for the point's <title>
}

// ValuePlot is a server-rendered SVG of values ± errors against year.
type ValuePlot struct {
	Title, Desc    string
	Width, Height  int
	Points         []PlotMark
	XTicks, YTicks []PlotTick
	YLabel         string
	X0, X1, Y0, Y1 int // the axes' ends
}

// PlotMark is a point with its error bar, in SVG coordinates.
type PlotMark struct {
	X, Y, YTop, YBottom float64
	Bound, Label        string
}

// PlotTick is an axis tick: its position and label.
type PlotTick struct {
	Pos   float64
	Label string
}

// NewValuePlot lays out points (nil when none has a year). unit labels
// the value axis; title and desc are the accessible name and description.
func NewValuePlot(points []ValuePoint, unit, title, desc string) *ValuePlot {
	var pts []ValuePoint
	for _, p := range points {
		if p.Year > 0 && finite(p.Value) && finite(p.Lo) && finite(p.Hi) {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	xmin, xmax := pts[0].Year, pts[0].Year
	ymin, ymax := pts[0].Lo, pts[0].Hi
	for _, p := range pts {
		xmin, xmax = min(xmin, p.Year), max(xmax, p.Year)
		ymin, ymax = math.Min(ymin, p.Lo), math.Max(ymax, p.Hi)
	}
	xmin, xmax = xmin-1, xmax+1
	if ymin == ymax {
		pad := math.Max(math.Abs(ymin)*0.1, 1)
		ymin, ymax = ymin-pad, ymax+pad
	}
	pad := (ymax - ymin) * 0.08
	ymin, ymax = ymin-pad, ymax+pad
	x := func(year int) float64 {
		return plotLeft + float64(year-xmin)/float64(xmax-xmin)*plotInnerW
	}
	y := func(v float64) float64 { return plotTop + (ymax-v)/(ymax-ymin)*plotInnerH }
	pl := &ValuePlot{Title: title, Desc: desc, Width: plotW, Height: plotH, YLabel: unit,
		X0: plotLeft, X1: plotLeft + plotInnerW, Y0: plotTop + plotInnerH, Y1: plotTop}
	for _, p := range pts {
		pl.Points = append(pl.Points, PlotMark{X: round1(x(p.Year)), Y: round1(y(p.Value)), YTop: round1(y(p.Hi)),
			YBottom: round1(y(p.Lo)), Bound: p.Bound, Label: p.Label})
	}
	for _, yr := range yearTicks(xmin, xmax) {
		pl.XTicks = append(pl.XTicks, PlotTick{Pos: round1(x(yr)), Label: strconv.Itoa(yr)})
	}
	for _, v := range niceTicks(ymin, ymax, 5) {
		pl.YTicks = append(pl.YTicks, PlotTick{Pos: round1(y(v)), Label: strconv.FormatFloat(v, 'g', 4, 64)})
	}
	return pl
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// yearTicks labels at most about eight years between lo and hi.
func yearTicks(lo, hi int) []int {
	step := max(1, (hi-lo)/8)
	var out []int
	for yr := lo + 1; yr < hi; yr += step {
		out = append(out, yr)
	}
	return out
}

// niceTicks returns about n round values between lo and hi.
func niceTicks(lo, hi float64, n int) []float64 {
	span := hi - lo
	if span <= 0 || !finite(span) {
		return nil
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi && len(out) < 20; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// YearCount is a number of papers in a year.
type YearCount struct {
	Year  int `json:"year"`
	Count int `json:"count"`
}

// BarChart is a server-rendered SVG of counts per year.
type BarChart struct {
	Title, Desc   string
	Width, Height int
	Bars          []ChartBar
	Baseline      int
	MaxLabel      string
}

// ChartBar is one year's bar in SVG coordinates.
type ChartBar struct {
	X, Y, W, H float64
	Year       int
	Count      int
	ShowYear   bool
}

// NewBarChart lays out counts (sorted by year); nil when there are none.
func NewBarChart(counts []YearCount, title, desc string) *BarChart {
	if len(counts) == 0 {
		return nil
	}
	first, last, top := counts[0].Year, counts[0].Year, 1
	for _, c := range counts {
		first, last, top = min(first, c.Year), max(last, c.Year), max(top, c.Count)
	}
	n := last - first + 1
	w := float64(barInnerW) / float64(n)
	ch := &BarChart{Title: title, Desc: desc, Width: barW, Height: barH, Baseline: barTop + barInnerH, MaxLabel: strconv.Itoa(top)}
	every := max(1, n/10)
	for _, c := range counts {
		h := float64(c.Count) / float64(top) * barInnerH
		i := c.Year - first
		ch.Bars = append(ch.Bars, ChartBar{X: round1(barLeft + float64(i)*w + w*0.1), W: round1(math.Max(w*0.8, 1)),
			Y: round1(barTop + barInnerH - h), H: round1(h), Year: c.Year, Count: c.Count, ShowYear: i%every == 0 || c.Year == last})
	}
	return ch
}
