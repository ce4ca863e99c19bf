package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/clangdcheck"
)

// TestFindWarningsConfig: the start-up look for a file that can raise a
// server's warnings to errors covers the root, its parents and the tree
// under it, skips what the watcher skips, and fails (keeping the server
// whole) when the tree is larger than its bound.
func TestFindWarningsConfig(t *testing.T) {
	names := []string{".clang-tidy"}
	tests := []struct {
		name  string
		files map[string]string // under the test's directory; the root is ws/
		bound int
		want  string // found, relative to the test's directory; "" none
		fails bool
	}{
		{name: "none", files: map[string]string{"ws/main.c": "", "ws/src/a.c": ""}},
		{name: "in the root", files: map[string]string{"ws/.clang-tidy": "", "ws/main.c": ""}, want: "ws/.clang-tidy"},
		{name: "deep under the root", files: map[string]string{"ws/src/lib/.clang-tidy": ""}, want: "ws/src/lib/.clang-tidy"},
		{name: "above the root", files: map[string]string{".clang-tidy": "", "ws/main.c": ""}, want: ".clang-tidy"},
		{name: "in a skipped directory", files: map[string]string{"ws/node_modules/x/.clang-tidy": "", "ws/.git/.clang-tidy": ""}},
		{name: "another name", files: map[string]string{"ws/.clangd": "", "ws/clang-tidy": ""}},
		{name: "more directories than the bound", files: map[string]string{"ws/a/x.c": "", "ws/b/x.c": "", "ws/c/x.c": ""}, bound: 3, fails: true},
		{name: "within the bound", files: map[string]string{"ws/a/x.c": "", "ws/b/.clang-tidy": ""}, bound: 3, want: "ws/b/.clang-tidy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.bound > 0 {
				old := warningsWalkDirs
				warningsWalkDirs = tt.bound
				t.Cleanup(func() { warningsWalkDirs = old })
			}
			dir := workspace(t, tt.files)
			got, err := findWarningsConfig(context.Background(), filepath.Join(dir, "ws"), names)
			if tt.fails {
				if err == nil {
					t.Fatalf("found %q, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.want != "" {
				want = filepath.Join(dir, filepath.FromSlash(tt.want))
			}
			// Parents of the test's directory are the machine's: a
			// .clang-tidy there would be found first.
			if got != want && !(tt.want == "" && !strings.HasPrefix(got, dir)) {
				t.Fatalf("found %q, want %q", got, want)
			}
		})
	}
}

