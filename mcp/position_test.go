package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestFileLinesRefuses: fileLines (a tool's file, and every file a
// server's locations name) answers at once for what is not a regular file
// within maxFileSize — a FIFO's open would block the tool for good,
// /dev/zero would be read without end — and locate says so for a tool's
// file; a regular file (through a symlink too) is read.
func TestFileLinesRefuses(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\r\nvar x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // a reader blocked opening it (a failing test's) goes on
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	big := filepath.Join(dir, "big.go")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, maxFileSize+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path  string
		lines []string
		err   string
	}{
		{path: file, lines: []string{"package a", "var x = 1", ""}},
		{path: filepath.Join(dir, "link.go"), lines: []string{"package a", "var x = 1", ""}},
		{path: fifo, err: "not a regular file: a named pipe (FIFO)"},
		{path: dir, err: "not a regular file: a directory"},
		{path: "/dev/zero", err: "not a regular file: a character device"},
		{path: "/proc/self/environ", err: "a kernel pseudo-file"},
		{path: big, err: "16.0 MiB is larger than the 16 MiB a file may have"},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var lines []string
		var err error
		go func() {
			defer close(done)
			lines, err = fileLines(tt.path)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("fileLines(%s) still blocked after 5 s", tt.path)
		}
		if tt.err == "" && (err != nil || !slices.Equal(lines, tt.lines)) || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("fileLines(%s) = %q, %v; want %q, error %q", tt.path, lines, err, tt.lines, tt.err)
		}
	}
	if _, err := locate(dir, "pipe.go", 1, "x", 0); err == nil || !strings.Contains(err.Error(), "reading pipe.go: not a regular file") {
		t.Errorf("locate on a FIFO: %v, want a refusal naming it", err)
	}
}
