package parsers

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*/*.golden from the parsers' output")

// goldenCases lists testdata/<format>/<case>.out files: output captured from
// the real tool (see each folder's README for the command), parsed with
// <format> and compared to <case>.golden, one JSON diagnostic per line.
func goldenCases(t testing.TB) []string {
	outs, err := filepath.Glob(filepath.Join("testdata", "*", "*.out"))
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) == 0 {
		t.Fatal("no testdata/*/*.out files")
	}
	return outs
}

func formatOf(t testing.TB, out string) *Format {
	name := filepath.Base(filepath.Dir(out))
	f, err := Lookup(name)
	if err != nil {
		t.Fatalf("%s: folder names no format: %v", out, err)
	}
	return f
}

func TestGolden(t *testing.T) {
	for _, out := range goldenCases(t) {
		t.Run(strings.TrimSuffix(out, ".out"), func(t *testing.T) {
			f := formatOf(t, out)
			in, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := f.Parser.Parse(bytes.NewReader(in))
			if err != nil {
				t.Fatalf("parsing %s as %s: %v", out, f.Name, err)
			}
			var got bytes.Buffer
			enc := json.NewEncoder(&got)
			enc.SetEscapeHTML(false)
			for _, d := range ds {
				if err := enc.Encode(d); err != nil {
					t.Fatal(err)
				}
			}
			golden := strings.TrimSuffix(out, ".out") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./parsers -run TestGolden -update)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s parsed as %s differs from %s:\ngot:\n%s\nwant:\n%s", out, f.Name, golden, got.Bytes(), want)
			}
		})
	}
}

// TestDetect checks that auto-detection picks each captured output's own
// format, unless the folder's format is marked as one auto cannot tell
// apart (Detect nil).
func TestDetect(t *testing.T) {
	for _, out := range goldenCases(t) {
		f := formatOf(t, out)
		if f.Detect == nil {
			continue
		}
		in, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect(in); got.Name != f.Name {
			t.Errorf("Detect(%s) = %s, want %s", out, got.Name, f.Name)
		}
	}
}

// FuzzParsers feeds every format arbitrary output: no parser may panic, and
// every diagnostic returned must have a line ≥ 0 and a known severity or
// zero (Normalize maps zero to error).
func FuzzParsers(f *testing.F) {
	for _, out := range goldenCases(f) {
		if b, err := os.ReadFile(out); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, format := range Formats() {
			ds, err := format.Parser.Parse(bytes.NewReader(in))
			if err != nil {
				continue
			}
			for _, d := range ds {
				if d.Line < 0 || d.Column < 0 {
					t.Fatalf("%s: negative position in %+v", format.Name, d)
				}
			}
		}
		Detect(in)
	})
}
