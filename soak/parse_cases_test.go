package soak

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseAnswer reads hook answers in DESIGN.md's format and refuses
// anything else.
func TestParseAnswer(t *testing.T) {
	const block = "LSP errors detected in these files, please fix:\n" +
		"<diagnostics file=\"src/a&amp;b.ts\">\nERROR [2:7] Type &lt;T&gt; (ts2322)\n... and 3 more\n</diagnostics>\n" +
		"LSP errors detected in other files:\n<diagnostics file=\"src/c.ts\">\nWARN [1:1] unused\nERROR [9:1] x\n</diagnostics>\n" +
		noteTimeout
	for _, tc := range []struct {
		name, stdout string
		lines        []string // "file:line" of ERROR lines, "+" marking other files
		notes, cut   bool
		err          bool
	}{
		{name: "nothing"},
		{name: "a block", stdout: mustJSON(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PostToolUse", "additionalContext": block}}),
			lines: []string{"src/a&b.ts:2", "+src/c.ts:9"}, notes: true, cut: true},
		{name: "a batch's block", stdout: mustJSON(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PostToolBatch", "additionalContext": blockAThis}}),
			lines: []string{"a.go:3"}},
		{name: "another event", stdout: `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}`, err: true},
		{name: "an unknown field", stdout: `{"decision":"block","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}`, err: true},
		{name: "two objects", stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lsp-hook: x"}}{}`, err: true},
		{name: "an empty block", stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":""}}`, err: true},
		{name: "a line out of format", stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"a.go:3: x"}}`, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := parseAnswer(tc.stdout)
			if (err != nil) != tc.err {
				t.Fatalf("parseAnswer error = %v, want error %v", err, tc.err)
			}
			var lines []string
			for _, l := range a.lines {
				lines = append(lines, map[bool]string{true: "+"}[l.other]+fmt.Sprintf("%s:%d", l.file, l.line))
			}
			if !slices.Equal(lines, tc.lines) || (len(a.notes) > 0) != tc.notes || a.cut != tc.cut {
				t.Errorf("parseAnswer = lines %v, notes %v, cut %v; want %v, %v, %v", lines, a.notes, a.cut, tc.lines, tc.notes, tc.cut)
			}
		})
	}
}

// TestParseCompilers places each compiler's errors on files and lines.
func TestParseCompilers(t *testing.T) {
	const dir = "/m"
	pyright := `{"generalDiagnostics": [
		{"file": "/m/pkg/a.py", "severity": "error", "range": {"start": {"line": 2, "character": 9}}},
		{"file": "/m/pkg/b.py", "severity": "warning", "range": {"start": {"line": 0, "character": 0}}}]}`
	tsc := "src/b.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'.\n" +
		"src/c.ts(10,3): error TS2554: Expected 2 arguments, but got 1.\n  src/models.ts(10,53): An argument was not provided.\n"
	clang := "In file included from src/main.c:3:\nIn file included from include/a.h:1:\ninclude/b.h:3:9: error: use of undeclared identifier 'zz'\n" +
		"include/b.h:4:1: error: expected ';'\nsrc/main.c:9:24: error: use of undeclared identifier 'q'\nsrc/main.c:10:2: warning: unused\n"
	fatal := "src/math.c:1:10: fatal error: 'shapes.h' file not found\n"
	eol := "a.h:3:2: error: expected ';' after struct\n"
	goErr := &goPackage{ImportPath: "m/a", Dir: "/m/a", GoFiles: []string{"a.go"},
		Error: &struct{ Pos, Err string }{"", "# m/a\na/a.go:4:9: cannot use \"a\"\n\thave string\n./a/a.go:7: undefined: x\n/m/a/a.go:9:1: missing return"}}
	goEmbed := &goPackage{ImportPath: "m/b", Dir: "/m/b", GoFiles: []string{"b.go"},
		Error: &struct{ Pos, Err string }{"b/b.go:5:12", "pattern banner.txt: no matching files found"}}

	py, err := parsePyright(dir, pyright)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := parseTsc(dir, tsc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		got     *truth
		want    map[string][]int
		partial []string
	}{
		{"pyright", py, map[string][]int{"pkg/a.py": {3}}, nil},
		{"tsc", ts, map[string][]int{"src/b.ts": {2}, "src/c.ts": {10}}, nil},
		{"clang", parseClang(dir, "src/main.c", clang, nil), map[string][]int{"include/b.h": {3, 4}, "src/main.c": {3, 9}}, nil},
		{"clang fatal", parseClang(dir, "src/math.c", fatal, nil), map[string][]int{"src/math.c": {1}}, []string{"src/math.c"}},
		{"clang past the line's end", parseClang(dir, "a.h", eol, snapshot{"a.h": "struct p {\n\tint x;\n}\n\nint f(void);\n"}),
			map[string][]int{"a.h": {3, 5}}, nil},
		{"go", goTruth(dir, []*goPackage{goErr}), map[string][]int{"a/a.go": {4, 7, 9}}, nil},
		{"go, an error go list places", goTruth(dir, []*goPackage{goEmbed}), map[string][]int{"b/b.go": {5}}, nil},
	} {
		got := make(map[string][]int)
		for f := range tc.got.errs {
			got[f] = tc.got.lines(f)
		}
		if !maps.EqualFunc(got, tc.want, slices.Equal) || !slices.Equal(slices.Sorted(maps.Keys(tc.got.partial)), tc.partial) {
			t.Errorf("%s: errors %v, partial %v; want %v, %v", tc.name, got, tc.got.partial, tc.want, tc.partial)
		}
	}
	if _, err := parseTsc(dir, "error TS18003: No inputs were found in config file.\n"); err == nil {
		t.Error("parseTsc took an error without a file")
	}
}

// TestGoUnknown marks what the go command could not check when a package
// fails: its importers, its own tests, and an external test package
// after its internal tests failed.
func TestGoUnknown(t *testing.T) {
	pkg := func(path string, files, tests, xtests []string, imports, testImports []string, err string) *goPackage {
		p := &goPackage{ImportPath: "m/" + path, Dir: "/m/" + path, GoFiles: files, TestGoFiles: tests, XTestGoFiles: xtests,
			Imports: imports, XTestImports: testImports}
		if err != "" {
			p.Error = &struct{ Pos, Err string }{Err: err}
		}
		return p
	}
	all := []*goPackage{
		pkg("a", []string{"a.go"}, nil, []string{"a_x_test.go"}, nil, []string{"m/a"}, "a/a.go:3:1: bad"),
		pkg("b", []string{"b.go"}, []string{"b_test.go"}, []string{"b_x_test.go"}, []string{"m/a"}, []string{"m/b"}, ""),
		pkg("c", []string{"c.go"}, []string{"c_test.go"}, []string{"c_x_test.go"}, nil, []string{"m/c"}, ""),
		{ImportPath: "m/c [m/c.test]", ForTest: "m/c", Dir: "/m/c", Error: &struct{ Pos, Err string }{Err: "c/c_test.go:5:1: bad"}},
	}
	got := slices.Sorted(maps.Keys(goTruth("/m", all).unknown))
	want := []string{"a/a_x_test.go", "b/b.go", "b/b_test.go", "b/b_x_test.go", "c/c_x_test.go"}
	if !slices.Equal(got, want) {
		t.Errorf("unknown = %v, want %v", got, want)
	}
}

// TestSedScript runs sedScript's commands through the real sed.
func TestSedScript(t *testing.T) {
	if _, _, err := runTool(context.Background(), "", os.Environ(), "sed", "--version"); err != nil {
		t.Skip("sed not installed")
	}
	for _, s := range []sub{
		{"return a + b;", "return a + b.x;"},
		{"(${initials(user.name)})", "(${initial(user.name)})"},
		{`w := &Weighted{size: n}`, `w := &Weighted{size: "n"}`},
		{"a|b.*[c]^$\\d", "x&y\\z|#%"},
		{"it's", "it is"},
	} {
		dir := t.TempDir()
		text := "first\n\t" + s.old + " tail\nlast\n"
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := fmt.Sprintf("sed -i %s f", shellQuote(sedScript([]sub{s})))
		if out, code, err := runTool(context.Background(), dir, os.Environ(), "sh", "-c", cmd); err != nil || code != 0 {
			t.Fatalf("%s: exit %d, %v: %s", cmd, code, err, out)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "f"))
		if want := strings.Replace(text, s.old, s.new, 1); string(got) != want {
			t.Errorf("%s made %q, want %q", cmd, got, want)
		}
	}
}

// TestDiffMiddle names an Edit's old and new strings by whole lines.
func TestDiffMiddle(t *testing.T) {
	for _, tc := range []struct{ a, b, old, new string }{
		{"x\nabc\ny\n", "x\naXc\ny\n", "abc\n", "aXc\n"},
		{"x\ny\n", "x\nnew\ny\n", "", "new\n"},
		{"x\ngone\ny\n", "x\ny\n", "gone\n", ""},
		{"one", "two", "one", "two"},
	} {
		if old, new := diffMiddle(tc.a, tc.b); old != tc.old || new != tc.new {
			t.Errorf("diffMiddle(%q, %q) = %q, %q; want %q, %q", tc.a, tc.b, old, new, tc.old, tc.new)
		}
	}
}

// TestScheduleWith: SOAK_SCHEDULE's pairs replace the odds they name and
// leave the others; an unknown name or odds outside 0–1 are refused.
func TestScheduleWith(t *testing.T) {
	for _, tc := range []struct {
		pairs   string
		race    float64
		restart float64
		err     string
	}{
		{"", defaultSchedule.race, defaultSchedule.restart, ""},
		{"race=1", 1, defaultSchedule.restart, ""},
		{" race=1 , restart=0.7,", 1, 0.7, ""},
		{"races=1", 0, 0, `"races": no such odds`},
		{"race=2", 0, 0, `"race=2": want odds from 0 to 1`},
		{"race", 0, 0, `"race": want odds from 0 to 1`},
	} {
		s, err := defaultSchedule.with(tc.pairs)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("with(%q): error %v, want one saying %s", tc.pairs, err, tc.err)
			}
		case err != nil || s.race != tc.race || s.restart != tc.restart || s.maxDelay != defaultSchedule.maxDelay:
			t.Errorf("with(%q) = race %v, restart %v, maxDelay %v, %v; want %v, %v, %v", tc.pairs, s.race, s.restart, s.maxDelay, err,
				tc.race, tc.restart, defaultSchedule.maxDelay)
		}
	}
}
