package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

func TestGoplsFreshness(t *testing.T) {
	requireServer(t, "gopls")
	dir := workspace(t, map[string]string{
		"go.mod":   "module example.com/demo\n\ngo 1.22\n",
		"main.go":  "package main\n\nfunc main() {\n\tprintln(greet(\"x\"))\n}\n",
		"greet.go": "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n",
	})
	m := NewManager(config.Default(), dir, testLogger(t))
	t.Cleanup(m.Shutdown)

	mainPath := filepath.Join(dir, "main.go")
	broken := "package main\n\nfunc main() {\n\tvar n int = \"日本\"\n\tprintln(n, greet(\"x\"))\n}\n"
	fixed := "package main\n\nfunc main() {\n\tvar n int = 1\n\tprintln(n, greet(\"x\"))\n}\n"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	for i := 0; i < 3; i++ {
		writeFiles(t, dir, map[string]string{"main.go": broken})
		out := m.Check(ctx, []Doc{{Path: mainPath, Text: []byte(broken)}}, 0)
		if len(out) != 1 || out[0].Freshness != Fresh {
			t.Fatalf("round %d broken: outcome %+v", i, out)
		}
		ds := out[0].Files[mainPath]
		if len(ds) != 1 || ds[0].Line != 4 || ds[0].Column != 14 || !strings.Contains(ds[0].Message, "cannot use") {
			t.Fatalf("round %d broken: diagnostics %+v", i, ds)
		}
		writeFiles(t, dir, map[string]string{"main.go": fixed})
		out = m.Check(ctx, []Doc{{Path: mainPath}}, 0)
		if len(out) != 1 || out[0].Freshness != Fresh {
			t.Fatalf("round %d fixed: outcome %+v", i, out)
		}
		if ds := out[0].Files[mainPath]; len(ds) != 0 {
			t.Fatalf("round %d fixed: stale diagnostics %+v", i, ds)
		}
	}

	// A change in one file that breaks another: write mode's "other files".
	greetPath := filepath.Join(dir, "greet.go")
	twoArgs := "package main\n\nfunc greet(name, suffix string) string { return \"hi \" + name + suffix }\n"
	writeFiles(t, dir, map[string]string{"greet.go": twoArgs})
	out := m.Check(ctx, []Doc{{Path: greetPath}}, 0)
	if len(out) != 1 || out[0].Freshness != Fresh {
		t.Fatalf("greet change: outcome %+v", out)
	}
	others := out[0].Others[mainPath]
	if len(others) != 1 || !strings.Contains(others[0].Message, "not enough arguments") {
		t.Fatalf("other file diagnostics = %+v (all others %+v)", others, out[0].Others)
	}
	var gopls []ServerStatus
	for _, s := range m.Status() {
		if s.Name == "gopls" {
			gopls = append(gopls, s)
		}
	}
	if len(gopls) != 1 || gopls[0].State != StateActive || gopls[0].Pid == 0 {
		t.Fatalf("gopls status = %+v", gopls)
	}
}

