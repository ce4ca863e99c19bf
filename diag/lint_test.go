package diag

import (
	"fmt"
	"strings"
	"testing"
)

func manyDiags(path string, n int) FileDiagnostics {
	f := FileDiagnostics{Path: "/r/" + path, Rel: path}
	for i := 1; i <= n; i++ {
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Path: "/r/" + path, Line: i, Column: 1, Severity: SeverityError, Message: fmt.Sprintf("problem %d", i)})
	}
	return f
}

func TestLintBlockCaps(t *testing.T) {
	long := manyDiags("long.go", 1)
	long.Diagnostics[0].Message = strings.Repeat("x", 20000)
	tests := []struct {
		name          string
		changed       []FileDiagnostics
		others        []FileDiagnostics
		lim           Limits
		wantContains  []string
		wantAbsent    []string
		wantMaxLines  int
		wantMaxChars  int
		wantEmpty     bool
		wantBalancedT bool
	}{
		{name: "empty", wantEmpty: true},
		{name: "files without diagnostics", changed: []FileDiagnostics{{Path: "/r/a", Rel: "a"}}, wantEmpty: true},
		{
			name: "per file cap", changed: []FileDiagnostics{manyDiags("a.go", 25)},
			wantContains: []string{"ERROR [20:1] problem 20", "... and 5 more"}, wantAbsent: []string{"problem 21"},
			wantBalancedT: true,
		},
		{
			name: "other files cap", changed: []FileDiagnostics{manyDiags("a.go", 1)},
			others:       []FileDiagnostics{manyDiags("b1.go", 1), manyDiags("b2.go", 1), manyDiags("b3.go", 1), manyDiags("b4.go", 1), manyDiags("b5.go", 1), manyDiags("b6.go", 1), manyDiags("b7.go", 1)},
			wantContains: []string{"b5.go", "... and 2 more files with errors"}, wantAbsent: []string{"b6.go"},
			wantBalancedT: true,
		},
		{
			name: "line cap", changed: []FileDiagnostics{manyDiags("a.go", 20), manyDiags("b.go", 20), manyDiags("c.go", 20)},
			wantMaxLines: 50, wantContains: []string{"output truncated"}, wantBalancedT: true,
		},
		{
			name: "char cap", changed: []FileDiagnostics{long},
			wantMaxChars: 10000, wantContains: []string{"output truncated"}, wantBalancedT: true,
		},
		{
			name: "batch header", changed: []FileDiagnostics{manyDiags("a.go", 1), manyDiags("b.go", 1)},
			wantContains: []string{headerTheseFiles}, wantBalancedT: true,
		},
		{
			name: "escaped path", changed: []FileDiagnostics{manyDiags("a<b>.go", 1)},
			wantContains: []string{`file="a&lt;b&gt;.go"`}, wantBalancedT: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LintBlock(tt.changed, tt.others, tt.lim)
			if tt.wantEmpty {
				if got != "" {
					t.Fatalf("want empty block, got:\n%s", got)
				}
				return
			}
			for _, s := range tt.wantContains {
				if !strings.Contains(got, s) {
					t.Errorf("block lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tt.wantAbsent {
				if strings.Contains(got, s) {
					t.Errorf("block has %q:\n%s", s, got)
				}
			}
			if n := strings.Count(got, "\n") + 1; tt.wantMaxLines > 0 && n > tt.wantMaxLines {
				t.Errorf("block has %d lines, cap %d", n, tt.wantMaxLines)
			}
			if tt.wantMaxChars > 0 && len(got) > tt.wantMaxChars {
				t.Errorf("block has %d chars, cap %d", len(got), tt.wantMaxChars)
			}
			if tt.wantBalancedT && strings.Count(got, "<diagnostics ") != strings.Count(got, "</diagnostics>") {
				t.Errorf("unbalanced <diagnostics> tags:\n%s", got)
			}
		})
	}
}

func TestSortDedupe(t *testing.T) {
	in := []Diagnostic{
		{Path: "/a", Line: 2, Column: 1, Severity: SeverityWarning, Message: "m", Source: "vet"},
		{Path: "/a", Line: 1, Column: 5, Severity: SeverityError, Message: "x"},
		{Path: "/a", Line: 2, Column: 1, Severity: SeverityError, Message: "m", Source: "gopls"},
		{Path: "/a", Line: 1, Column: 5, Severity: SeverityError, Message: "x"},
	}
	got := SortDedupe(in)
	if len(got) != 2 {
		t.Fatalf("got %d diagnostics, want 2: %+v", len(got), got)
	}
	if got[0].Line != 1 || got[1].Line != 2 || got[1].Severity != SeverityError || got[1].Source != "gopls" {
		t.Errorf("wrong order or kept the weaker duplicate: %+v", got)
	}
}

func TestParseSeverity(t *testing.T) {
	for in, want := range map[string]Severity{"error": SeverityError, "WARN": SeverityWarning, "warning": SeverityWarning, "info": SeverityInfo, "hint": SeverityHint} {
		got, err := ParseSeverity(in)
		if err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil || !strings.Contains(err.Error(), `"fatal"`) {
		t.Errorf("ParseSeverity(fatal) error = %v, want one naming the input", err)
	}
}

// TestPlainLintBlockSurvivesGemini: Gemini CLI's escaping of hook context
// (every < to &lt;, every > to &gt;; packages/core/src/hooks/types.ts)
// leaves PlainLintBlock's text unchanged, whatever the paths and messages
// hold, and the text keeps one section per file.
func TestPlainLintBlockSurvivesGemini(t *testing.T) {
	gemini := strings.NewReplacer("<", "&lt;", ">", "&gt;")
	files := []FileDiagnostics{
		{Rel: `a<b>&"c".go`, Diagnostics: []Diagnostic{{Line: 1, Column: 1, Severity: SeverityError, Message: "x <- y && a > b &lt;", Code: "<c>"}}},
		{Rel: "d.go", Diagnostics: []Diagnostic{{Line: 2, Column: 3, Severity: SeverityError, Message: "func[T any](<-chan T)"}}},
	}
	for _, block := range []string{
		LintBlock(files, nil, Limits{}),
		LintBlock(files[:1], files[1:], Limits{}),
		LintBlock(files, nil, Limits{MaxLines: 4}),
		"lsp-hook: gopls <timeout> & more",
	} {
		plain := PlainLintBlock(block)
		if got := gemini.Replace(plain); got != plain {
			t.Errorf("Gemini CLI rewrites PlainLintBlock(%q):\n%s\nto\n%s", block, plain, got)
		}
		if strings.Count(plain, "diagnostics for ") != strings.Count(block, "<diagnostics file=") {
			t.Errorf("PlainLintBlock(%q) = %q: sections lost", block, plain)
		}
	}
	got := PlainLintBlock(LintBlock(files[:1], nil, Limits{}))
	want := "LSP errors detected in this file, please fix:\n" +
		"diagnostics for a＜b＞&\"c\".go:\n" +
		"ERROR [1:1] x ＜- y && a ＞ b &lt; (＜c＞)"
	if got != want {
		t.Errorf("PlainLintBlock = %q, want %q", got, want)
	}
}

// TestWithoutFiles: the block WithoutFiles leaves is the block LintBlock
// renders for the files not dropped, whichever section the dropped ones
// were in; a cut block keeps its truncation line.
func TestWithoutFiles(t *testing.T) {
	f := func(rel string, line int) FileDiagnostics {
		return FileDiagnostics{Rel: rel, Diagnostics: []Diagnostic{{Line: line, Column: 1, Severity: SeverityError, Message: "m"}}}
	}
	a, b, c, d, odd := f("a.go", 1), f("b.go", 2), f("c.go", 3), f("d.go", 4), f(`x<"y">.go`, 5)
	note := "\nlsp-hook: a note"
	many := []FileDiagnostics{b, c, d, f("e.go", 5), f("f.go", 6), f("g.go", 7)}
	tests := []struct {
		name               string
		changed, others    []FileDiagnostics
		drop               []string
		wantChanged, wantO []FileDiagnostics
		suffix             string
	}{
		{name: "nothing dropped", changed: []FileDiagnostics{a}, others: []FileDiagnostics{b}, drop: []string{"z.go"},
			wantChanged: []FileDiagnostics{a}, wantO: []FileDiagnostics{b}},
		{name: "the changed file: its header goes, the others stay", changed: []FileDiagnostics{a}, others: []FileDiagnostics{b, c}, drop: []string{"a.go"},
			wantO: []FileDiagnostics{b, c}},
		{name: "one of two changed files: these files read this file", changed: []FileDiagnostics{a, b}, others: []FileDiagnostics{c}, drop: []string{"a.go"},
			wantChanged: []FileDiagnostics{b}, wantO: []FileDiagnostics{c}},
		{name: "an other file", changed: []FileDiagnostics{a}, others: []FileDiagnostics{b, c}, drop: []string{"b.go"},
			wantChanged: []FileDiagnostics{a}, wantO: []FileDiagnostics{c}},
		{name: "every file, a note left", changed: []FileDiagnostics{a}, others: []FileDiagnostics{b}, drop: []string{"a.go", "b.go"}, suffix: note},
		{name: "a path LintBlock escapes", changed: []FileDiagnostics{odd}, others: []FileDiagnostics{b}, drop: []string{odd.Rel},
			wantO: []FileDiagnostics{b}, suffix: note},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WithoutFiles(LintBlock(tt.changed, tt.others, Limits{})+tt.suffix, tt.drop)
			want := LintBlock(tt.wantChanged, tt.wantO, Limits{}) + tt.suffix
			if want == tt.suffix {
				want = strings.TrimPrefix(tt.suffix, "\n")
			}
			if got != want {
				t.Errorf("WithoutFiles = %q\nwant           %q", got, want)
			}
		})
	}
	t.Run("more other files than listed: the header stays", func(t *testing.T) {
		block := LintBlock(nil, many, Limits{})
		got := WithoutFiles(block, []string{"b.go", "c.go", "d.go", "e.go", "f.go"})
		if want := "LSP errors detected in other files:\n... and 1 more files with errors"; got != want {
			t.Errorf("WithoutFiles = %q, want %q", got, want)
		}
	})
	t.Run("a cut section dropped keeps the truncation line", func(t *testing.T) {
		block := LintBlock([]FileDiagnostics{a}, []FileDiagnostics{{Rel: "b.go", Diagnostics: []Diagnostic{
			{Line: 1, Column: 1, Severity: SeverityError, Message: "m"}, {Line: 2, Column: 1, Severity: SeverityError, Message: "m"},
			{Line: 3, Column: 1, Severity: SeverityError, Message: "m"}}}}, Limits{MaxLines: 7})
		if !strings.Contains(block, truncatedLine) {
			t.Fatalf("the block is not cut: %q", block)
		}
		got := WithoutFiles(block, []string{"b.go"})
		if want := LintBlock([]FileDiagnostics{a}, nil, Limits{}) + "\n" + truncatedLine; got != want {
			t.Errorf("WithoutFiles = %q, want %q", got, want)
		}
	})
}
