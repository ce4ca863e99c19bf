package main

import (
	"strings"
	"testing"
)

// TestParsePeerOutput: the peer's answers as cli-lsp-client 1.24.0 printed
// them in the bench (captured from its claude-code-hook and diagnostics
// commands), and the shapes it must refuse.
func TestParsePeerOutput(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []peerDiag
		wantErr string
	}{
		{name: "clean", out: "", want: nil},
		{
			name: "gopls",
			out:  "[compiler] ERROR at line 12, column 24: cannot use \"1\" (untyped string constant) as int value in variable declaration [IncompatibleAssign]\n",
			want: []peerDiag{{source: "compiler", severity: "ERROR", line: 12, column: 24,
				message: `cannot use "1" (untyped string constant) as int value in variable declaration [IncompatibleAssign]`}},
		},
		{
			name: "diagnostics command, coloured",
			out:  "[compiler] \x1b[31mERROR\x1b[0m at line 12, column 24: cannot use \"1\" [IncompatibleAssign]\n",
			want: []peerDiag{{source: "compiler", severity: "ERROR", line: 12, column: 24, message: `cannot use "1" [IncompatibleAssign]`}},
		},
		{
			name: "pyright, message continued",
			out: "[Pyright] ERROR at line 10, column 23: Type \"Literal['1']\" is not assignable to declared type \"int\"\n" +
				"  \"Literal['1']\" is not assignable to \"int\" [reportAssignmentType]\n",
			want: []peerDiag{{source: "Pyright", severity: "ERROR", line: 10, column: 23,
				message: "Type \"Literal['1']\" is not assignable to declared type \"int\"\n\"Literal['1']\" is not assignable to \"int\" [reportAssignmentType]"}},
		},
		{
			name: "pyright, no-break-space indent",
			out:  "[Pyright] ERROR at line 10, column 23: Type mismatch\n\u00a0\u00a0\"Literal['0']\" is not assignable to \"int\"\n",
			want: []peerDiag{{source: "Pyright", severity: "ERROR", line: 10, column: 23, message: "Type mismatch\n\"Literal['0']\" is not assignable to \"int\""}},
		},
		{
			name: "two, no source",
			out:  "WARNING at line 3, column 1: unused\nERROR at line 8, column 14: Type 'string' is not assignable to type 'number'. [2322]\n",
			want: []peerDiag{{severity: "WARNING", line: 3, column: 1, message: "unused"},
				{severity: "ERROR", line: 8, column: 14, message: "Type 'string' is not assignable to type 'number'. [2322]"}},
		},
		{name: "not a diagnostic", out: "Failed to start LSP daemon.\n", wantErr: "not a diagnostic"},
		{name: "continuation first", out: "  stray\n", wantErr: "not a diagnostic"},
		{name: "line 0", out: "ERROR at line 0, column 1: x\n", wantErr: "bad position"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePeerOutput(tt.out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("diagnostic %d:\n got %+v\nwant %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestCheckPeer: the peer's answers are judged as lsp-hook's are.
func TestCheckPeer(t *testing.T) {
	errOn := func(line int) peerAnswer {
		return peerAnswer{code: 2, diags: []peerDiag{{severity: "ERROR", line: line, column: 1}}}
	}
	tests := []struct {
		name   string
		a      peerAnswer
		broken bool
		want   string // "" or a part of the problem
	}{
		{"error reported", errOn(12), true, ""},
		{"error missed", peerAnswer{}, true, "not reported"},
		{"error on another line", errOn(3), true, "not reported"},
		{"warning only", peerAnswer{code: 2, diags: []peerDiag{{severity: "WARNING", line: 12}}}, true, "not reported"},
		{"fix clean", peerAnswer{}, false, ""},
		{"fix, other line's error", errOn(3), false, ""},
		{"fix stale", errOn(12), false, "stale"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkPeer(tt.a, 12, tt.broken)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("checkPeer = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzParsePeerOutput: any output parses or is refused, never panics, and
// every diagnostic it yields has a 1-based position.
func FuzzParsePeerOutput(f *testing.F) {
	f.Add("[compiler] ERROR at line 12, column 24: x [y]\n  more\n")
	f.Add("ERROR at line 1, column 1:\n")
	f.Add("\x1b[31mHINT\x1b[0m at line 99999999999999999999, column 2: z")
	f.Fuzz(func(t *testing.T, out string) {
		diags, err := parsePeerOutput(out)
		if err != nil {
			return
		}
		for _, d := range diags {
			if d.line < 1 || d.column < 1 {
				t.Fatalf("position %d:%d from %q", d.line, d.column, out)
			}
		}
	})
}

// TestDescendantsRefusesInit: the tree under pid 0 or 1 is every process
// of the machine; reaping it once killed them all (status --json's pid 0
// taken for a daemon's), so descendants gives none.
func TestDescendantsRefusesInit(t *testing.T) {
	for _, root := range []int{-1, 0, 1} {
		if got := descendants(root); len(got) != 0 {
			t.Errorf("descendants(%d) = %d processes, want none", root, len(got))
		}
	}
}