// TestGoplsOutOfBand: changes made on disk by someone else reach gopls
// through the Watcher: a file never opened (greet.go) changed with
// os.WriteFile breaks the open main.go; gopls registered its **/*.go
// watchers dynamically because the client declared it could.
func TestGoplsOutOfBand(t *testing.T) {
	requireServer(t, "gopls")
	oneArg := "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n"
	twoArgs := "package main\n\nfunc greet(name, suffix string) string { return \"hi \" + name + suffix }\n"
	dir := workspace(t, map[string]string{
		"go.mod":   "module example.com/demo\n\ngo 1.22\n",
		"main.go":  "package main\n\nfunc main() {\n\tprintln(greet(\"x\"))\n}\n",
		"greet.go": oneArg,
	})
	mainPath, greetPath := filepath.Join(dir, "main.go"), filepath.Join(dir, "greet.go")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := startClient(ctx, t, config.Default().LSP.Servers["gopls"], dir)
	w := watchDir(t, c, dir)
	delivered := make(chan struct{}, 16)
	w.Subscribe(func([]FileEvent) { delivered <- struct{}{} })
	waitDelivery := func() {
		t.Helper()
		select {
		case <-delivered:
		case <-ctx.Done():
			t.Fatal("no watcher delivery")
		}
	}

	if o := c.Update(ctx, []Doc{{Path: mainPath}}, DefaultSettle); o.Freshness != Fresh || len(o.Files[mainPath]) != 0 {
		t.Fatalf("open main.go: %+v", o)
	}
	matched := false
	for _, fw := range c.regs.watchers() {
		matched = matched || fw.matches(greetPath, FileChanged, dir)
	}
	if !matched {
		t.Fatalf("gopls registered no watcher for greet.go: %+v", c.regs.watchers())
	}

	// 1. Out of band, then at once a check of main.go: Update syncs the
	// watcher first, so gopls hears of greet.go before main.go's change.
	writeFiles(t, dir, map[string]string{"greet.go": twoArgs})
	o := c.Update(ctx, []Doc{{Path: mainPath}}, DefaultSettle)
	waitDelivery()
	if ds := o.Files[mainPath]; o.Freshness != Fresh || len(ds) != 1 || !strings.Contains(ds[0].Message, "not enough arguments") {
		t.Fatalf("after greet.go changed on disk: %+v", o)
	}

	// 2. Out of band with nobody checking: the debounced notification alone
	// makes gopls publish main.go clean again.
	mark, _ := c.store.mark()
	writeFiles(t, dir, map[string]string{"greet.go": oneArg})
	waitDelivery()
	uri := pathToURI(mainPath)
	for {
		_, arrived := c.store.mark()
		if snap, ok := c.store.since(mark)[uri]; ok && snap.push != nil && len(snap.push.diagnostics) == 0 {
			break
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			t.Fatal("gopls never re-published main.go after greet.go was restored on disk")
		}
	}

	// 3. An open document changed on disk by someone else is re-synced with
	// didChange, so a check of another file sees its new content.
	writeFiles(t, dir, map[string]string{"main.go": "package main\n\nfunc main() {\n\tprintln(greet(1))\n}\n"})
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	v, text := c.docs[uri].version, string(c.docs[uri].text)
	c.mu.Unlock()
	if !strings.Contains(text, "greet(1)") {
		t.Fatalf("main.go not re-synced after changing on disk (version %d)", v)
	}
	for !storeFresh(c.store, uri, 0, v) { // gopls answers the re-sync
		_, arrived := c.store.mark()
		select {
		case <-arrived:
		case <-ctx.Done():
			t.Fatal("gopls never answered the re-sync of main.go")
		}
	}
	o = c.Update(ctx, []Doc{{Path: greetPath, Text: []byte(oneArg + "\n// touched\n")}}, DefaultSettle)
	if o.Freshness != Fresh {
		t.Fatalf("check of greet.go: %+v", o)
	}
	if ds := c.Current()[mainPath]; len(ds) != 1 || !strings.Contains(ds[0].Message, "cannot use 1") {
		t.Fatalf("main.go as gopls sees it: %+v", ds)
	}
}