// TestWarningsConfigNear: a check stats the directories from each
// document up to the root, and no further.
func TestWarningsConfigNear(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		docs  []string
		want  string
	}{
		{"none", map[string]string{"ws/src/a.c": ""}, []string{"ws/src/a.c"}, ""},
		{"beside the document", map[string]string{"ws/src/.clang-tidy": ""}, []string{"ws/src/a.c"}, "ws/src/.clang-tidy"},
		{"in the root", map[string]string{"ws/.clang-tidy": ""}, []string{"ws/src/deep/a.c"}, "ws/.clang-tidy"},
		{"beside another document", map[string]string{"ws/lib/.clang-tidy": ""}, []string{"ws/src/a.c", "ws/lib/b.c"}, "ws/lib/.clang-tidy"},
		{"in a sibling directory only", map[string]string{"ws/lib/.clang-tidy": ""}, []string{"ws/src/a.c"}, ""},
		{"above the root: not a check's business", map[string]string{".clang-tidy": ""}, []string{"ws/src/a.c"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.files)
			var docs []Doc
			for _, d := range tt.docs {
				docs = append(docs, Doc{Path: filepath.Join(dir, filepath.FromSlash(d))})
			}
			got, want := warningsConfigNear(docs, filepath.Join(dir, "ws"), []string{".clang-tidy"}), ""
			if tt.want != "" {
				want = filepath.Join(dir, filepath.FromSlash(tt.want))
			}
			if got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// TestLeanCommand: clangd runs without clang-tidy only while nothing can
// show what clang-tidy finds.
func TestLeanCommand(t *testing.T) {
	clangd := catalogueServer(t, "clangd")
	lean := append(slices.Clone(clangd.Command), "--clang-tidy=false")
	tests := []struct {
		name     string
		severity string
		warnings bool   // a check asked for warnings
		whole    string // an earlier check's reason
		command  []string
		files    map[string]string
		want     []string // nil: whole
		why      string   // in the reason when whole
	}{
		{name: "nothing raises warnings", severity: "error", want: lean},
		{name: "threshold warning", severity: "warning", why: `severity "warning"`},
		{name: "threshold hint", severity: "hint", why: `severity "hint"`},
		{name: "a check asked for warnings", severity: "error", warnings: true, why: "asked for warnings"},
		{name: "an earlier check found a .clang-tidy", severity: "error", whole: "found x/.clang-tidy", why: "found x/.clang-tidy"},
		{name: "the user's command sets the flag", severity: "error", command: []string{"clangd", "--clang-tidy"}, why: "sets --clang-tidy itself"},
		{name: "the user's command without it", severity: "error", command: []string{"clangd", "--log=error"},
			want: []string{"clangd", "--log=error", "--clang-tidy=false"}},
		{name: "a .clang-tidy under the root", severity: "error", files: map[string]string{"src/.clang-tidy": "WarningsAsErrors: '*'\n"}, why: ".clang-tidy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.files)
			cfg := config.Default()
			cfg.Severity = tt.severity
			m := NewManager(cfg, dir, testLogger(t))
			t.Cleanup(m.Shutdown)
			if tt.warnings {
				m.ShowWarnings()
			}
			k := entryKey{"clangd", dir}
			if tt.whole != "" {
				m.whole[k] = tt.whole
			}
			s := clangd
			if tt.command != nil {
				s.Command = tt.command
			}
			got, why := m.leanCommand(context.Background(), s, k)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("command %q (%s), want %q", got, why, tt.want)
			}
			if tt.want == nil && !strings.Contains(why, tt.why) {
				t.Fatalf("reason %q, want it to say %q", why, tt.why)
			}
			if tt.want != nil && why != "" {
				t.Fatalf("lean with a reason to be whole: %q", why)
			}
		})
	}
}

// tidyFiles is a C project whose src/main.c has what -Wall and
// clang-tidy's default checks warn of, and no error.
var tidyFiles = map[string]string{
	"compile_flags.txt": "-Wall\n",
	"src/main.c":        "int f(void) {\n  int unused;\n  return sizeof(sizeof(int));\n}\n",
}

// clangdCheck runs `clangd --check=rel` in dir (clangdcheck), the way the
// catalogue's clangd reads the project with clang-tidy on, and returns
// its errors as "line [code]".
func clangdCheck(t *testing.T, dir, rel string) []string {
	t.Helper()
	exe, err := LookPath("clangd")
	if err != nil {
		t.Skipf("clangd: %v", err)
	}
	errs, err := clangdcheck.Errors(exe, dir, rel, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.String())
	}
	return got
}

// codes returns ds at or above min as "line [code]", sorted.
func codes(ds []diag.Diagnostic, min diag.Severity) []string {
	var out []string
	for _, d := range ds {
		if d.Severity.AtLeast(min) {
			out = append(out, fmt.Sprintf("%d [%s]", d.Line, d.Code))
		}
	}
	slices.Sort(out)
	return out
}

// clangdStatus is clangd's line of m.Status().
func clangdStatus(m *Manager) ServerStatus {
	for _, s := range m.Status() {
		if s.Name == "clangd" {
			return s
		}
	}
	return ServerStatus{}
}

// tidyProject makes a copy of tidyFiles with a Manager for it, and
// returns it with a check of src/main.c that must be fresh (what names
// the check in a failure) and returns that file's diagnostics.
func tidyProject(t *testing.T) (string, *Manager, func(what string) []diag.Diagnostic) {
	t.Helper()
	dir := workspace(t, tidyFiles)
	m := NewManager(config.Default(), dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	main := filepath.Join(dir, "src", "main.c")
	return dir, m, func(what string) []diag.Diagnostic {
		t.Helper()
		out := m.Check(ctx, []Doc{{Path: main}}, 0)
		if len(out) != 1 || out[0].Freshness != Fresh || out[0].Err != nil {
			t.Fatalf("%s: %+v", what, out)
		}
		return out[0].Files[main]
	}
}

// entryFor returns m's entry for (server, root), nil when there is none.
func entryFor(m *Manager, server, root string) *entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.entries[entryKey{server, root}]
}

