//go:build unix

package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestGoneWhileServerDown: a file deleted while its server is down (killed,
// in its crash back-off) is never passed over in silence. During the
// back-off the deletion's answer is the crash, with when the server starts
// again; once the back-off is over the deletion starts it, and the file the
// deletion broke is reported where `go build` reports it. (Found by the
// soak: `rm jobs/helpers.go` hooked right after gopls's back-off ended
// answered nothing while go build failed.)
func TestGoneWhileServerDown(t *testing.T) {
	requireServer(t, "gopls")
	dir := workspace(t, map[string]string{
		"go.mod":     "module m\n\ngo 1.22\n",
		"helpers.go": "package m\n\nfunc helper() int { return 1 }\n",
		"jobs.go":    "package m\n\n// Run runs.\nfunc Run() int { return helper() }\n",
	})
	m := NewManager(config.Default(), dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	clock := newFakeClock()
	m.Now = clock.Now
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	jobs, helpers := filepath.Join(dir, "jobs.go"), filepath.Join(dir, "helpers.go")
	if out := m.Check(ctx, []Doc{{Path: jobs}}, 0); len(out) != 1 || out[0].Freshness != Fresh || len(errorsOf(out[0].Files[jobs])) > 0 {
		t.Fatalf("first check: %+v", out)
	}
	if err := syscall.Kill(statusOf(t, m, "gopls").Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !eventually(10*time.Second, func() bool { return statusOf(t, m, "gopls").State == StateBroken }) {
		t.Fatalf("gopls not broken after SIGKILL: %+v", statusOf(t, m, "gopls"))
	}
	if err := os.Remove(helpers); err != nil {
		t.Fatal(err)
	}
	truth := goBuildErrors(t, dir)
	if len(truth["jobs.go"]) == 0 {
		t.Fatalf("go build finds jobs.go fine after helpers.go's deletion: %v", truth)
	}

	out := m.Gone(ctx, []string{helpers}, 0)
	var ce *CrashError
	if len(out) != 1 || out[0].Freshness != None || !errors.As(out[0].Err, &ce) {
		t.Fatalf("deletion during the back-off: %+v, want gopls's crash as the answer", out)
	}

	clock.Add(DefaultRestartBackoff)
	out = m.Gone(ctx, []string{helpers}, 0)
	if len(out) != 1 || out[0].Freshness != Fresh {
		t.Fatalf("deletion after the back-off: %+v, want a fresh answer from the restarted gopls", out)
	}
	if got := positions(out[0].Others[jobs]); !slices.Equal(got, truth["jobs.go"]) {
		t.Errorf("after helpers.go's deletion, jobs.go errors at %v; go build at %v", got, truth["jobs.go"])
	}
}

// TestGoneAfterWatcher: the watcher passes a deletion to gopls before the
// hook that names the file comes, and gopls publishes the breakage then,
// in a file no document of the re-check is: the hook's answer must still
// list it, where `go build` reports it. (Found by the soak, seed
// 6086318533037230816, go call #20: `rm jobs/helpers.go` hooked 670 ms
// later answered nothing.) Repeated: the watcher's timing varies.
func TestGoneAfterWatcher(t *testing.T) {
	requireServer(t, "gopls")
	for i := range 3 {
		dir := workspace(t, map[string]string{
			"go.mod":     "module m\n\ngo 1.22\n",
			"helpers.go": "package m\n\nfunc helper() int { return 1 }\n",
			"jobs.go":    "package m\n\n// Run runs.\nfunc Run() int { return helper() }\n",
			"a.go":       "package m\n\n// A is a.\nconst A = 1\n",
			"b.go":       "package m\n\n// B is b.\nconst B = 2\n",
			"c.go":       "package m\n\n// C is c.\nconst C = 3\n",
		})
		m := NewManager(config.Default(), dir, testLogger(t))
		m.WatchFiles = true
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		jobs, helpers := filepath.Join(dir, "jobs.go"), filepath.Join(dir, "helpers.go")
		var docs []Doc
		for _, f := range []string{"a.go", "b.go", "c.go", "helpers.go"} {
			docs = append(docs, Doc{Path: filepath.Join(dir, f)})
		}
		if out := m.Check(ctx, docs, 0); len(out) != 1 || out[0].Freshness != Fresh {
			t.Fatalf("round %d, first check: %+v", i, out)
		}
		if err := os.Remove(helpers); err != nil {
			t.Fatal(err)
		}
		truth := goBuildErrors(t, dir)
		if len(truth["jobs.go"]) == 0 {
			t.Fatalf("go build finds jobs.go fine after helpers.go's deletion: %v", truth)
		}
		if !eventually(20*time.Second, func() bool { return len(errorsOf(m.Snapshot().Diagnostics(jobs))) > 0 }) {
			t.Fatalf("round %d: gopls never published jobs.go's breakage after the watcher passed the deletion on", i)
		}
		var got []string
		for _, o := range m.Gone(ctx, []string{helpers}, 0) {
			got = append(got, positions(o.Others[jobs])...)
		}
		if !slices.Equal(got, truth["jobs.go"]) {
			t.Errorf("round %d: the hook after the watcher: jobs.go errors at %v; go build at %v", i, got, truth["jobs.go"])
		}
		cancel()
		m.Shutdown()
	}
}