// TestGoplsLoadError: while go.mod is broken gopls cannot load the
// workspace and publishes nothing for main.go; that is not clean. The
// answer is partial, says why (ErrLoad with gopls's message), and comes
// without waiting for the "Error loading workspace" progress, which stays
// open until go.mod is fixed. go.mod itself is checked (FileNames), and
// once it is fixed main.go's errors are back.
func TestGoplsLoadError(t *testing.T) {
	requireServer(t, "gopls")
	t.Setenv("GOPROXY", "off")
	good := "module example.com/demo\n\ngo 1.22\n"
	bad := good + "\nrequire example.com/nope\n" // no version: a go.mod syntax error
	mainGo := "package main\n\nfunc main() {\n\tvar n int = \"s\"\n\tprintln(n)\n}\n"
	dir := workspace(t, map[string]string{"go.mod": good, "main.go": mainGo})
	m := NewManager(config.Default(), dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	modPath, mainPath := filepath.Join(dir, "go.mod"), filepath.Join(dir, "main.go")

	check := func(step, path, text string) Outcome {
		t.Helper()
		writeFiles(t, dir, map[string]string{filepath.Base(path): text})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		out := m.Check(ctx, []Doc{{Path: path}}, 0)
		if len(out) != 1 {
			t.Fatalf("%s: %d outcomes, want gopls's: %+v", step, len(out), out)
		}
		if ctx.Err() != nil {
			t.Fatalf("%s: the check ran until its deadline: %+v", step, out[0])
		}
		return out[0]
	}
	tests := []struct {
		step, path, text string
		fresh            Freshness
		loadErr          bool
		wantLine         int    // of the first diagnostic wanted on path; 0: none; -1: no error (gopls may warn "initialization failed")
		wantMsg          string // in it
	}{
		{"type error", mainPath, mainGo, Fresh, false, 4, "cannot use"},
		{"go.mod broken", modPath, bad, Partial, true, 5, "usage: require module/path"},
		{"main.go while go.mod is broken", mainPath, mainGo, Partial, true, -1, ""},
		{"again", mainPath, mainGo, Partial, true, -1, ""},
		{"go.mod fixed", modPath, good, Fresh, false, 0, ""},
		{"type error back", mainPath, mainGo, Fresh, false, 4, "cannot use"},
	}
	for _, tt := range tests {
		o := check(tt.step, tt.path, tt.text)
		if o.Freshness != tt.fresh || errors.Is(o.Err, ErrLoad) != tt.loadErr {
			t.Fatalf("%s: freshness %s, err %v; want %s, load error %v", tt.step, o.Freshness, o.Err, tt.fresh, tt.loadErr)
		}
		if tt.loadErr && !strings.Contains(o.Err.Error(), "go.mod:5") {
			t.Errorf("%s: the error does not quote gopls's message: %v", tt.step, o.Err)
		}
		ds := o.Files[tt.path]
		switch {
		case tt.wantLine == 0 && len(ds) != 0:
			t.Errorf("%s: diagnostics %+v, want none", tt.step, ds)
		case tt.wantLine == -1 && slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Severity == diag.SeverityError }):
			t.Errorf("%s: diagnostics %+v, want no error", tt.step, ds)
		case tt.wantLine > 0 && (len(ds) == 0 || ds[0].Line != tt.wantLine || !strings.Contains(ds[0].Message, tt.wantMsg)):
			t.Errorf("%s: diagnostics %+v, want line %d %q", tt.step, ds, tt.wantLine, tt.wantMsg)
		}
	}
}

// TestGoplsNewPackage: a Write that creates the first file of a package
// gopls has not loaded (a new directory) must wait for gopls to load it,
// never pass as clean: the type error in it is in the answer, as `go
// build` reports it. Repeated with a new directory each round, through the
// Manager with its workspace watcher, as the daemon runs it.
func TestGoplsNewPackage(t *testing.T) {
	requireServer(t, "gopls")
	dir := workspace(t, map[string]string{
		"go.mod":  "module example.com/demo\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n",
	})
	m, ctx := realManager(t, dir)
	if out := m.Check(ctx, []Doc{{Path: filepath.Join(dir, "main.go")}}, 0); len(out) != 1 || out[0].Freshness != Fresh {
		t.Fatalf("warm-up: %+v", out)
	}
	for i := range 4 {
		rel := fmt.Sprintf("newpkg%d/a.go", i)
		path := writeFile(t, dir, rel, fmt.Sprintf("package newpkg%d\n\nvar x int = \"s\"\n", i))
		out := m.Check(ctx, []Doc{{Path: path}}, 0)
		if len(out) != 1 {
			t.Fatalf("round %d: outcomes %+v", i, out)
		}
		ds := out[0].Files[path]
		if out[0].Freshness != Fresh || len(ds) != 1 || ds[0].Line != 3 || !strings.Contains(ds[0].Message, "cannot use") {
			t.Errorf("round %d: %s freshness %s, diagnostics %+v (err %v); want the type error at line 3", i, rel, out[0].Freshness, ds, out[0].Err)
		}
	}
}

