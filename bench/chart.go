package main

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The charts make bench writes beside docs/benchmarks.md (issue 18, item
// 7), drawn with gonum.org/v1/plot, in the bench program only (the
// product binary does not link it):
//
//  1. warm-edit latency per language, a box plot per tool (lsp-hook, the
//     peer, the per-edit command of part 3), log scale in milliseconds:
//     lsp-hook's and the peer's samples from section 9 (hook right after
//     the write), lsp-hook's from part 3 when section 9 did not run, the
//     per-edit command's from part 3;
//  2. the first edit of a session per language, with and without
//     prewarm (section 8), bars in milliseconds beside the warm p50.
//
// A chart without data is left out; with neither there is no file.

// boxSeries is one tool's latencies per language of a box chart, in
// milliseconds: values[i] for the chart's langs[i] (nil when not measured).
type boxSeries struct {
	name   string
	values [][]float64
}

// barSeries is one bar per language of a bar chart, in milliseconds (0:
// not measured).
type barSeries struct {
	name   string
	values []float64
}

// chartData is what the charts draw.
type chartData struct {
	warmLangs  []string
	warm       []boxSeries
	firstLangs []string
	first      []barSeries
}

// chartPath is the SVG beside the Markdown report md: md's name with .svg
// for its extension; "" when md is "".
func chartPath(md string) string {
	if md == "" {
		return ""
	}
	return strings.TrimSuffix(md, filepath.Ext(md)) + ".svg"
}

// msValues is s in milliseconds, those above 0 (a log axis has no 0).
func msValues(s samples) []float64 {
	var out []float64
	for _, d := range s {
		if d > 0 {
			out = append(out, float64(d)/float64(time.Millisecond))
		}
	}
	return out
}

// msOf is d in milliseconds.
func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// chartData gathers the charts' data from the report.
func (r *report) chartData() chartData {
	var d chartData
	us := boxSeries{name: "lsp-hook hook"}
	them := boxSeries{name: peerName + " hook"}
	cli := boxSeries{name: "per-edit command (go vet, pyright, tsc, clang)"}
	for _, spec := range langSpecs {
		var u, t, c []float64
		if r.peer != nil {
			for _, l := range r.peer.langs {
				if l.spec.key == spec.key && l.skipped == "" {
					u, t = msValues(l.us.s), msValues(l.them.s)
				}
			}
		}
		for _, l := range r.langs {
			if l.spec.key == spec.key && l.skipped == "" {
				c = msValues(l.base.s)
				if len(u) == 0 {
					u = msValues(l.hook.s)
				}
			}
		}
		if len(u)+len(t)+len(c) == 0 {
			continue
		}
		d.warmLangs = append(d.warmLangs, spec.name)
		us.values, them.values, cli.values = append(us.values, u), append(them.values, t), append(cli.values, c)
	}
	if len(d.warmLangs) > 0 {
		d.warm = []boxSeries{us, them, cli}
	}
	if r.prewarm == nil || len(r.prewarm.langs) == 0 {
		return d
	}
	names := []string{"warm edit, p50", "first edit, no prewarm"}
	for _, pc := range prewarmCases {
		for _, delay := range prewarmDelays {
			names = append(names, fmt.Sprintf("first edit %s after SessionStart, %s, p50", fmtSecs(delay), pc.label))
		}
	}
	d.first = make([]barSeries, len(names))
	for i, n := range names {
		d.first[i].name = n
	}
	for _, l := range r.prewarm.langs {
		d.firstLangs = append(d.firstLangs, l.spec.name)
		vals := []float64{msOf(l.warm.s.median()), msOf(l.cold.wall)}
		for _, byDelay := range l.after {
			for _, fs := range byDelay {
				vals = append(vals, msOf(fs.wall()))
			}
		}
		for i := range d.first {
			v := 0.0
			if i < len(vals) {
				v = vals[i]
			}
			d.first[i].values = append(d.first[i].values, v)
		}
	}
	return d
}

// hasChart reports whether the report has data for a chart.
func (r *report) hasChart() bool {
	d := r.chartData()
	return len(d.warm) > 0 || len(d.first) > 0
}

// palette colours the series, in order.
var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
}

// swatch is a legend entry's filled square (plot.Thumbnailer).
type swatch struct{ c color.Color }

var _ plot.Thumbnailer = swatch{}

// Thumbnail fills the legend's box with the colour.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(s.c, c.ClipPolygonY(pts))
}

// warmPlot is chart 1.
func warmPlot(d chartData) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Warm edit → answer, per language (box: p25–p75, whiskers, outliers)"
	p.Y.Label.Text = "wall time, ms (log scale)"
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	p.NominalX(d.warmLangs...)
	p.Legend.Top, p.Legend.Left = true, true
	width := vg.Points(18)
	for k, s := range d.warm {
		col := palette[k%len(palette)]
		for i, vals := range s.values {
			if len(vals) == 0 {
				continue
			}
			b, err := plotter.NewBoxPlot(width, float64(i), plotter.Values(vals))
			if err != nil {
				return nil, fmt.Errorf("box of %s, %s: %w", s.name, d.warmLangs[i], err)
			}
			b.Offset = vg.Length(k-(len(d.warm)-1)/2) * (width + vg.Points(4))
			if len(d.warm)%2 == 0 {
				b.Offset += (width + vg.Points(4)) / 2
			}
			b.FillColor = col
			p.Add(b)
		}
		p.Legend.Add(s.name, swatch{col})
	}
	return p, nil
}

// firstPlot is chart 2.
func firstPlot(d chartData) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "First edit of a session, with and without prewarm (issue 16)"
	p.Y.Label.Text = "wall time, ms"
	p.NominalX(d.firstLangs...)
	p.Legend.Top, p.Legend.Left = true, true
	width := vg.Points(14)
	for k, s := range d.first {
		b, err := plotter.NewBarChart(plotter.Values(s.values), width)
		if err != nil {
			return nil, fmt.Errorf("bars of %s: %w", s.name, err)
		}
		b.Offset = (vg.Length(k) - vg.Length(len(d.first)-1)/2) * width
		b.Color, b.LineStyle.Width = palette[k%len(palette)], 0
		p.Add(b)
		p.Legend.Add(s.name, b)
	}
	return p, nil
}

// writeChart draws d's charts, one above the other, as one SVG document to
// w. Without data for any chart it is an error.
func writeChart(w io.Writer, d chartData) error {
	var plots [][]*plot.Plot
	if len(d.warm) > 0 {
		p, err := warmPlot(d)
		if err != nil {
			return err
		}
		plots = append(plots, []*plot.Plot{p})
	}
	if len(d.first) > 0 {
		p, err := firstPlot(d)
		if err != nil {
			return err
		}
		plots = append(plots, []*plot.Plot{p})
	}
	if len(plots) == 0 {
		return errors.New("no data to chart")
	}
	height := 10 * vg.Centimeter * vg.Length(len(plots))
	c := vgsvg.New(20*vg.Centimeter, height)
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Centimeter / 2, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(plots, tiles, draw.New(c))
	for j := range plots {
		plots[j][0].Draw(canvases[j][0])
	}
	_, err := c.WriteTo(w)
	return err
}

// writeChartFile writes the charts to path through a temporary file
// beside it; no data, or path "", writes nothing.
func (r *report) writeChartFile(path string) error {
	if path == "" || !r.hasChart() {
		return nil
	}
	var buf bytes.Buffer
	if err := writeChart(&buf, r.chartData()); err != nil {
		return fmt.Errorf("drawing the charts: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the charts: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing the charts: %w", err)
	}
	return nil
}
