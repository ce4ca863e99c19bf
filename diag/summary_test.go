package diag

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

func ExampleWriteMarkdownSummary() {
	s := Summary{
		Root: "/repo",
		Files: []FileDiagnostics{
			{Path: "/repo/src/api.ts", Rel: "src/api.ts", Diagnostics: []Diagnostic{
				{Path: "/repo/src/api.ts", Line: 7, Column: 3, Severity: SeverityWarning, Code: "no-unused-vars", Message: "'x' is assigned a value but never used."},
				{Path: "/repo/src/api.ts", Line: 3, Column: 10, Severity: SeverityError, Code: "ts2339", Message: "Property 'foo' does not exist on type 'Bar<T>'."},
			}},
			{Path: "/repo/main.go", Diagnostics: []Diagnostic{
				{Path: "/repo/main.go", Line: 12, Column: 2, Severity: SeverityError, Source: "gopls", Message: "declared and not used: x"},
			}},
		},
		FilesChecked: 120,
		Elapsed:      3412 * time.Millisecond,
		Notes:        []string{"rust-analyzer timed out on 2 files"},
	}
	if err := WriteMarkdownSummary(os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ## lsp-hook diagnose
	//
	// 2 errors · 1 warning · 120 files checked · 3.4s
	//
	// | File | Severity | Code | Message |
	// | --- | --- | --- | --- |
	// | main.go:12:2 | error |  | declared and not used: x |
	// | src/api.ts:3:10 | error | ts2339 | Property 'foo' does not exist on type 'Bar&lt;T&gt;'. |
	// | src/api.ts:7:3 | warning | no-unused-vars | 'x' is assigned a value but never used. |
	//
	// - rust-analyzer timed out on 2 files
}

func ExampleWriteMarkdownSummary_clean() {
	s := Summary{Title: "Diagnostics (shard 2/4)", FilesChecked: 1, Elapsed: 250 * time.Millisecond}
	if err := WriteMarkdownSummary(os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ## Diagnostics (shard 2/4)
	//
	// No problems found · 1 file checked · 250ms
}

func TestMarkdownSummaryEscaping(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"pipe", "a | b", `a \| b`},
		{"html", "<script>&amp;", "&lt;script&gt;&amp;amp;"},
		{"line breaks", "first\r\nsecond\n\n  third  \rfourth", "first<br>second<br>third<br>fourth"},
		{"code span", "`Vec<T>` is not `Copy`", "\\`Vec&lt;T&gt;\\` is not \\`Copy\\`"},
		{"emphasis and links", "__init__ *x* ~~y~~ ![i](http://e/x)", `\_\_init\_\_ \*x\* \~\~y\~\~ !\[i\](http://e/x)`},
		{"backslash before pipe", `a\|b`, `a\\\|b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			s := Summary{FilesChecked: 1, Files: []FileDiagnostics{{Rel: "x|y.go", Diagnostics: []Diagnostic{
				{Line: 1, Column: 1, Severity: SeverityError, Code: "c|d", Message: tt.in},
			}}}}
			if err := WriteMarkdownSummary(&b, s); err != nil {
				t.Fatal(err)
			}
			row := `| x\|y.go:1:1 | error | c\|d | ` + tt.want + " |\n"
			if !strings.Contains(b.String(), row) {
				t.Errorf("summary lacks row\n%s\nin\n%s", row, b.String())
			}
		})
	}
}

// TestMarkdownSummaryRows: the row cap and its "… and N more" line, errors
// first across files, duplicates removed, long messages cut, and the
// severities counted.
func TestMarkdownSummaryRows(t *testing.T) {
	var fds []FileDiagnostics
	for f := range 3 {
		fd := FileDiagnostics{Path: fmt.Sprintf("/r/f%d.go", f)}
		for i := range 30 {
			sev := SeverityWarning
			if i%10 == 0 {
				sev = SeverityError
			}
			fd.Diagnostics = append(fd.Diagnostics, Diagnostic{Path: fd.Path, Line: i + 1, Column: 1, Severity: sev, Message: fmt.Sprintf("m%d", i)})
		}
		fd.Diagnostics = append(fd.Diagnostics, fd.Diagnostics[0]) // a duplicate
		fds = append(fds, fd)
	}
	fds[0].Diagnostics = append(fds[0].Diagnostics,
		Diagnostic{Path: "/r/f0.go", Line: 99, Column: 1, Severity: SeverityHint, Message: strings.Repeat("é", 600)},
		Diagnostic{Path: "/r/f0.go", Line: 98, Column: 0, Severity: SeverityInfo, Message: "i"})
	var b strings.Builder
	if err := WriteMarkdownSummary(&b, Summary{Root: "/r", Files: fds, FilesChecked: 3, MaxRows: 8}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"9 errors · 81 warnings · 1 info · 1 hint · 3 files checked\n",
		"| f0.go:1:1 | error |  | m0 |\n| f0.go:11:1 | error |  | m10 |\n| f0.go:21:1 | error |  | m20 |\n| f1.go:1:1 | error |",
		"| f2.go:11:1 | error |  | m10 |\n\n",
		"\n… and 84 more\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n| f"); n != 8 {
		t.Errorf("%d rows, want 8:\n%s", n, out)
	}

	b.Reset()
	if err := WriteMarkdownSummary(&b, Summary{Files: fds[:1], MaxRows: 100}); err != nil {
		t.Fatal(err)
	}
	if want := "| /r/f0.go:98 | info |  | i |\n| /r/f0.go:99:1 | hint |  | " + strings.Repeat("é", 499) + "… |\n"; !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks the info and the cut hint row:\n%s", b.String())
	}
	if strings.Contains(b.String(), "more") {
		t.Errorf("summary under its cap says more:\n%s", b.String())
	}
}

func TestMarkdownSummaryNotes(t *testing.T) {
	var b strings.Builder
	s := Summary{FilesChecked: 1, Notes: []string{"# not a heading", "12. not a list", "- nor this", "skipped big.json:\n  larger than 16 MiB", "a|b <c>"}}
	if err := WriteMarkdownSummary(&b, s); err != nil {
		t.Fatal(err)
	}
	want := "\n- \\# not a heading\n- 12\\. not a list\n- \\- nor this\n- skipped big.json:<br>larger than 16 MiB\n- a\\|b &lt;c&gt;\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("summary ends\n%q\nwant\n%q", b.String(), want)
	}
}

func TestAppendStepSummary(t *testing.T) {
	path := filepath.Join(testdir.New(t), "summary.md")
	s := Summary{Title: "one", FilesChecked: 2}
	if err := AppendStepSummary(path, s); err != nil {
		t.Fatal(err)
	}
	s.Title = "two"
	if err := AppendStepSummary(path, s); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "## one\n\nNo problems found · 2 files checked\n\n## two\n\nNo problems found · 2 files checked\n"
	if string(data) != want {
		t.Errorf("file holds %q, want %q", data, want)
	}
	if fi, err := os.Stat(path); runtime.GOOS != "windows" && (err != nil || fi.Mode().Perm() != 0o644&^umask(t)) { // Windows has no permission bits
		t.Errorf("mode = %v, %v; want 0644 less the umask", fi.Mode(), err)
	}
	if err := AppendStepSummary("", s); err == nil {
		t.Error("an empty path was accepted")
	}
	if err := AppendStepSummary(filepath.Join(testdir.New(t), "no", "dir.md"), s); err == nil {
		t.Error("a path in a missing directory was accepted")
	}
}

// umask returns the process's umask, read from a file created with 0777.
func umask(t *testing.T) os.FileMode {
	p := filepath.Join(testdir.New(t), "probe")
	if err := os.WriteFile(p, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}