// TestGoplsBuildConstrainedFile: a Go file its build constraint leaves
// out of the default build — a `//go:build ignore` program, which gopls
// type-checks as a package of its own once the file is open (its
// standaloneTags), or a file of another GOOS, which it checks in a view
// for that GOOS — is answered with its errors as `go build FILE` (with
// that GOOS) reports them, never as clean: opened cold, opened warm,
// changed to such a file from one of the package's, and changed back.
// Before, gopls's answer to each of the first three was an empty list
// (config.Server.RecheckUnloaded), 3 of 3 runs. Changed back, gopls
// v0.23.0 kept the file among its package's ignored files until it
// restarted ("No packages found for open file … This file is ignored by
// your gopls build", where `go build` reports the error), and a caller of
// what it declares was answered "undefined" where `go build` builds it
// (a ghost), 3 of 3 runs: the manager restarts gopls then
// (config.Server.StaleIgnoredMessages).
func TestGoplsBuildConstrainedFile(t *testing.T) {
	requireServer(t, "gopls")
	const (
		tool  = "//go:build ignore\n\npackage main\n\nfunc main() {}\n\nfunc count() int {\n\treturn \"%s\"\n}\n"
		plain = "package main\n\nfunc extra() int {\n\treturn %d\n}\n"
		win   = "//go:build windows\n\npackage main\n\nfunc winOnly() int {\n\treturn \"w\"\n}\n"
	)
	steps := []struct {
		name, file, text string
		cold             bool
		env              []string // the judge's (GOOS=windows)
		judge            []string
	}{
		{"a standalone program opened cold", "gen.go", fmt.Sprintf(tool, "cold"), true, nil, []string{"gen.go"}},
		{"a standalone program opened warm", "gen2.go", fmt.Sprintf(tool, "warm"), false, nil, []string{"gen2.go"}},
		{"a file of the package, before", "extra.go", fmt.Sprintf(plain, 1), false, nil, []string{"."}},
		{"the package's file made a standalone program", "extra.go", strings.Replace(fmt.Sprintf(tool, "x"), "count", "extra", 1), false, nil, []string{"extra.go"}},
		{"made the package's again, broken", "extra.go", fmt.Sprintf(plain, 1) + "\nvar e int = \"e\"\n", false, nil, []string{"."}},
		{"a caller of what it declares", "main.go", "package main\n\nfunc main() { _ = extra() }\n", false, nil, []string{"."}},
		{"another GOOS's file opened warm", "plat.go", win, false, []string{"GOOS=windows"}, []string{"."}},
	}
	dir := workspace(t, map[string]string{
		"go.mod":  "module example.com/demo\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n",
	})
	var m *Manager
	var ctx context.Context
	for _, st := range steps {
		if st.cold || m == nil {
			m, ctx = realManager(t, dir)
			if !st.cold {
				if out := m.Check(ctx, []Doc{diskDoc(t, filepath.Join(dir, "main.go"))}, 0); outFreshness(out) != "fresh" {
					t.Fatalf("warm-up: %+v", out)
				}
			}
		}
		path := writeFile(t, dir, st.file, st.text)
		truth := goBuildErrorsOf(t, dir, st.env, st.judge...)[st.file]
		if strings.HasPrefix(st.name, "a standalone") && len(truth) == 0 {
			t.Fatalf("%s: go build %s reports no error; the step needs one", st.name, st.judge)
		}
		out := m.Check(ctx, []Doc{diskDoc(t, path)}, 0)
		if len(out) != 1 || out[0].Freshness != Fresh {
			t.Fatalf("%s: outcomes %+v", st.name, out)
		}
		var got []string
		for _, d := range out[0].Files[path] {
			if d.Severity == diag.SeverityError {
				got = append(got, fmt.Sprintf("%d:%d", d.Line, d.Column))
			}
		}
		slices.Sort(got)
		if why := out[0].Unchecked[path]; why != "" {
			t.Errorf("%s: %s not checked: %s", st.name, st.file, why)
		}
		if !slices.Equal(got, truth) {
			t.Errorf("%s: %s answered with errors at %v; %s go build %s reports %v", st.name, st.file, got, st.env, st.judge, truth)
		}
	}
}

