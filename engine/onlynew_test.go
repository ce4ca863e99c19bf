package engine

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// gitCommit makes root a git repository (if it is not one yet) and commits
// every file in it.
func gitCommit(t *testing.T, root string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "base"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// errorsText returns n fakelsp errors, one per line: "ERROR(E<i>): undefined: v<i>".
func errorsText(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "ERROR(E%d): undefined: v%d\n", i, i)
	}
	return b.String()
}

func onlyNew(v bool) *bool { return &v }

// TestOnlyNew300: a committed file with 300 errors gets one more, inserted
// at the top (moving every other error down a line): the block shows just
// the new one. The first touch takes its baseline from git HEAD; the next
// changes from lsp-hook's own last answer.
func TestOnlyNew300(t *testing.T) {
	e := fakeEngine(t, "normal")
	e.Config.OnlyNew = true
	base := errorsText(300)
	testdaemon.WriteFile(t, e.Root, "big.fake", base)
	gitCommit(t, e.Root)

	check := func(step, text string, want []string) {
		t.Helper()
		testdaemon.WriteFile(t, e.Root, "big.fake", text)
		res := e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: "big.fake"}}})
		if got := testdaemon.LintLines(res.Lint); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: lint lines = %q, want %q\n%s", step, got, want, res.Lint)
		}
		if len(res.Servers) != 1 || res.Servers[0].Freshness != "fresh" {
			t.Errorf("%s: servers = %+v", step, res.Servers)
		}
	}
	newTop := "ERROR(N1): undefined: fresh\n" + base
	check("one new error on top (baseline: git HEAD)", newTop, []string{"ERROR [1:1] undefined: fresh (N1)"})
	check("the same text again (baseline: last answer)", newTop, nil)
	// A second copy of a pre-existing error, far above the original: the
	// inserted line is the new one, though every later error moved.
	lines := strings.SplitAfter(newTop, "\n")
	dup := strings.Join(lines[:40], "") + "ERROR(E150): undefined: v150\n" + strings.Join(lines[40:], "")
	check("a duplicate of a pre-existing error", dup, []string{"ERROR [41:1] undefined: v150 (E150)"})
	check("the first new error fixed", strings.Replace(dup, "ERROR(N1): undefined: fresh\n", "", 1), nil)

	// only_new off for one request: everything, capped.
	res := e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: "big.fake"}}, OnlyNew: onlyNew(false)})
	if !strings.Contains(res.Lint, "... and 281 more") {
		t.Errorf("only_new: false: lint block:\n%s", res.Lint)
	}
}

// TestOnlyNewWithoutHistory: a file git does not track has no baseline (all
// of it is new); a tracked file equal to HEAD introduced nothing; a request
// can turn only_new on when the config leaves it off.
func TestOnlyNewWithoutHistory(t *testing.T) {
	e := fakeEngine(t, "normal")
	testdaemon.WriteFile(t, e.Root, "old.fake", "ERROR: old one\nERROR: old two\n")
	gitCommit(t, e.Root)
	testdaemon.WriteFile(t, e.Root, "new.fake", "ERROR: brand new\n")
	res := e.Check(context.Background(), wire.NotifyChangeParams{OnlyNew: onlyNew(true), Changes: []wire.Change{{Path: "new.fake"}, {Path: "old.fake"}}})
	if got := testdaemon.LintLines(res.Lint); len(got) != 1 || got[0] != "ERROR [1:1] brand new" {
		t.Errorf("lint lines = %q, want only new.fake's error\n%s", got, res.Lint)
	}
}

// TestOnlyNewValidators: a validator's pre-existing error is hidden too,
// its baseline taken from git HEAD on first touch.
func TestOnlyNewValidators(t *testing.T) {
	e := fakeEngine(t, "normal")
	e.Config.OnlyNew = true
	testdaemon.WriteFile(t, e.Root, "c.json", "{\n  \"a\": 1,\n  \"a\": 2\n}\n") // a duplicate key: a warning
	gitCommit(t, e.Root)
	e.severity = diag.SeverityWarning
	testdaemon.WriteFile(t, e.Root, "c.json", "{\n  \"z\": 0,\n  \"a\": 1,\n  \"a\": 2\n}\n")
	res := e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: "c.json"}}})
	if res.Lint != "" {
		t.Errorf("a moved pre-existing warning was shown:\n%s", res.Lint)
	}
	testdaemon.WriteFile(t, e.Root, "c.json", "{\n  \"z\": 0,\n  \"a\": 1,\n  \"a\": 2,\n}\n")
	res = e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: "c.json"}}})
	if got := testdaemon.LintLines(res.Lint); len(got) != 1 || !strings.HasPrefix(got[0], "ERROR [5:1]") {
		t.Errorf("lint lines = %q, want the new trailing-comma error only\n%s", got, res.Lint)
	}
}

func TestIntroduced(t *testing.T) {
	d := func(line int, msg string) diag.Diagnostic {
		return diag.Diagnostic{Path: "/a", Line: line, Column: 1, Severity: diag.SeverityError, Source: "s", Message: msg}
	}
	b := func(line int, msg string, mapped bool) baseDiag { return baseDiag{d(line, msg), mapped} }
	tests := []struct {
		name string
		base []baseDiag
		cur  []diag.Diagnostic
		want []int // lines of the new ones
	}{
		{"nothing before", nil, []diag.Diagnostic{d(1, "x"), d(2, "y")}, []int{1, 2}},
		{"moved anywhere", []baseDiag{b(10, "x", false), b(20, "y", false)}, []diag.Diagnostic{d(1, "z"), d(40, "x"), d(3, "y")}, []int{1}},
		{"fewer", []baseDiag{b(1, "x", true), b(2, "x", true)}, []diag.Diagnostic{d(9, "x")}, nil},
		{"mapped duplicate", []baseDiag{b(5, "x", true), b(7, "x", true)}, []diag.Diagnostic{d(5, "x"), d(6, "x"), d(7, "x")}, []int{6}},
		{"unmapped: least movement", []baseDiag{b(10, "x", false), b(20, "x", false)}, []diag.Diagnostic{d(11, "x"), d(15, "x"), d(21, "x")}, []int{15}},
		{"severity changed", []baseDiag{{diag.Diagnostic{Path: "/a", Line: 1, Severity: diag.SeverityWarning, Source: "s", Message: "x"}, false}},
			[]diag.Diagnostic{d(1, "x")}, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, x := range introduced(tt.base, tt.cur) {
				got = append(got, x.Line)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("new lines = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestLineMap(t *testing.T) {
	old := lineHashes([]byte("a\nb\nc\nd\ne\n"))
	cur := lineHashes([]byte("a\nNEW\nb\nc\nX\ne\n"))
	m := newLineMap(old, cur)
	want := map[int]int{1: 1, 2: 3, 3: 4, 4: 0, 5: 6, 6: 7} // d rewritten; the empty last line moves too
	for l, w := range want {
		got, ok := m.line(l)
		if (w == 0) == ok || (ok && got != w) {
			t.Errorf("line %d → %d, %v; want %d", l, got, ok, w)
		}
	}
	if _, ok := (lineMap{}).line(1); ok {
		t.Errorf("the zero lineMap maps lines")
	}
}