// TestClangdWarningsAsErrors: clangd runs without clang-tidy while
// nothing can show its findings, with the same errors clangd's own check
// mode reports with clang-tidy on (none); a .clang-tidy with
// WarningsAsErrors written next to the file afterwards restarts it whole
// at the next check, which then lists every error clangd --check lists
// (clang's -Wall warnings and clang-tidy's findings, raised). Without
// the restart the second check was clean: a false clean.
func TestClangdWarningsAsErrors(t *testing.T) {
	requireServer(t, "clangd")
	for round := range 2 {
		dir, m, checkMain := tidyProject(t)
		check := func(what string) []string {
			t.Helper()
			return codes(checkMain(fmt.Sprintf("round %d, %s", round, what)), diag.SeverityError)
		}
		if got, truth := check("no .clang-tidy"), clangdCheck(t, dir, "src/main.c"); !slices.Equal(got, truth) {
			t.Fatalf("round %d, no .clang-tidy: errors %q, clangd --check's %q", round, got, truth)
		}
		if e := entryFor(m, "clangd", dir); e == nil || !e.lean {
			t.Fatalf("round %d: clangd does not run lean with nothing to raise its warnings", round)
		}
		if st := clangdStatus(m); !slices.Equal(st.WarningsOff, []string{"--clang-tidy=false"}) {
			t.Errorf("round %d: status %+v, want it to say --clang-tidy=false", round, st)
		}
		writeFile(t, dir, "src/.clang-tidy", "WarningsAsErrors: '*'\n")
		writeFile(t, dir, "src/main.c", tidyFiles["src/main.c"]+"/* touched */\n")
		truth := clangdCheck(t, dir, "src/main.c")
		if len(truth) < 2 {
			t.Fatalf("round %d: clangd --check lists %q with WarningsAsErrors; want clang's and clang-tidy's", round, truth)
		}
		if got := check("a .clang-tidy with WarningsAsErrors"); !slices.Equal(got, truth) {
			t.Errorf("round %d, with WarningsAsErrors: errors %q, clangd --check's %q", round, got, truth)
		}
		if e := entryFor(m, "clangd", dir); e == nil || e.lean {
			t.Errorf("round %d: clangd still lean after a .clang-tidy appeared", round)
		}
		if st := clangdStatus(m); len(st.WarningsOff) > 0 {
			t.Errorf("round %d: status %+v after the restart, want no warnings_off", round, st)
		}
	}
}

// TestClangdShowWarnings: a check that asks for warnings restarts a lean
// clangd whole, and its answer then has clang-tidy's warnings: the ones
// clangd --check lists (as errors) once a .clang-tidy raises them, in a
// copy of the project.
func TestClangdShowWarnings(t *testing.T) {
	requireServer(t, "clangd")
	dir, m, checkMain := tidyProject(t)
	check := func() []diag.Diagnostic { return checkMain("src/main.c") }
	tidy := func(ds []diag.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			if d.Source == "clang-tidy" {
				out = append(out, fmt.Sprintf("%d [%s]", d.Line, d.Code))
			}
		}
		slices.Sort(out)
		return out
	}
	if got := tidy(check()); len(got) != 0 {
		t.Fatalf("lean clangd sent clang-tidy findings %q", got)
	}
	m.ShowWarnings()
	got := tidy(check())
	raised := workspace(t, tidyFiles)
	writeFile(t, raised, ".clang-tidy", "WarningsAsErrors: '*'\n")
	var truth []string
	for _, c := range clangdCheck(t, raised, "src/main.c") {
		if !strings.Contains(c, "[-W") { // clang's own warnings: not clang-tidy's
			truth = append(truth, c)
		}
	}
	if len(truth) == 0 || !slices.Equal(got, truth) {
		t.Fatalf("clang-tidy's warnings after ShowWarnings: %q; clangd --check's, raised: %q", got, truth)
	}
	if e := entryFor(m, "clangd", dir); e == nil || e.lean {
		t.Fatal("clangd still lean after a check asked for warnings")
	}
}