// TestGoplsColdConcurrentEdits plays what a session's first burst of hooks
// does to a cold gopls: six edits of one package checked at once, while
// another package holds a type error that was there before. gopls cuts a
// diagnostic pass short when a newer text arrives (half the edits change
// their file, half leave it as it was), so an answer given
// while the others were being sent does not say what was wrong in the
// files it did not reach; the untouched error must never be counted as
// one the edits introduced (it stays in OthersBefore), as `go vet`
// reports it on the files before the edits too.
func TestGoplsColdConcurrentEdits(t *testing.T) {
	requireServer(t, "gopls")
	const n = 6
	files := map[string]string{
		"go.mod": "module example.com/demo\n\ngo 1.22\n",
		"q/q.go": "package q\n\nvar Bad int = \"s\"\n",
	}
	for i := range n {
		files[fmt.Sprintf("p/a%d.go", i)] = fmt.Sprintf("package p\n\nfunc F%d() int { return %d }\n", i, i)
	}
	dir := workspace(t, files)
	qPath := filepath.Join(dir, "q", "q.go")
	vet := exec.Command("go", "vet", "./q")
	vet.Dir = dir
	if out, err := vet.CombinedOutput(); err == nil || !strings.Contains(string(out), "cannot use") {
		t.Fatalf("go vet ./q = %v: %s; want the type error the edits find there", err, out) // the judge
	}
	for round := range 4 {
		m := NewManager(config.Default(), dir, testLogger(t))
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		outs := make([][]Outcome, n)
		var wg sync.WaitGroup
		for i := range n {
			path := filepath.Join(dir, "p", fmt.Sprintf("a%d.go", i))
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if (round+i)%2 == 1 { // an edit that changed the file; the others restored it
				writeFile(t, dir, filepath.Join("p", fmt.Sprintf("a%d.go", i)), fmt.Sprintf("%s\nfunc G%d_%d() {}\n", text, i, round))
			}
			wg.Go(func() {
				outs[i] = m.Check(ctx, []Doc{{Path: path, Before: func() ([]byte, bool) { return text, true }}}, 0)
			})
		}
		wg.Wait()
		cancel()
		m.Shutdown()
		for i, out := range outs {
			for _, o := range out {
				got := o.Others[qPath]
				if len(got) == 0 {
					continue
				}
				if before := o.OthersBefore[qPath]; len(before) < len(got) {
					t.Errorf("round %d, edit of p/a%d.go: q/q.go's error %q counted as introduced (before: %+v; freshness %s)",
						round, i, got[0].Message, before, o.Freshness)
				}
			}
		}
	}
}

