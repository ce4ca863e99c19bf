package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// requireTool skips the test when a linter the test runs is missing, unless
// LSP_HOOK_REQUIRE_SERVERS is set (make test installs them): then it fails.
func requireTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if lspRequired() {
			t.Fatalf("%s is required (LSP_HOOK_REQUIRE_SERVERS is set): %v", name, err)
		}
		t.Skipf("%s not installed", name)
	}
}

func lspRequired() bool { return os.Getenv("LSP_HOOK_REQUIRE_SERVERS") != "" }

// linterEngine returns an engine for a fresh workspace holding files, with
// language servers off (so fallback linters run) and exactly linters.
func linterEngine(t *testing.T, files map[string]string, linters ...config.Linter) *Engine {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, text := range files {
		testdaemon.WriteFile(t, root, rel, text)
	}
	cfg := config.Default()
	cfg.LSP.Enabled = false
	cfg.Linters = map[string]config.Linter{}
	for _, l := range linters {
		l.Enabled = true
		if l.Timeout == 0 {
			l.Timeout = 20 * time.Second
		}
		if l.Cwd == "" {
			l.Cwd = "{root}"
		}
		if l.When == "" {
			l.When = config.LinterOnEdit
		}
		if l.Mode == "" {
			l.Mode = config.LinterFallback
		}
		if l.Parser == "" {
			l.Parser = "auto"
		}
		cfg.Linters[l.Name] = l
	}
	return NewEngine(root, cfg, nil, testdaemon.Log(t))
}

