package parsers

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/lsp-hook/lsp-hook/diag"
)

// FuzzParsers (golden_test.go) runs every format on each input; the
// targets here look closer: one format per input with its own invariants,
// the "auto" path with normalization against the captured sources, and
// errorformat with the format strings fuzzed too.

// goldenSeeds returns each captured output with its format's index in
// Formats(), and the absolute testdata/<format>/src directory the tool ran
// in ("" when there is none).
func goldenSeeds(tb testing.TB) (outs [][]byte, formats []int, dirs []string) {
	index := make(map[string]int)
	for i, f := range Formats() {
		index[f.Name] = i
	}
	for _, out := range goldenCases(tb) {
		b, err := os.ReadFile(out)
		if err != nil {
			tb.Fatal(err)
		}
		f := formatOf(tb, out)
		outs, formats = append(outs, b), append(formats, index[f.Name])
		src, _ := filepath.Abs(filepath.Join(filepath.Dir(out), "src"))
		if st, err := os.Stat(src); err != nil || !st.IsDir() {
			src = ""
		}
		dirs = append(dirs, src)
	}
	return outs, formats, dirs
}

// checkParsed checks one format's answer: a failed parse returns nothing
// and says what it was parsing; positions are never negative; the result
// does not depend on how the output arrives (all at once, byte by byte,
// or with the last read returning io.EOF along with data).
func checkParsed(t *testing.T, name string, p Parser, in []byte) []diag.Diagnostic {
	t.Helper()
	ds, err := p.Parse(bytes.NewReader(in))
	if err != nil {
		if msg := err.Error(); !strings.HasPrefix(msg, "parsing ") && !strings.HasPrefix(msg, "reading ") && !strings.HasPrefix(msg, "compiling ") {
			t.Fatalf("%s: error does not say what it was doing: %v", name, err)
		}
		if ds != nil {
			t.Fatalf("%s: %d diagnostics returned with error %v", name, len(ds), err)
		}
	}
	for _, d := range ds {
		if d.Line < 0 || d.Column < 0 || d.EndLine < 0 || d.EndColumn < 0 {
			t.Fatalf("%s: negative position in %+v", name, d)
		}
	}
	for how, rd := range map[string]io.Reader{
		"byte by byte":              iotest.OneByteReader(bytes.NewReader(in)),
		"with EOF on the last read": iotest.DataErrReader(bytes.NewReader(in)),
	} {
		ds2, err2 := p.Parse(rd)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(ds, ds2) {
			t.Fatalf("%s: reading the output %s gives %d diagnostics, %v; all at once %d, %v", name, how, len(ds2), err2, len(ds), err)
		}
	}
	return ds
}

// FuzzParseFormat parses an input with the format the input picks.
func FuzzParseFormat(f *testing.F) {
	outs, formats, _ := goldenSeeds(f)
	for i, out := range outs {
		f.Add(out, uint8(formats[i]))
	}
	f.Fuzz(func(t *testing.T, in []byte, which uint8) {
		all := Formats()
		format := all[int(which)%len(all)]
		checkParsed(t, format.Name, format.Parser, in)
	})
}

// FuzzRead reads output as `lsp-hook parse` and the linters do: "auto"
// detects the format, and Normalize makes paths absolute from the
// directory the tool ran in (a captured sample's own source directory, so
// column conversion reads real files) and columns code points.
func FuzzRead(f *testing.F) {
	outs, _, dirs := goldenSeeds(f)
	var srcDirs []string
	for i, out := range outs {
		k := len(srcDirs)
		if dirs[i] != "" {
			srcDirs = append(srcDirs, dirs[i])
		} else {
			k = 0
		}
		f.Add(out, uint8(k))
	}
	if len(srcDirs) == 0 {
		f.Fatal("no testdata/*/src directory")
	}
	f.Fuzz(func(t *testing.T, in []byte, which uint8) {
		dir := srcDirs[int(which)%len(srcDirs)]
		detected := Detect(in)
		ds, used, err := Read(Auto, bytes.NewReader(in), dir, "")
		if used != detected {
			t.Fatalf("Read used %v, Detect says %s", used, detected.Name)
		}
		if err != nil {
			if ds != nil {
				t.Fatalf("%d diagnostics returned with error %v", len(ds), err)
			}
			return
		}
		for _, d := range ds {
			if d.Path != "" && (!filepath.IsAbs(d.Path) || filepath.Clean(d.Path) != d.Path) {
				t.Fatalf("path %q is not absolute and clean", d.Path)
			}
			if d.Severity < diag.SeverityError || d.Severity > diag.SeverityHint || d.Source == "" {
				t.Fatalf("not normalized: %+v", d)
			}
			if d.Line < 0 || d.Column < 0 || d.EndLine < 0 || d.EndColumn < 0 {
				t.Fatalf("negative position in %+v", d)
			}
		}
	})
}

// FuzzErrorformat compiles up to four errorformat strings (one per line of
// efms) and parses output with them.
func FuzzErrorformat(f *testing.F) {
	gcc, _ := os.ReadFile(filepath.Join("testdata", "gcc", "gcc.out"))
	for _, s := range []struct{ efm, out string }{
		{"%f:%l:%c: %t%*[^:]: %m [%n]\n%f:%l:%c: %m\n%f:%l: %m", "a.c:1:2: error: bad [12]\r\na.c:3:4: warning: meh [7]\nb.go:9:10: plain\nc.txt:11: no column\n"},
		{"%E%f(%l): error: %m\n%C  %m\n%Z\n%-G%.%#", "d.cs(12): error: first\r\n  second\r\n\r\nsummary: 7 problems\r\n"},
		{"%D%*\\a: Entering directory %*[`']%f'\n%X%*\\a: Leaving directory %*[`']%f'\n%f:%l:%c: %m", "make: Entering directory 'sub'\nx.c:1:1: oops\nmake: Leaving directory 'sub'\n"},
		{"%f:%l:%c: %trror: %m\n%f:%l:%c: %tarning: %m\n%f:%l:%c: %tote: %m", string(gcc)},
		{"%f|%l col %c| %m\n%f:%l:%e:%k: %m", "x.go|3 col 4| m\nx.go:1:2:3: n\n"},
		{"%", "x"}, {"%*", "x"}, {"%A%f\n%>%C%m\n%Z", "a\nb\nc\n"}, {"%f:%l:%c:%m\n%f", strings.Repeat("x", efmMaxLine+1)},
	} {
		f.Add(s.efm, []byte(s.out))
	}
	f.Fuzz(func(t *testing.T, efms string, out []byte) {
		lines := strings.Split(efms, "\n")
		if len(lines) > 4 {
			lines = lines[:4]
		}
		p, err := Errorformat(lines)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "compiling errorformat") {
				t.Fatalf("compile error does not say so: %v", err)
			}
			return
		}
		checkParsed(t, "errorformat", p, out)
	})
}
