package parsers

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseGolangciLint(t *testing.T) {
	issue := func(linter, text, sev string, line, col int) string {
		return `{"FromLinter":"` + linter + `","Text":"` + text + `","Severity":"` + sev +
			`","SourceLines":["x"],"Pos":{"Filename":"a.go","Offset":1,"Line":` +
			strconv.Itoa(line) + `,"Column":` + strconv.Itoa(col) + `},"ExpectNoLint":false,"ExpectedNoLintLinter":""}`
	}
	long := strings.Repeat("y", 100<<10)
	runToolCases(t, "golangci-lint", ParseGolangciLint, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "no issues, v2 summary after", in: `{"Issues":[],"Report":{"Linters":[]}}` + "\n0 issues.\n", want: nil},
		{name: "null issues", in: `{"Issues":null}`, want: nil},
		{
			name: "severities",
			in: `{"Issues":[` + issue("errcheck", "e", "", 3, 4) + "," + issue("govet", "w", "warning", 5, 0) + "," +
				issue("unused", "i", "info", 6, 1) + "," + issue("revive", "m", "major", 7, 2) + `],"Report":{}}` +
				"\r\n4 issues:\r\n* errcheck: 1\r\n",
			want: []diag.Diagnostic{
				{Path: "a.go", Line: 3, Column: 4, Severity: diag.SeverityError, Code: "errcheck", Message: "e"},
				{Path: "a.go", Line: 5, Severity: diag.SeverityWarning, Code: "govet", Message: "w"},
				{Path: "a.go", Line: 6, Column: 1, Severity: diag.SeverityInfo, Code: "unused", Message: "i"},
				{Path: "a.go", Line: 7, Column: 2, Severity: diag.SeverityError, Code: "revive", Message: "m"},
			},
		},
		{
			name: "typecheck positions come from the text",
			in: `{"Issues":[` + issue("typecheck", `: # m/a\na/a.go:6:2: declared and not used: x\na/a.go:9:1: missing return`, "", 1, 0) + "," +
				issue("typecheck", "could not load packages", "", 1, 0) + `]}`,
			want: []diag.Diagnostic{
				{Path: "a/a.go", Line: 6, Column: 2, Severity: diag.SeverityError, Code: "typecheck", Message: "declared and not used: x"},
				{Path: "a/a.go", Line: 9, Column: 1, Severity: diag.SeverityError, Code: "typecheck", Message: "missing return"},
				{Path: "a.go", Line: 1, Severity: diag.SeverityError, Code: "typecheck", Message: "could not load packages"},
			},
		},
		{
			name: "log lines before the report, a long text",
			in:   "level=warning msg=\"[runner] deprecated\"\n" + `{"Issues":[` + issue("lll", long, "", 1, 1) + `]}`,
			want: []diag.Diagnostic{{Path: "a.go", Line: 1, Column: 1, Severity: diag.SeverityError, Code: "lll", Message: long}},
		},
		{name: "no report", in: "Error: can't load config\n", wantErr: "no JSON report"},
		{name: "no Issues key", in: `{"Report":{}}`, wantErr: "no Issues"},
		{name: "Issues not a list", in: `{"Issues":{}}`, wantErr: "Issues"},
		{name: "negative line", in: `{"Issues":[` + issue("x", "m", "", -1, 1) + `]}`, wantErr: "out of range"},
		{name: "truncated", in: `{"Issues":[`, wantErr: "unexpected EOF"},
	})
}

func TestDetectGolangciLint(t *testing.T) {
	runDetectCases(t, detectGolangciLint, []detectCase{
		{"v1/v2", `{"Issues":[{"FromLinter":"govet","Text":"x"}]}`, true},
		{"empty", `{"Issues":[],"Report":{}}`, true},
		{"after a log line", "level=warning msg=x\n" + `{"Issues":[]}`, true},
		{"BOM and spaces", "\ufeff  " + `{"Issues":[]}`, true},
		{"other JSON", `{"issues":[]}`, false},
		{"go build", "# m\na.go:1:2: x\n", false},
	})
}