func TestLinters(t *testing.T) {
	builtin := func(name string) config.Linter {
		for _, l := range config.BuiltinLinters() {
			if l.Name == name {
				l.Builtin = true
				return l
			}
		}
		t.Fatalf("no built-in linter %s", name)
		return config.Linter{}
	}
	gcc := config.Linter{Name: "gcc", Command: []string{"gcc", "-fsyntax-only", "-Wall", "{file}"},
		Extensions: []string{".c"}, Parser: "gcc"}
	tests := []struct {
		name     string
		tool     string // skip (or fail under make test) without it
		files    map[string]string
		check    string // file to check
		phase    string
		linters  []config.Linter
		want     []string // substrings of the lint block's diagnostic lines, in order
		wantRes  wire.ServerResult
		notInRes string // a checker that must not appear in Servers
	}{{
		name: "shellcheck built-in", tool: "shellcheck",
		files:   map[string]string{"run.sh": "#!/bin/sh\nrm -rf $1/*\ncd dir\n"},
		check:   "run.sh",
		linters: []config.Linter{builtin("shellcheck")},
		want:    []string{"WARN [2:8]", "(SC2115)", "WARN [3:1]", "(SC2164)"},
		wantRes: wire.ServerResult{Name: "shellcheck", Kind: wire.KindLinter, State: lsp.StateActive, Freshness: "fresh"},
	}, {
		name: "gcc fallback, display columns converted", tool: "gcc",
		files:   map[string]string{"m.c": "int main(void) {\n\tint x = \"no\";\n\treturn 0;\n}\n"},
		check:   "m.c",
		linters: []config.Linter{gcc},
		want:    []string{"WARN [2:10] initialization of "}, // gcc says 2:17: the tab reaches 8
		wantRes: wire.ServerResult{Name: "gcc", Kind: wire.KindLinter, State: lsp.StateActive, Freshness: "fresh"},
	}, {
		name: "go vet runs on diagnose only (edit phase)", tool: "go",
		files:    map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n\nimport \"fmt\"\n\nfunc F() { fmt.Printf(\"%d\\n\", \"s\") }\n"},
		check:    "m.go",
		linters:  []config.Linter{builtin("go-vet")},
		notInRes: "go-vet",
	}, {
		name: "go vet on diagnose", tool: "go", phase: phaseDiagnose,
		files:   map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n\nimport \"fmt\"\n\nfunc F() { fmt.Printf(\"%d\\n\", \"s\") }\n"},
		check:   "m.go",
		linters: []config.Linter{builtin("go-vet")},
		want:    []string{"WARN [5:24] fmt.Printf format %d has arg \"s\" of wrong type string"},
		wantRes: wire.ServerResult{Name: "go-vet", Kind: wire.KindLinter, State: lsp.StateActive, Freshness: "fresh"},
	}, {
		name:    "exit 1 without a diagnostic is a failure, not clean",
		files:   map[string]string{"a.c": "int x;\n"},
		check:   "a.c",
		linters: []config.Linter{{Name: "broken", Command: []string{"sh", "-c", "echo boom >&2; exit 3"}, Extensions: []string{".c"}}},
		wantRes: wire.ServerResult{Name: "broken", Kind: wire.KindLinter, State: lsp.StateBroken, Freshness: "none",
			Error: "linter broken: exited 3 without a diagnostic: boom"},
	}, {
		name:    "timeout is reported",
		files:   map[string]string{"a.c": "int x;\n"},
		check:   "a.c",
		linters: []config.Linter{{Name: "slow", Command: []string{"sleep", "30"}, Extensions: []string{".c"}, Timeout: 300 * time.Millisecond}},
		wantRes: wire.ServerResult{Name: "slow", Kind: wire.KindLinter, State: lsp.StateActive, Freshness: "timeout"},
	}, {
		name:    "configured linter not installed",
		files:   map[string]string{"a.c": "int x;\n"},
		check:   "a.c",
		linters: []config.Linter{{Name: "ghost", Command: []string{"no-such-linter-xyz", "{file}"}, Extensions: []string{".c"}}},
		wantRes: wire.ServerResult{Name: "ghost", Kind: wire.KindLinter, State: lsp.StateUnavailable, Freshness: "none"},
	}, {
		name:     "built-in linter not installed is quiet",
		files:    map[string]string{"a.c": "int x;\n"},
		check:    "a.c",
		linters:  []config.Linter{{Name: "ghost", Command: []string{"no-such-linter-xyz"}, Extensions: []string{".c"}, Builtin: true}},
		notInRes: "ghost",
	}, {
		name:  "unknown parser",
		files: map[string]string{"a.c": "int x;\n"},
		check: "a.c",
		linters: []config.Linter{{Name: "typo", Command: []string{"true"}, Extensions: []string{".c"},
			Parser: "gcc-ish"}},
		wantRes: wire.ServerResult{Name: "typo", Kind: wire.KindLinter, State: lsp.StateBroken, Freshness: "none",
			Error: `linter typo: unknown parser "gcc-ish"`},
	}, {
		name:  "errorformat",
		files: map[string]string{"a.c": "int x;\nint y;\n"},
		check: "a.c",
		linters: []config.Linter{{Name: "efm", Command: []string{"sh", "-c", "echo 'a.c|2 col 3| bad thing'"},
			Extensions: []string{".c"}, Parser: "errorformat", Errorformat: []string{"%f|%l col %c| %m"}}},
		want:    []string{"ERROR [2:3] bad thing"},
		wantRes: wire.ServerResult{Name: "efm", Kind: wire.KindLinter, State: lsp.StateActive, Freshness: "fresh"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tool != "" {
				requireTool(t, tt.tool)
			}
			e := linterEngine(t, tt.files, tt.linters...)
			e.severity = 4 // hint: show warnings too
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			begin := time.Now()
			res := e.Check(ctx, wire.NotifyChangeParams{Changes: []wire.Change{{Path: tt.check}}, Phase: tt.phase,
				BudgetMS: 50000, ColdBudgetMS: 50000})
			if elapsed := time.Since(begin); elapsed > 40*time.Second {
				t.Errorf("check took %v", elapsed)
			}
			lines := strings.Join(testdaemon.LintLines(res.Lint), "\n")
			at := 0
			for _, w := range tt.want {
				i := strings.Index(lines[at:], w)
				if i < 0 {
					t.Fatalf("lint block lacks %q after offset %d:\n%s", w, at, res.Lint)
				}
				at += i + len(w)
			}
			if tt.want == nil && lines != "" {
				t.Errorf("want no diagnostics, got:\n%s", res.Lint)
			}
			if tt.notInRes != "" && slices.ContainsFunc(res.Servers, func(s wire.ServerResult) bool { return s.Name == tt.notInRes }) {
				t.Errorf("%s ran: %+v", tt.notInRes, res.Servers)
			}
			if tt.wantRes.Name == "" {
				return
			}
			i := slices.IndexFunc(res.Servers, func(s wire.ServerResult) bool { return s.Name == tt.wantRes.Name })
			if i < 0 {
				t.Fatalf("no result for %s in %+v", tt.wantRes.Name, res.Servers)
			}
			got := res.Servers[i]
			if got.Kind != tt.wantRes.Kind || got.State != tt.wantRes.State || got.Freshness != tt.wantRes.Freshness ||
				!strings.HasPrefix(got.Error, tt.wantRes.Error) {
				t.Errorf("result = %+v, want %+v", got, tt.wantRes)
			}
			if got.Freshness != "fresh" && !strings.Contains(res.Lint, "no fresh diagnostics from "+got.Name) {
				t.Errorf("a failed linter is not named in the lint block:\n%s", res.Lint)
			}
			if st := e.LinterStatus(); got.Kind == wire.KindLinter && got.State != lsp.StateUnavailable &&
				!slices.ContainsFunc(st, func(s LinterStatus) bool { return s.Name == got.Name && s.Runs == 1 }) {
				t.Errorf("status lacks one run of %s: %+v", got.Name, st)
			}
		})
	}
}