// TestGoplsBaselineBeforeFirstAnswer plays the warm daemon of
// TestLoadConcurrentHooks: a file is checked once (the warm-up, the
// server's first answer), then checked again with the same text, as the
// next hooks on it do. Its run of equal texts began with the warm-up, so
// the second check's baseline of the other files is from before gopls had
// said anything; gopls publishes the other files of the package (closed,
// one with an error `go build` reports) during or after the warm-up. That
// error was there before both checks: nothing in it may count as
// introduced (Outcome.OthersBefore must hold it). Before touchedAt, the
// baseline of a file the server had not yet spoken of was taken as clean
// once the server was warm, though it was not warm at the baseline.
func TestGoplsBaselineBeforeFirstAnswer(t *testing.T) {
	requireServer(t, "gopls")
	for round := range 2 {
		dir := workspace(t, map[string]string{
			"go.mod": "module example.com/load\n\ngo 1.22\n",
			"a.go":   "package load\n\n// A is a.\nfunc A() int { return 1 }\n",
			"b.go":   "package load\n\n// B is b.\nfunc B() int { return undefinedB }\n",
			"c.go":   "package load\n\n// C is c.\nfunc C() int { return 3 }\n",
		})
		truth := goBuildErrors(t, dir)
		if len(truth["b.go"]) == 0 {
			t.Fatalf("go build reports %v, want b.go's error", truth)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cl := startClient(ctx, t, catalogueServer(t, "gopls"), dir)
		a := filepath.Join(dir, "a.go")
		if o := cl.Update(ctx, []Doc{{Path: a}}, DefaultSettle); o.Freshness != Fresh {
			t.Fatalf("warm-up: %s, %v", o.Freshness, o.Err)
		}
		seen := false
		for i := range 6 { // gopls's workspace pass can come a second later
			o := cl.Update(ctx, []Doc{{Path: a}}, DefaultSettle)
			if o.Freshness != Fresh {
				t.Fatalf("round %d, check %d: %s, %v", round, i, o.Freshness, o.Err)
			}
			for p, ds := range o.Others {
				seen = seen || len(errorsOf(ds)) > 0
				if n := len(errorsOf(ds)) - len(errorsOf(o.OthersBefore[p])); n > 0 {
					t.Errorf("round %d, check %d: %d of %s's errors (%v) count as introduced; go build reports them before any change: %v",
						round, i, n, filepath.Base(p), messages(errorsOf(ds)), truth)
				}
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Logf("round %d: b.go's error among the other files of a check: %v", round, seen)
		cancel()
	}
}

// goBuildErrors runs `go build ./...` in dir and returns, per file name
// relative to dir, the "line:col" of each error it reports.
func goBuildErrors(t *testing.T, dir string) map[string][]string {
	t.Helper()
	return goBuildErrorsOf(t, dir, nil, "./...")
}

// goBuildErrorsOf is goBuildErrors of `go build -o os.DevNull TARGET...`
// with env (KEY=value: GOOS=windows) added to the go command's.
func goBuildErrorsOf(t *testing.T, dir string, env []string, targets ...string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build", "-o", os.DevNull}, targets...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.CombinedOutput()
	truth := make(map[string][]string)
	for _, m := range goErrRE.FindAllStringSubmatch(string(out), -1) {
		truth[filepath.ToSlash(filepath.Clean(m[1]))] = append(truth[filepath.ToSlash(filepath.Clean(m[1]))], m[2]+":"+m[3])
	}
	return sortedValues(truth)
}

// goErrRE is a line of the go command's compiler errors: file:line:col: message.
var goErrRE = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+):(\d+): `)

// TestGoplsBusyCalleeResynced plays parallel Edits of a caller and its
// callee, both written before either check sends: the callee's check is
// about to send it (marked updating and pending, as Update marks it) when
// the caller's check runs. The watcher leaves the callee to its check, so
// the caller's check sends it first (sendPending), and its answer is
// judged against the callee's text on disk: main.go's broken call, as
// `go build` reports it. Before, the caller's own answer was clean, stale
// (3 of 3 rounds). The callee's check then finds its text sent and
// answers fresh.
func TestGoplsBusyCalleeResynced(t *testing.T) {
	requireServer(t, "gopls")
	oneArg := "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n"
	twoArgs := "package main\n\nfunc greet(name, suffix string) string { return \"hi \" + name + suffix }\n"
	caller := "package main\n\nfunc main() {\n\tprintln(greet(\"x\"))\n}\n"
	dir := workspace(t, map[string]string{
		"go.mod":   "module example.com/demo\n\ngo 1.22\n",
		"main.go":  caller,
		"greet.go": oneArg,
	})
	mainPath, greetPath := filepath.Join(dir, "main.go"), filepath.Join(dir, "greet.go")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := startClient(ctx, t, config.Default().LSP.Servers["gopls"], dir)
	watchDir(t, c, dir)
	if o := c.Update(ctx, []Doc{{Path: mainPath}, {Path: greetPath}}, DefaultSettle); o.Freshness != Fresh || len(o.Files[mainPath]) != 0 {
		t.Fatalf("open main.go and greet.go: %+v", o)
	}
	fromDisk := func(p string) Doc { return diskDoc(t, p) }
	for round := range 3 {
		writeFiles(t, dir, map[string]string{"greet.go": twoArgs})
		callee := fromDisk(greetPath)
		c.markUpdating([]Doc{callee}, +1) // the callee's check, about to send it, as Update marks it
		pend := c.notePending([]Doc{callee})
		writeFiles(t, dir, map[string]string{"main.go": caller + fmt.Sprintf("\n// round %d\n", round)})
		o := c.Update(ctx, []Doc{fromDisk(mainPath)}, DefaultSettle)
		if ds := o.Files[mainPath]; o.Freshness != Fresh || len(ds) != 1 || !strings.Contains(ds[0].Message, "not enough arguments") {
			t.Errorf("round %d: the caller's check, its callee broken on disk: %+v, want main.go's broken call", round, o)
		}
		c.markUpdating([]Doc{callee}, -1)
		c.dropPending(pend...)
		if o := c.Update(ctx, []Doc{callee}, DefaultSettle); o.Freshness != Fresh || len(o.Files[greetPath]) != 0 {
			t.Errorf("round %d: the callee's check: %+v, want fresh, greet.go clean", round, o)
		}
		writeFiles(t, dir, map[string]string{"greet.go": oneArg})
		if o := c.Update(ctx, []Doc{fromDisk(greetPath)}, DefaultSettle); o.Freshness != Fresh || len(c.Current()[mainPath]) != 0 {
			t.Fatalf("round %d: the fix: %+v, main.go now %+v", round, o, c.Current()[mainPath])
		}
	}
}

// TestPendingFileSentOnce plays many checks at once while another check
// is about to send a file the server has not seen (as 200 hooks at once
// on 50 new files do): each finds it pending (sendPending) and the
// server must get it once. Before, each check that looked before any had
// sent it sent it again — up to twenty versions of one text, which pushed
// the waiting check's own version out of the history, so it answered
// "changed again during the check" about a file nobody changed. The
// pending file's own check then answers fresh, as `go build` says.
func TestPendingFileSentOnce(t *testing.T) {
	requireServer(t, "gopls")
	dir := workspace(t, map[string]string{
		"go.mod":    "module example.com/demo\n\ngo 1.22\n",
		"main.go":   "package main\n\nfunc main() { println(value()) }\n",
		"api.go":    "package main\n\nfunc value() int { return undefinedName }\n",
		"spare0.go": "package main\n\nvar spare0 = 0\n",
		"spare1.go": "package main\n\nvar spare1 = 1\n",
		"spare2.go": "package main\n\nvar spare2 = 2\n",
		"spare3.go": "package main\n\nvar spare3 = 3\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := startClient(ctx, t, config.Default().LSP.Servers["gopls"], dir)
	mainPath, apiPath := filepath.Join(dir, "main.go"), filepath.Join(dir, "api.go")
	if o := c.Update(ctx, []Doc{{Path: mainPath}}, DefaultSettle); o.Freshness != Fresh {
		t.Fatalf("open main.go: %+v", o)
	}
	value := diskDoc(t, apiPath)
	c.markUpdating([]Doc{value}, +1) // api.go's check, about to send it
	pend := c.notePending([]Doc{value})
	// The checks all reach sendPending while a send holds syncMu (the
	// load test's checks arrived within a millisecond of each other);
	// api.go sorts before their own pending files, so each looks at it
	// before any of them sends.
	var wg sync.WaitGroup
	c.syncMu.Lock()
	var spares []Doc
	for i := range 4 {
		spares = append(spares, diskDoc(t, filepath.Join(dir, fmt.Sprintf("spare%d.go", i))))
	}
	for i := range 20 {
		wg.Go(func() { c.Update(ctx, []Doc{spares[i%4]}, EditSettle) })
	}
	waitParked(t, "(*Client).sendPending", 20) // all of them reach it; the sends wait
	c.syncMu.Unlock()
	wg.Wait()
	c.mu.Lock()
	doc, open := c.docs[pathToURI(apiPath)]
	sends := 0
	if open {
		sends = len(doc.sent)
	}
	c.mu.Unlock()
	if sends != 1 {
		t.Errorf("api.go was sent %d times by the checks that found it pending; want once", sends)
	}
	c.markUpdating([]Doc{value}, -1)
	c.dropPending(pend...)
	truth := goBuildErrors(t, dir)["api.go"]
	o := c.Update(ctx, []Doc{value}, DefaultSettle)
	if got := positions(o.Files[apiPath]); o.Freshness != Fresh || !slices.Equal(got, truth) {
		t.Errorf("api.go's own check: %s (%v), errors at %v; go build's at %v", o.Freshness, o.Err, got, truth)
	}
}

// waitParked waits until n goroutines wait for a mutex from within the
// function frame names (as a goroutine dump spells it:
// "(*Client).sendPending"), so that a test plays its race for sure,
// however slow the machine, instead of sleeping for a while; it fails
// the test after a minute.
func waitParked(t *testing.T, frame string, n int) {
	t.Helper()
	buf := make([]byte, 1<<20)
	deadline := time.Now().Add(time.Minute)
	for {
		k := 0
		dump := buf[:runtime.Stack(buf, true)]
		for _, g := range bytes.Split(dump, []byte("\n\n")) {
			// Mutex.Lock is inlined; its slow path is named in the dump.
			if bytes.Contains(g, []byte(frame)) && bytes.Contains(g, []byte("(*Mutex).")) {
				k++
			}
		}
		if k >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines wait for a mutex in %s after a minute; want %d", k, frame, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGoplsEmbeddedFiles: a file a //go:embed pattern matches, deleted
// or created while gopls runs (the workspace watched, as the daemon
// does), go build judging each step. Deleted, it breaks the embedding
// file ("pattern banner.txt: no matching files found"), which the
// deletion's check must say, as a file it broke. Created for a pattern
// that matched nothing, it mends the embedding file, whose next check
// must say so. Without the reload (embed.go), gopls v0.23.0 kept what it
// had loaded: the deletion was answered clean, and the error stood after
// the file was created, where go build builds.
func TestGoplsEmbeddedFiles(t *testing.T) {
	requireServer(t, "gopls")
	for _, tc := range []struct {
		created bool
		pattern string // the //go:embed pattern of assets/embed.go
		file    string // the file under assets/ it matches, deleted or created
	}{
		{false, "banner.txt", "banner.txt"},
		{true, "banner.txt", "banner.txt"},
		// A built frontend (npm run build's dist/): a directory the
		// watcher skips the insides of, whose creation it still tells.
		{true, "all:dist", "dist/index.html"},
	} {
		created := tc.created
		embedding := "package assets\n\nimport \"embed\"\n\n//go:embed " + tc.pattern + "\nvar Banner embed.FS\n"
		files := map[string]string{
			"go.mod":          "module example.com/demo\n\ngo 1.22\n",
			"main.go":         "package main\n\nimport \"example.com/demo/assets\"\n\nfunc main() { _ = assets.Banner }\n",
			"assets/embed.go": embedding,
		}
		if !created {
			files["assets/"+tc.file] = "hello\n"
		}
		dir := workspace(t, files)
		m, ctx := realManager(t, dir)
		m.WatchFiles = true
		embed, banner := filepath.Join(dir, "assets", "embed.go"), filepath.Join(dir, "assets", filepath.FromSlash(tc.file))
		errorsAt := func(outs []Outcome, p string) []string {
			var got []string
			for _, o := range outs {
				for _, ds := range []map[string][]diag.Diagnostic{o.Files, o.Others} {
					for _, d := range errorsOf(ds[p]) {
						got = append(got, fmt.Sprintf("%d:%d", d.Line, d.Column))
					}
				}
			}
			slices.Sort(got)
			return slices.Compact(got)
		}
		truth := goBuildErrorsOf(t, dir, nil, "./...")["assets/embed.go"]
		if got := errorsAt(m.Check(ctx, []Doc{diskDoc(t, embed)}, 0), embed); !slices.Equal(got, truth) {
			t.Fatalf("%s created %v, first check: embed.go errors at %v; go build at %v", tc.file, created, got, truth)
		}
		if !created {
			if err := os.Remove(banner); err != nil {
				t.Fatal(err)
			}
			truth := goBuildErrorsOf(t, dir, nil, "./...")["assets/embed.go"]
			if len(truth) == 0 {
				t.Fatalf("go build reports no error in assets/embed.go with %s gone", tc.file)
			}
			if got := errorsAt(m.Gone(ctx, []string{banner}, 0), embed); !slices.Equal(got, truth) {
				t.Errorf("%s deleted: embed.go errors at %v; go build at %v", tc.file, got, truth)
			}
			continue
		}
		if len(truth) == 0 {
			t.Fatalf("go build reports no error in assets/embed.go before %s exists", tc.file)
		}
		writeFile(t, dir, "assets/"+tc.file, "hello\n")
		writeFile(t, dir, "assets/embed.go", strings.Replace(embedding, "var Banner", "// Banner is the banner.\nvar Banner", 1))
		truth = goBuildErrorsOf(t, dir, nil, "./...")["assets/embed.go"]
		if got := errorsAt(m.Check(ctx, []Doc{diskDoc(t, embed)}, 0), embed); !slices.Equal(got, truth) {
			t.Errorf("%s created, then embed.go edited: embed.go errors at %v; go build at %v", tc.file, got, truth)
		}
	}
}

func TestEmbedderMatches(t *testing.T) {
	text := []byte("package p\n\nimport \"embed\"\n\n//go:embed banner.txt static\n//go:embed \"my file.txt\" all:templates/*.html\n//go:embed\tsql/*.sql\nvar fs embed.FS\n\n// not //go:embed other.txt\n")
	e := embedder{patterns: embedPatterns(text)}
	if want := []string{"banner.txt", "static", "my file.txt", "templates/*.html", "sql/*.sql"}; !slices.Equal(e.patterns, want) {
		t.Fatalf("embedPatterns = %q, want %q", e.patterns, want)
	}
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"banner.txt", true},
		{"static/css/site.css", true},
		{"my file.txt", true},
		{"templates/index.html", true},
		{"templates/index.txt", false},
		{"sql/001_init.sql", true},
		{"other.txt", false},
		{"README.md", false},
		{"sub/banner.txt", false},
	} {
		if got := e.matches(tc.rel); got != tc.want {
			t.Errorf("matches(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}

// FuzzEmbedPatterns feeds any text to the //go:embed reader as a Go file:
// it must not panic, and neither may matching a path against what it
// returns.
func FuzzEmbedPatterns(f *testing.F) {
	f.Add([]byte("//go:embed a.txt \"b c.txt\" all:d/*\n"), "d/x")
	f.Add([]byte("//go:embed `unclosed\n//go:embed [\n"), "a")
	f.Fuzz(func(t *testing.T, text []byte, rel string) {
		e := embedder{patterns: embedPatterns(text)}
		_ = e.matches(rel)
	})
}
