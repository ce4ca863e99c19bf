package mcp

import (
	"fmt"
	"strings"
)

// Unified diffs of a proposed edit (rename, code action), as `diff -u`
// and `git diff` print them: "--- a/rel" and "+++ b/rel" headers, hunks
// "@@ -l,n +l,n @@" with 1-based line numbers and three lines of context.
// Lines are compared whole; a file whose last line has no newline gets
// "\ No newline at end of file" after it, as GNU diff writes it.

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// maxDiffD bounds the edit distance the diff searches for (Myers' D): past
// it the differing middle of the files is shown as one replacement.
const maxDiffD = 4000

// op is one line of an edit script: ' ' kept, '-' removed, '+' added;
// a and b are its 0-based line numbers in the old and new text.
type op struct {
	kind rune
	a, b int
}

// splitLines splits text into lines, each keeping its "\n" (the last may
// have none).
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// unifiedDiff returns the unified diff turning old into new, with the file
// named oldName and newName in the headers ("/dev/null" for a created or
// deleted file); "" when the texts are equal and the names too.
func unifiedDiff(oldName, newName, old, new string) string {
	if old == new && oldName == newName {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	ops := lineOps(a, b)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext lines before this change to
		// diffContext lines after the last change within 2*diffContext.
		start := max(i-diffContext, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*diffContext {
				break
			}
		}
		end = min(end+diffContext, len(ops))
		writeHunk(&out, ops[start:end], a, b)
		i = end
	}
	return out.String()
}

// writeHunk writes one hunk of ops.
func writeHunk(out *strings.Builder, ops []op, a, b []string) {
	aStart, bStart, aN, bN := -1, -1, 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			if aStart < 0 {
				aStart = o.a
			}
			aN++
		}
		if o.kind != '-' {
			if bStart < 0 {
				bStart = o.b
			}
			bN++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aN, ops[0].a), hunkRange(bStart, bN, ops[0].b))
	for _, o := range ops {
		line := ""
		switch o.kind {
		case '+':
			line = b[o.b]
		default:
			line = a[o.a]
		}
		out.WriteRune(o.kind)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange renders "l,n" for n lines from 0-based line start; an empty
// range is "l,0" naming the line before it (at, 0-based, is where the hunk
// begins on that side).
func hunkRange(start, n, at int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", at)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// lineOps returns an edit script from a to b: the common prefix and
// suffix kept, the middle by Myers' O(ND) algorithm, or replaced whole
// when more than maxDiffD lines differ.
func lineOps(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		ops = append(ops, op{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// myers returns the shortest edit script from a to b (E. Myers, "An O(ND)
// Difference Algorithm and Its Variations", 1986), line numbers offset by
// ao and bo; removals come before additions within a change.
func myers(a, b []string, ao, bo int) []op {
	n, m := len(a), len(b)
	replace := func() []op {
		var ops []op
		for i := range a {
			ops = append(ops, op{'-', ao + i, bo})
		}
		for j := range b {
			ops = append(ops, op{'+', ao + n, bo + j})
		}
		return ops
	}
	if n == 0 || m == 0 {
		return replace()
	}
	maxD := min(n+m, maxDiffD)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		return replace()
	}
	// Walk back through the trace, collecting ops in reverse.
	var rev []op
	x, y := n, m
	for d := found; d > 0; d-- {
		pv := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && pv[off+k-1] < pv[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := pv[off+pk]
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, op{' ', ao + x, bo + y})
		}
		if x == px {
			y--
			rev = append(rev, op{'+', ao + x, bo + y})
		} else {
			x--
			rev = append(rev, op{'-', ao + x, bo + y})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', ao + x, bo + y})
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}