// TestLinterFallbackSkippedWithLiveServer checks that a fallback linter does
// not run for a file a live language server serves, and an always linter
// does.
func TestLinterFallbackSkippedWithLiveServer(t *testing.T) {
	e := fakeEngine(t, "normal")
	testdaemon.WriteFile(t, e.Root, "a.fake", "x\n")
	e.Config.Linters = map[string]config.Linter{
		"fb": {Name: "fb", Command: []string{"sh", "-c", "echo 'a.fake:1:1: error: fallback ran'"}, Extensions: []string{".fake"},
			Parser: "gcc", Mode: config.LinterFallback, When: config.LinterOnEdit, Cwd: "{root}", Enabled: true, Timeout: 10 * time.Second},
		"al": {Name: "al", Command: []string{"sh", "-c", "echo 'a.fake:1:1: error: always ran'"}, Extensions: []string{".fake"},
			Parser: "gcc", Mode: config.LinterAlways, When: config.LinterOnEdit, Cwd: "{root}", Enabled: true, Timeout: 10 * time.Second},
	}
	res := e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: "a.fake"}}})
	if strings.Contains(res.Lint, "fallback ran") || !strings.Contains(res.Lint, "always ran") {
		t.Errorf("want only the always linter with a live server, got:\n%s", res.Lint)
	}
}

