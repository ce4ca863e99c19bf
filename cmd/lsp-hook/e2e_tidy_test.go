package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/clangdcheck"
)

// tidyC has what clang's -Wall (testdata/langs/c's compile_flags.txt)
// and clang-tidy's default checks warn of, and no error.
const tidyC = "int f(void) {\n  int unused;\n  return sizeof(sizeof(int));\n}\n"

// TestDiagnoseClangTidy: clangd runs without clang-tidy while nothing
// shows its findings (config.Server.WarningsOnlyArgs), and a request for
// warnings gets them all the same: `diagnose --severity warning`, in
// process and through a daemon whose clangd a hook's check started
// without clang-tidy, reports the clang-tidy warnings that clangd's own
// check mode lists once a .clang-tidy raises them to errors; at the
// default threshold both say nothing, as clangd --check does without
// one.
func TestDiagnoseClangTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	requireExe(t, "clangd")
	w := newWorkspaceOf(t, "langs/c", "", []string{"PATH=" + langPath()})
	if err := os.WriteFile(filepath.Join(w.root, "tidy.c"), []byte(tidyC), 0o644); err != nil {
		t.Fatal(err)
	}
	truth := clangdTidyErrors(t, w.root, "tidy.c")
	if len(truth) == 0 {
		t.Fatal("clangd --check lists no clang-tidy finding in tidy.c with WarningsAsErrors")
	}
	tidyWarnings := func(t *testing.T, args ...string) []string {
		t.Helper()
		r := w.run("", nil, append([]string{"diagnose", "--format", "json", "--severity", "warning"}, args...)...)
		var rep struct {
			Files []struct {
				Rel         string
				Diagnostics []struct {
					Line         int
					Code, Source string
				}
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.exit != 1 {
			t.Fatalf("diagnose exited %d (%v):\n%s\n%s", r.exit, err, r.stdout, r.stderr)
		}
		var got []string
		for _, f := range rep.Files {
			for _, d := range f.Diagnostics {
				if d.Source == "clang-tidy" {
					got = append(got, f.Rel+":"+strconv.Itoa(d.Line)+" "+d.Code)
				}
			}
		}
		slices.Sort(got)
		return got
	}
	t.Run("in process", func(t *testing.T) {
		defer w.use(t)()
		if got := tidyWarnings(t, "--no-daemon", "tidy.c"); !slices.Equal(got, truth) {
			t.Errorf("clang-tidy warnings %q, clangd --check's (raised) %q", got, truth)
		}
	})
	t.Run("through a daemon whose clangd runs without clang-tidy", func(t *testing.T) {
		defer w.use(t)()
		if r := w.run("", nil, "notify", "tidy.c"); r.exit != 0 || r.stdout != "" { // starts the daemon and clangd, errors only
			t.Fatalf("notify exited %d, printed %q: %s", r.exit, r.stdout, r.stderr)
		}
		if log, _ := w.logSince(0); !strings.Contains(log, "server runs without its warnings-only part") {
			t.Fatalf("the daemon's clangd did not start without clang-tidy; log:\n%s", log)
		}
		if got := tidyWarnings(t, "tidy.c"); !slices.Equal(got, truth) {
			t.Errorf("clang-tidy warnings %q, clangd --check's (raised) %q", got, truth)
		}
		if log, _ := w.logSince(0); !strings.Contains(log, "restarting server whole") {
			t.Errorf("the daemon's log shows no restart of clangd with clang-tidy on")
		}
	})
}

// clangdTidyErrors runs `clangd --check=rel` (clangdcheck) in a copy of
// dir with a .clang-tidy that raises every warning to an error, and
// returns the clang-tidy findings it lists (not clang's own -W warnings)
// as "rel:line code", sorted.
func clangdTidyErrors(t *testing.T, dir, rel string) []string {
	t.Helper()
	raised := t.TempDir()
	if err := os.CopyFS(raised, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(raised, ".clang-tidy"), []byte("WarningsAsErrors: '*'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := exec.LookPath("clangd")
	if err != nil {
		t.Fatal(err)
	}
	errs, err := clangdcheck.Errors(exe, raised, rel, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range errs {
		if e.Tidy() {
			got = append(got, rel+":"+strconv.Itoa(e.Line)+" "+e.Code)
		}
	}
	slices.Sort(got)
	return got
}
