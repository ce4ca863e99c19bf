package parsers

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

// toolCase is one row of a parser's table test: in parses to want, or fails
// with an error containing wantErr.
type toolCase struct {
	name    string
	in      string
	want    []diag.Diagnostic
	wantErr string
}

// runToolCases runs parse on every case. An error must name the format, so
// a user who fed the wrong output knows which parser refused it.
func runToolCases(t *testing.T, format string, parse func(io.Reader) ([]diag.Diagnostic, error), cases []toolCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parse(strings.NewReader(c.in))
			if c.wantErr != "" {
				if err == nil {
					t.Fatalf("got %+v, want an error containing %q", got, c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), format) {
					t.Fatalf("error %q does not contain %q and the format name %q", err, c.wantErr, format)
				}
				if got != nil {
					t.Fatalf("got partial result %+v with error %v", got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("got\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
}

// detectCase is one row of a Detect table: whether detect accepts sample.
type detectCase struct {
	name   string
	sample string
	want   bool
}

func runDetectCases(t *testing.T, detect func([]byte) bool, cases []detectCase) {
	t.Helper()
	for _, c := range cases {
		if got := detect([]byte(c.sample)); got != c.want {
			t.Errorf("%s: detect = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestEachToolLineLongLines(t *testing.T) {
	long := strings.Repeat("x", 100<<10) // over bufio.Scanner's 64 KiB default
	var got []int
	err := eachToolLine(strings.NewReader("a\r\n"+long+"\nb"), "demo", func(n int, line []byte) error {
		got = append(got, len(line))
		return nil
	})
	if err != nil {
		t.Fatalf("a 100 KiB line: %v", err)
	}
	if want := []int{1, len(long), 1}; !slices.Equal(got, want) {
		t.Fatalf("line lengths %v, want %v", got, want)
	}

	tooLong := bytes.Repeat([]byte("y"), maxToolLine+1)
	err = eachToolLine(bytes.NewReader(tooLong), "demo", func(int, []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "demo") {
		t.Fatalf("a line over maxToolLine: err = %v, want an error naming the format", err)
	}
}

func TestDecodeToolJSON(t *testing.T) {
	var v []int
	if err := decodeToolJSON(strings.NewReader(" \n\t"), "demo", &v); err != errNoToolOutput {
		t.Errorf("white space: err = %v, want errNoToolOutput", err)
	}
	if err := decodeToolJSON(strings.NewReader("[1, 2]\n"), "demo", &v); err != nil || !slices.Equal(v, []int{1, 2}) {
		t.Errorf("[1, 2]: v = %v, err = %v", v, err)
	}
	for _, in := range []string{"[1, 2", "[1] [2]", "[1] x", "{}", "garbage"} {
		if err := decodeToolJSON(strings.NewReader(in), "demo", &v); err == nil || !strings.Contains(err.Error(), "demo") {
			t.Errorf("%q: err = %v, want an error naming the format", in, err)
		}
	}
}

// TestToolUnitsNormalize checks each captured format's Unit end to end:
// parsed and normalized, the diagnostic on a line with non-ASCII text
// before it points at the expected token in code points.
func TestToolUnitsNormalize(t *testing.T) {
	cases := []struct {
		format, out, srcDir string
		file                string
		line                int
		token               string
	}{
		{"eslint", "testdata/eslint/lint.out", "testdata/eslint/src", "app.js", 1, "unused"},
		{"pyright", "testdata/pyright/check.out", "testdata/pyright/src", "app.py", 9, "s"},
		{"mypy", "testdata/mypy/columns.out", "testdata/mypy", "app.py", 8, "s"},
		{"cargo", "testdata/cargo/clippy.out", "testdata/cargo/src/warn", "lib.rs", 3, "unused"},
		{"cargo-short", "testdata/cargo-short/check-error.out", "testdata/cargo-short/src/typeerr", "lib.rs", 3, "s"},
		{"shellcheck", "testdata/shellcheck/check.out", "testdata/shellcheck", "script.sh", 4, "$name"},
		{"shellcheck-gcc", "testdata/shellcheck-gcc/check.out", "testdata/shellcheck-gcc", "script.sh", 4, "$name"},
	}
	for _, c := range cases {
		f, err := Lookup(c.format)
		if err != nil {
			t.Fatal(err)
		}
		in, err := os.ReadFile(c.out)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := f.Parser.Parse(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", c.out, err)
		}
		for i := range ds {
			if filepath.IsAbs(ds[i].Path) { // eslint and pyright print the capture machine's absolute paths
				ds[i].Path = filepath.Base(ds[i].Path)
			}
		}
		dir, err := filepath.Abs(c.srcDir)
		if err != nil {
			t.Fatal(err)
		}
		ds = Normalize(ds, dir, f.Unit, c.format)
		found := false
		for _, d := range ds {
			if filepath.Base(d.Path) != c.file || d.Line != c.line || d.Column < 1 {
				continue
			}
			text, err := os.ReadFile(d.Path)
			if err != nil {
				t.Fatal(err)
			}
			line, _ := diag.LineText(string(text), d.Line)
			runes := []rune(line)
			if got := string(runes[d.Column-1 : min(len(runes), d.Column-1+len([]rune(c.token)))]); got != c.token {
				t.Errorf("%s: line %d column %d (code points) is %q, want %q", c.out, d.Line, d.Column, got, c.token)
			}
			found = true
			break
		}
		if !found {
			t.Errorf("%s: no diagnostic with a column on %s:%d", c.out, c.file, c.line)
		}
	}
}