// TestLinterRunsPlanned: how the files of one check are shared out among
// runs — one per distinct command and directory after expansion, the list
// placeholders {files} and {dirs} filled in per run, {root} the linter's
// root with root markers.
func TestLinterRunsPlanned(t *testing.T) {
	files := map[string]string{
		"mod1/go.mod": "module m1\n", "mod1/a/a.go": "", "mod1/a/a2.go": "", "mod1/b/b.go": "",
		"mod2/go.mod": "module m2\n", "mod2/c/c.go": "", "top.go": "",
	}
	checked := []string{"mod1/b/b.go", "mod1/a/a2.go", "mod1/a/a.go", "mod2/c/c.go", "top.go"}
	tests := []struct {
		name   string
		linter config.Linter
		want   []string // per run: "dir: argv" with the root as R
	}{
		{"per file", config.Linter{Command: []string{"echo", "{file}"}}, []string{
			"R: echo R/mod1/a/a.go", "R: echo R/mod1/a/a2.go", "R: echo R/mod1/b/b.go", "R: echo R/mod2/c/c.go", "R: echo R/top.go"}},
		{"files, one run", config.Linter{Command: []string{"echo", "-x", "{files}", "--"}}, []string{
			"R: echo -x R/mod1/a/a.go R/mod1/a/a2.go R/mod1/b/b.go R/mod2/c/c.go R/top.go --"}},
		{"dirs per root marker", config.Linter{Command: []string{"echo", "{dirs}"}, RootMarkers: []string{"go.mod"}}, []string{
			"R/mod1: echo R/mod1/a R/mod1/b", "R/mod2: echo R/mod2/c", "R: echo R"}},
		{"per package directory", config.Linter{Command: []string{"echo", "{files}"}, Cwd: "{dir}"}, []string{
			"R/mod1/a: echo R/mod1/a/a.go R/mod1/a/a2.go", "R/mod1/b: echo R/mod1/b/b.go", "R/mod2/c: echo R/mod2/c/c.go", "R: echo R/top.go"}},
		{"root marker in the command", config.Linter{Command: []string{"echo", "{root}", "{dirs}"}, RootMarkers: []string{"go.mod"}, Cwd: "."}, []string{
			"R: echo R R", "R: echo R/mod1 R/mod1/a R/mod1/b", "R: echo R/mod2 R/mod2/c"}},
		{"requires met at the linter's root", config.Linter{Command: []string{"echo", "{files}"}, RootMarkers: []string{"go.mod"}, Requires: []string{"go.mod"}}, []string{
			"R/mod1: echo R/mod1/a/a.go R/mod1/a/a2.go R/mod1/b/b.go", "R/mod2: echo R/mod2/c/c.go"}}, // not top.go: the workspace root has no go.mod
		{"requires not met", config.Linter{Command: []string{"echo", "{files}"}, Requires: []string{"go.mod"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.linter
			l.Name, l.Extensions = "l", []string{".go"}
			e := linterEngine(t, files, l)
			var targets []target
			for _, rel := range checked {
				targets = append(targets, target{path: filepath.Join(e.Root, rel), rel: rel})
			}
			runs, skipped := e.linterRuns(targets, phaseEdit)
			if len(skipped) > 0 {
				t.Fatalf("skipped: %+v", skipped)
			}
			var got []string
			for _, r := range runs {
				argv := slices.Clone(r.argv)
				argv[0] = filepath.Base(argv[0])
				line := r.dir + ": " + strings.Join(argv, " ")
				got = append(got, strings.ReplaceAll(line, e.Root, "R"))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("runs:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestLintersBatched runs the built-in go vet and shellcheck over several
// files at once, as diagnose does: one go vet per module over its packages'
// directories, one shellcheck for every script, each finding on its own
// file. A directory go vet cannot load (two packages in one) fails the
// whole run, which then runs again per directory: the others keep their
// findings and the failure names the directory. A multi-file run that
// fails saying nothing about a file is a failure, not clean.
func TestLintersBatched(t *testing.T) {
	requireTool(t, "go")
	requireTool(t, "shellcheck")
	builtin := func(name string) config.Linter {
		i := slices.IndexFunc(config.BuiltinLinters(), func(l config.Linter) bool { return l.Name == name })
		return config.BuiltinLinters()[i]
	}
	vet := func(pkg, arg string) string { // a Printf whose %d gets a string
		return "package " + pkg + "\n\nimport \"fmt\"\n\nfunc F() { fmt.Printf(\"%d\\n\", \"" + arg + "\") }\n"
	}
	files := map[string]string{
		"mod1/go.mod": "module m1\n\ngo 1.21\n", "mod1/a/a.go": vet("a", "s"), "mod1/b/b.go": vet("b", "t"), "mod1/b/ok.go": "package b\n",
		"mod2/go.mod": "module m2\n\ngo 1.21\n", "mod2/c/c.go": vet("c", "u"),
		"mod3/go.mod": "module m3\n\ngo 1.21\n", "mod3/ok/ok.go": vet("ok", "v"), "mod3/mixed/p.go": "package p\n", "mod3/mixed/q.go": "package q\n",
		"x.sh": "#!/bin/sh\ncd dir\n", "y.sh": "#!/bin/sh\necho $1\n",
	}
	broken := config.Linter{Name: "broken", Command: []string{"sh", "-c", "echo 'fatal: no config found' >&2; exit 2", "{files}"},
		Extensions: []string{".sh"}}
	e := linterEngine(t, files, builtin("go-vet"), builtin("shellcheck"), broken)
	e.severity = 4
	var changes []wire.Change
	for _, rel := range []string{"mod1/a/a.go", "mod1/b/b.go", "mod1/b/ok.go", "mod2/c/c.go", "mod3/ok/ok.go", "mod3/mixed/p.go", "mod3/mixed/q.go", "x.sh", "y.sh"} {
		changes = append(changes, wire.Change{Path: rel})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res := e.Check(ctx, wire.NotifyChangeParams{Changes: changes, Phase: phaseDiagnose, BudgetMS: 80000, ColdBudgetMS: 80000})
	got := make(map[string]string)
	for _, f := range res.Files {
		var msgs []string
		for _, d := range f.Diagnostics {
			msgs = append(msgs, d.Source+" "+d.Message)
		}
		got[workspace.Display(e.Root, f.Path)] = strings.Join(msgs, "; ")
	}
	for rel, want := range map[string]string{
		"mod1/a/a.go":   "go-vet fmt.Printf format %d has arg \"s\" of wrong type string",
		"mod1/b/b.go":   "go-vet fmt.Printf format %d has arg \"t\" of wrong type string",
		"mod2/c/c.go":   "go-vet fmt.Printf format %d has arg \"u\" of wrong type string",
		"mod3/ok/ok.go": "go-vet fmt.Printf format %d has arg \"v\" of wrong type string", // after the split
		"x.sh":          "shellcheck Use 'cd ... || exit' or 'cd ... || return' in case cd fails.",
		"y.sh":          "shellcheck Double quote to prevent globbing and word splitting.",
	} {
		if !strings.Contains(got[rel], want) {
			t.Errorf("%s: got %q, want %q", rel, got[rel], want)
		}
	}
	if got["mod1/b/ok.go"] != "" {
		t.Errorf("ok.go: got %q, want nothing", got["mod1/b/ok.go"])
	}
	runs := make(map[string]int64)
	for _, s := range e.LinterStatus() {
		runs[s.Name] = s.Runs
	}
	if runs["go-vet"] != 3 || runs["shellcheck"] != 1 {
		t.Errorf("runs = %v, want go-vet 3 (one per module), shellcheck 1", runs)
	}
	mixed := filepath.Join(e.Root, "mod3", "mixed")
	if !slices.ContainsFunc(res.Servers, func(s wire.ServerResult) bool {
		return s.Name == "go-vet" && s.State == lsp.StateBroken && strings.Contains(s.Error, "found packages p") &&
			strings.HasSuffix(s.Error, "(in "+mixed+")")
	}) {
		t.Errorf("mod3's go vet does not name the directory it could not load: %+v", res.Servers)
	}
	i := slices.IndexFunc(res.Servers, func(s wire.ServerResult) bool { return s.Name == "broken" })
	if i < 0 || res.Servers[i].State != lsp.StateBroken || !strings.Contains(res.Servers[i].Error, "fatal: no config found") {
		t.Errorf("the broken multi-file run: %+v", res.Servers)
	}
}
