package diag

import (
	"strings"
	"testing"
)

// TestLineHashes pins lineHashes to the values github/codeql-action's own
// hash function (src/fingerprints.ts, run under Node.js with the long
// package it uses) gives for the same files: CRLF and lone CR line ends,
// tabs and spaces skipped, characters outside the BMP, repeated lines, an
// empty file.
func TestLineHashes(t *testing.T) {
	tests := []struct {
		text string
		want []string // by line, from 1
	}{
		{"package main\n\nfunc main() {\n\tx := 1\n}\n", []string{
			"de4feb83495d8330:1", "714949cd8917317d:1", "677784aed13994a7:1",
			"4347f04c223ffdcc:1", "32dce9ccfdbc9d3e:1", "c129715d7a2bc9a3:1"}},
		{"a\r\nb\r\n\r\nb\rc\n\t  b\n😀 é tail\n", []string{
			"c0f3480e5933402f:1", "cd63ace6706131b8:1", "22c4ce3101e62004:1", "e51a70f47220e2a:1",
			"5b6392956f40fda6:1", "508decb89983f46d:1", "8fb4190efcc959f1:1", "c129715d7a2bc9a3:1"}},
		{"", []string{"c129715d7a2bc9a3:1"}},
	}
	for _, tt := range tests {
		got := lineHashes(tt.text)
		if len(got) != len(tt.want) {
			t.Errorf("lineHashes(%q) has %d lines, want %d: %v", tt.text, len(got), len(tt.want), got)
			continue
		}
		for i, w := range tt.want {
			if got[i+1] != w {
				t.Errorf("lineHashes(%q) line %d = %q, want %q", tt.text, i+1, got[i+1], w)
			}
		}
	}
	// Lines whose next 100 characters are identical share a hash and are
	// counted apart.
	same := lineHashes(strings.Repeat("x\n", 60))
	for line, want := range map[int]string{1: "c0fe7b2700d6c254:1", 2: "c0fe7b2700d6c254:2", 11: "c0fe7b2700d6c254:11",
		12: "c0fe7b2700fbb0cd:1", 60: "828973aa50c68d6d:1", 61: "c129715d7a2bc9a3:1"} {
		if same[line] != want {
			t.Errorf("repeated lines: line %d = %q, want %q", line, same[line], want)
		}
	}
}
