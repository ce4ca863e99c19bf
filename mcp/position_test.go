package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSymbolColumn(t *testing.T) {
	tests := []struct {
		line, symbol string
		col          int
		err          string
	}{
		{"from greet import greet", "greet", 6, ""},
		{"from greet import greet", "greet#2", 19, ""},
		{"from greet import greet", "greet#3", 0, "occurs 2 time(s) on line 7, not 3"},
		{"\tfmt.Println(greet.Greet(\"world\"))", "Greet", 20, ""},
		{"s := \"日本\" + name", "name", 13, ""}, // columns count characters, not bytes
		{"a#b := 1", "a#b", 1, ""},             // "#b" is not a number: part of the name
		{"x := 1", "y", 0, `symbol "y" not found on line 7: x := 1`},
		{"x := 1", "#2", 0, "not found"},
	}
	for _, tt := range tests {
		col, err := symbolColumn(tt.line, tt.symbol, 7)
		if col != tt.col || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("symbolColumn(%q, %q) = %d, %v; want %d, %q", tt.line, tt.symbol, col, err, tt.col, tt.err)
		}
	}
}

func TestDecodeLocations(t *testing.T) {
	tests := []struct {
		raw  string
		uris []string
		line uint32
		err  bool
	}{
		{`null`, nil, 0, false},
		{`{"uri":"file:///a.go","range":{"start":{"line":3,"character":1},"end":{"line":3,"character":2}}}`, []string{"file:///a.go"}, 3, false},
		{`[{"uri":"file:///b.go","range":{"start":{"line":4,"character":0},"end":{"line":4,"character":1}}}]`, []string{"file:///b.go"}, 4, false},
		{`[{"targetUri":"file:///c.go","targetRange":{"start":{"line":1,"character":0},"end":{"line":9,"character":1}},
		   "targetSelectionRange":{"start":{"line":2,"character":5},"end":{"line":2,"character":8}}}]`, []string{"file:///c.go"}, 2, false},
		{`"file:///a.go"`, nil, 0, true},
		{`[{"name":"x"}]`, nil, 0, true},
	}
	for _, tt := range tests {
		got, err := decodeLocations(json.RawMessage(tt.raw))
		if (err != nil) != tt.err {
			t.Errorf("decodeLocations(%s): err = %v, want error %v", tt.raw, err, tt.err)
			continue
		}
		if len(got) != len(tt.uris) {
			t.Errorf("decodeLocations(%s) = %+v", tt.raw, got)
			continue
		}
		for i, l := range got {
			if l.URI != tt.uris[i] || l.Range.Start.Line != tt.line {
				t.Errorf("decodeLocations(%s)[%d] = %+v", tt.raw, i, l)
			}
		}
	}
}

func TestHoverText(t *testing.T) {
	for raw, want := range map[string]string{
		`null`: "",
		`{"contents":{"kind":"markdown","value":"**x** int"}}`:       "**x** int",
		`{"contents":"plain"}`:                                       "plain",
		`{"contents":[{"language":"go","value":"var x int"},"doc"]}`: "```go\nvar x int\n```\n\ndoc",
	} {
		got, err := hoverText(json.RawMessage(raw))
		if err != nil || got != want {
			t.Errorf("hoverText(%s) = %q, %v; want %q", raw, got, err, want)
		}
	}
	if _, err := hoverText(json.RawMessage(`{"contents":42}`)); err == nil {
		t.Error("hoverText of a number: no error")
	}
}

func TestLocationsCap(t *testing.T) {
	locs := make([]wireLocation, maxReferences+7)
	for i := range locs {
		locs[i] = wireLocation{URI: "file:///nowhere/x.go"}
		locs[i].Range.Start.Line = uint32(i)
	}
	got := newRenderer("/w", "utf-16").locations(locs, maxReferences)
	lines := strings.Split(got, "\n")
	if len(lines) != maxReferences+1 || lines[maxReferences] != "... and 7 more (57 in all)" || lines[0] != "/nowhere/x.go:1:1" {
		t.Errorf("capped locations: %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
}
