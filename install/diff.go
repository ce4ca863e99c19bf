package install

import (
	"bytes"
	"fmt"
	"strings"
)

// This file writes the unified diff `lsp-hook install --dry-run` prints.
// It is a small line diff rather than a library: config files are short,
// an install or uninstall changes one region of them, and the only
// consumer is a person reading the preview, so ~100 lines of code beat a
// new dependency (the Go standard library has none; x/tools' diff is
// internal). Common leading and trailing lines are trimmed first, then
// the changed middle is aligned by a longest-common-subsequence table,
// which is tiny in practice; a middle over diffMaxLCSCells cells is shown as
// removed-then-added instead of being aligned.

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// diffMaxLCSCells bounds the LCS table (lines × lines) of the changed region.
const diffMaxLCSCells = 4 << 20

// diffLine is one line of an edit script: ' ' kept, '-' removed, '+' added.
type diffLine struct {
	op   byte
	text string
}

// unifiedDiff returns the unified diff from a (labelled oldName) to b
// (labelled newName), "" when they are equal. A file without a final
// newline gets the usual "\ No newline at end of file" marker.
func unifiedDiff(oldName, newName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	script := diffScript(diffSplitLines(a), diffSplitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	for start := 0; start < len(script); {
		// Find the next change and the hunk around it.
		for start < len(script) && script[start].op == ' ' {
			start++
		}
		if start == len(script) {
			break
		}
		lo := max(start-diffContext, 0)
		hi := start
		for hi < len(script) {
			if script[hi].op != ' ' {
				hi++
				continue
			}
			run := hi
			for run < len(script) && script[run].op == ' ' {
				run++
			}
			if run == len(script) || run-hi > 2*diffContext {
				hi = min(hi+diffContext, len(script))
				break
			}
			hi = run
		}
		diffWriteHunk(&out, script, lo, hi)
		start = hi
	}
	return out.String()
}

// diffWriteHunk writes script[lo:hi] with its @@ header.
func diffWriteHunk(out *strings.Builder, script []diffLine, lo, hi int) {
	oldStart, newStart := 1, 1
	for _, l := range script[:lo] {
		if l.op != '+' {
			oldStart++
		}
		if l.op != '-' {
			newStart++
		}
	}
	oldN, newN := 0, 0
	for _, l := range script[lo:hi] {
		if l.op != '+' {
			oldN++
		}
		if l.op != '-' {
			newN++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", diffHunkRange(oldStart, oldN), diffHunkRange(newStart, newN))
	for _, l := range script[lo:hi] {
		text, noEOL := strings.CutSuffix(l.text, "\x00")
		fmt.Fprintf(out, "%c%s\n", l.op, text)
		if noEOL {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

// diffHunkRange formats a hunk's start and length as diff(1) does: an empty
// range starts at the line before it.
func diffHunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// diffSplitLines splits b into lines without their "\n"; a last line without
// one ends in "\x00", so that it differs from the same text with one.
func diffSplitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if t, ok := strings.CutSuffix(l, "\n"); ok {
			lines[i] = t
		} else {
			lines[i] = l + "\x00"
		}
	}
	return lines
}

// diffScript returns an edit script turning a into b.
func diffScript(a, b []string) []diffLine {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var script []diffLine
	for _, l := range a[:pre] {
		script = append(script, diffLine{' ', l})
	}
	script = append(script, diffMiddle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		script = append(script, diffLine{' ', l})
	}
	return script
}

// diffMiddle aligns a and b by their longest common subsequence.
func diffMiddle(a, b []string) []diffLine {
	var script []diffLine
	if len(a)*len(b) > diffMaxLCSCells || len(a) == 0 || len(b) == 0 {
		for _, l := range a {
			script = append(script, diffLine{'-', l})
		}
		for _, l := range b {
			script = append(script, diffLine{'+', l})
		}
		return script
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			script = append(script, diffLine{' ', a[i]})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			script = append(script, diffLine{'-', a[i]})
			i++
		default:
			script = append(script, diffLine{'+', b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		script = append(script, diffLine{'-', a[i]})
	}
	for ; j < len(b); j++ {
		script = append(script, diffLine{'+', b[j]})
	}
	return script
}
