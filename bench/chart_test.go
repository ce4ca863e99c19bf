package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// svgText parses data as XML and returns its root element's name and all
// its character data, joined by newlines; invalid XML is an error.
func svgText(data []byte) (root string, text string, err error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var parts []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return root, strings.Join(parts, "\n"), nil
		}
		if err != nil {
			return root, "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = t.Name.Local
			}
		case xml.CharData:
			if s := strings.TrimSpace(string(t)); s != "" {
				parts = append(parts, s)
			}
		}
	}
}

// chartReport is a report with section 9's, part 3's and section 8's
// samples for Go and TypeScript.
func chartReport() *report {
	d := func(ms ...float64) samples {
		var s samples
		for _, m := range ms {
			s = append(s, time.Duration(m*float64(time.Millisecond)))
		}
		return s
	}
	goSpec, tsSpec := langSpecs[0], langSpecs[2]
	return &report{
		langs: []langResult{
			{spec: goSpec, hook: row{s: d(40, 42)}, base: row{s: d(400, 420, 390)}},
			{spec: tsSpec, hook: row{s: d(30, 33)}, base: row{s: d(900, 950)}},
		},
		peer: &peerResult{langs: []peerLang{
			{spec: goSpec, us: row{s: d(35, 37, 36)}, them: row{s: d(200, 210, 190)}},
			{spec: langSpecs[3], skipped: "no C"},
		}},
		prewarm: &prewarmResult{langs: []prewarmLang{
			{spec: goSpec, warm: row{s: d(40)}, cold: firstEdit{wall: 1500 * time.Millisecond},
				after: [][]firstEdits{
					{{{wall: 300 * time.Millisecond}}, {{wall: 50 * time.Millisecond}, {wall: 60 * time.Millisecond}, {wall: 40 * time.Millisecond}}},
					{{{wall: 320 * time.Millisecond}}, {{wall: 90 * time.Millisecond}}},
				}},
		}},
	}
}

// TestWriteChart: the SVG is well-formed XML with an <svg> root and names
// every series and language it draws.
func TestWriteChart(t *testing.T) {
	tests := []struct {
		name    string
		r       *report
		want    []string
		wantErr bool
	}{
		{"both charts", chartReport(), []string{"lsp-hook hook", peerName + " hook", "per-edit command", "Go", "TypeScript",
			"first edit, no prewarm", "first edit 10 s after SessionStart, edited file last touched", "another file last touched", "warm edit, p50"}, false},
		{"warm only", func() *report { r := chartReport(); r.prewarm = nil; return r }(), []string{"lsp-hook hook", "TypeScript"}, false},
		{"prewarm only", &report{prewarm: chartReport().prewarm}, []string{"first edit 2 s after SessionStart", "Go"}, false},
		{"nothing", &report{}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := writeChart(&buf, tt.r.chartData())
			if tt.wantErr {
				if err == nil {
					t.Fatal("no error without data")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			root, text, err := svgText(buf.Bytes())
			if err != nil {
				t.Fatalf("not XML: %v", err)
			}
			if root != "svg" {
				t.Fatalf("root element %q, want svg", root)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("the SVG's text has no %q:\n%s", w, text)
				}
			}
		})
	}
}

// TestWriteChartFile: the file goes beside the Markdown page, and nothing is
// written without data.
func TestWriteChartFile(t *testing.T) {
	dir := t.TempDir()
	path := chartPath(filepath.Join(dir, "benchmarks.md"))
	if filepath.Base(path) != "benchmarks.svg" {
		t.Fatalf("chartPath = %s", path)
	}
	if err := (&report{}).writeChartFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a chart without data was written (%v)", err)
	}
	if err := chartReport().writeChartFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svgText(data); err != nil {
		t.Fatalf("not XML: %v", err)
	}
}
