package parsers

import (
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseCargoShort(t *testing.T) {
	runToolCases(t, "cargo-short", ParseCargoShort, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "clean build", in: "    Checking p v0.1.0 (/p)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.20s\n", want: nil},
		{
			name: "levels, codes, dedupe, summaries",
			in: "   Compiling p v0.1.0 (/p)\n" +
				"src/lib.rs:3:37: error[E0308]: mismatched types: expected `i32`, found `&str`\n" +
				"src/lib.rs:3:37: error[E0308]: mismatched types: expected `i32`, found `&str`\n" +
				"src/main.rs:8:5: warning: unneeded `return` statement\n" +
				"src/main.rs:9:1: note: a note\r\n" +
				"src/main.rs:9:2: help: some help\n" +
				"error: linking with `cc` failed: exit status: 1\n" +
				"warning: `p` (lib) generated 1 warning\n" +
				"error: could not compile `p` (lib) due to 1 previous error\n",
			want: []diag.Diagnostic{
				{Path: "src/lib.rs", Line: 3, Column: 37, Severity: diag.SeverityError, Code: "E0308", Message: "mismatched types: expected `i32`, found `&str`"},
				{Path: "src/main.rs", Line: 8, Column: 5, Severity: diag.SeverityWarning, Message: "unneeded `return` statement"},
				{Path: "src/main.rs", Line: 9, Column: 1, Severity: diag.SeverityInfo, Message: "a note"},
				{Path: "src/main.rs", Line: 9, Column: 2, Severity: diag.SeverityHint, Message: "some help"},
			},
		},
		{name: "human format", in: "error[E0308]: mismatched types\n --> src/lib.rs:3:37\n  |\n", wantErr: "human format"},
		{name: "column too large", in: "src/lib.rs:3:99999999999999999999: error: m\n", wantErr: "out of range"},
	})
}

func TestDetectCargoShort(t *testing.T) {
	runDetectCases(t, detectCargoShort, []detectCase{
		{"error with code", "    Checking p\nsrc/lib.rs:3:37: error[E0308]: mismatched types\n", true},
		{"warning", "src/lib.rs:8:5: warning: unneeded `return` statement\n", true},
		{"gcc on a C file", "a.c:3:5: error: expected ';'\n", false},
		{"mypy", "a.py:3:5: error: m  [misc]\n", false},
	})
}
