package engine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// This file is only_new's matching rule (see onlynew.go): which of a
// file's current diagnostics its baseline does not account for.

// positionRef matches a line:column reference inside a message.
var positionRef = lazyre.New(`\b\d+:\d+\b`)

// ErrorKey is what tells one diagnostic from another across the changes
// of a session (session.Registry.RecordMade, MadeBy): its path, source,
// code, severity and message (line:column references in it masked), as
// the rule at the top of this file compares them; its line, which edits
// move, is not part of it.
func ErrorKey(d diag.Diagnostic) string {
	msg := positionRef().ReplaceAllString(strings.TrimSpace(d.Message), "#:#")
	return strings.Join([]string{d.Path, d.Source, d.Code, d.Severity.String(), msg}, "\x00")
}

// introduced returns the diagnostics of cur that base does not account
// for, by the rule at the top of this file, in cur's order.
func introduced(base []baseDiag, cur []diag.Diagnostic) []diag.Diagnostic {
	before := make(map[string][]baseDiag) // ErrorKey → its occurrences in base
	for _, d := range base {
		k := ErrorKey(d.Diagnostic)
		before[k] = append(before[k], d)
	}
	now := make(map[string][]int) // ErrorKey → indexes into cur
	for i, d := range cur {
		k := ErrorKey(d)
		now[k] = append(now[k], i)
	}
	isNew := make([]bool, len(cur))
	for k, idx := range now {
		old := before[k]
		if len(idx) <= len(old) {
			continue
		}
		// Pair occurrences on mapped-equal lines first.
		free := make(map[int][]int) // line → indexes into cur not paired yet
		for _, i := range idx {
			free[cur[i].Line] = append(free[cur[i].Line], i)
		}
		paired := make(map[int]bool)
		var oldRest []int
		for _, d := range old {
			if f := free[d.Line]; d.mapped && len(f) > 0 {
				paired[f[0]] = true
				free[d.Line] = f[1:]
				continue
			}
			oldRest = append(oldRest, d.Line)
		}
		var rest []int
		for _, i := range idx {
			if !paired[i] {
				rest = append(rest, i)
			}
		}
		slices.SortFunc(rest, func(a, b int) int { return cmp.Compare(cur[a].Line, cur[b].Line) })
		slices.Sort(oldRest)
		lines := make([]int, len(rest))
		for i, j := range rest {
			lines[i] = cur[j].Line
		}
		for _, i := range unpaired(oldRest, lines) {
			isNew[rest[i]] = true
		}
	}
	var out []diag.Diagnostic
	for i, d := range cur {
		if isNew[i] {
			out = append(out, d)
		}
	}
	return out
}

// unpaired pairs every line of old (sorted) with one of cur (sorted,
// longer), in order, minimising the total distance, and returns the
// indexes of cur left over. Large groups, where the exact pairing would
// cost too much, are paired greedily: equal lines first, then in order.
func unpaired(old, cur []int) []int {
	n, m := len(old), len(cur)
	if n == 0 {
		out := make([]int, m)
		for i := range out {
			out[i] = i
		}
		return out
	}
	if n*m > 1_000_000 {
		return unpairedGreedy(old, cur)
	}
	// cost[i][j]: least total distance pairing old[:i] within cur[:j].
	const inf = int(^uint(0) >> 2)
	cost := make([][]int, n+1)
	for i := range cost {
		cost[i] = make([]int, m+1)
		for j := range cost[i] {
			if i > 0 {
				cost[i][j] = inf
			}
		}
	}
	for i := 1; i <= n; i++ {
		for j := i; j <= m; j++ {
			skip := cost[i][j-1]
			pair := cost[i-1][j-1] + abs(old[i-1]-cur[j-1])
			cost[i][j] = min(skip, pair)
		}
	}
	paired := make([]bool, m)
	for i, j := n, m; i > 0; j-- {
		if cost[i][j] == cost[i-1][j-1]+abs(old[i-1]-cur[j-1]) && (j-1 >= i-1) {
			paired[j-1] = true
			i--
		}
	}
	return unpairedIndexes(paired)
}

func unpairedGreedy(old, cur []int) []int {
	left := make(map[int]int) // line → old occurrences not yet paired
	for _, l := range old {
		left[l]++
	}
	paired := make([]bool, len(cur))
	rest := len(old)
	for j, l := range cur {
		if left[l] > 0 {
			left[l]--
			paired[j] = true
			rest--
		}
	}
	for j := range cur {
		if rest == 0 {
			break
		}
		if !paired[j] {
			paired[j] = true
			rest--
		}
	}
	return unpairedIndexes(paired)
}

// unpairedIndexes returns the indexes whose paired flag is false.
func unpairedIndexes(paired []bool) []int {
	var out []int
	for j, p := range paired {
		if !p {
			out = append(out, j)
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
