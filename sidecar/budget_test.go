package sidecar

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/membudget"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// TestBudgetRound: a daemon's round stops its own idle server only when
// the global least-recently-used choice names it. Another daemon (a
// record of a live process, this test's parent) holds a server: when
// that one was used longer ago and stopping it is enough, this daemon
// stops nothing; when this daemon's was used longer ago, it stops its
// own, says so in status, and the next check starts it again.
func TestBudgetRound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		otherIdle time.Duration // how long ago the other daemon's server was used
		wantStop  bool
	}{
		{"the other daemon's server is older: this one stays", time.Hour, false},
		{"this daemon's server is older: it stops", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_RUNTIME_DIR", testdaemon.ShortDir(t))
			root, cfg, m, log := testdaemon.Fake(t, "normal")
			path := filepath.Join(root, "a.fake")
			os.WriteFile(path, []byte("ERROR: one\n"), 0o644)
			if out := m.Check(context.Background(), []lsp.Doc{{Path: path}}, 0); out[0].Freshness != lsp.Fresh {
				t.Fatalf("first check: %+v", out)
			}
			s := &Server{Engine: engine.NewEngine(root, cfg, m, log), Log: log, socket: "d.sock", start: time.Now()}
			b, err := newBudgetKeeper(s, 1<<39) // over with the other server (1 TiB), under without it
			if err != nil {
				t.Fatal(err)
			}
			b.minIdle = 0
			now := time.Now()
			mine := m.Running()[0]
			other := membudget.Record{Pid: os.Getppid(), Root: "/other", Written: now, Servers: []membudget.Server{
				{Name: "gopls", Root: "/other", Pid: 1, RSS: 1 << 40, LastUse: mine.LastUse.Add(-tc.otherIdle)},
			}}
			if tc.otherIdle == 0 {
				other.Servers[0].LastUse = now // used after this daemon's
			}
			if err := membudget.Write(b.dir, other); err != nil {
				t.Fatal(err)
			}
			b.round(now)
			stopped := len(m.Running()) == 0
			if stopped != tc.wantStop {
				t.Fatalf("this daemon's server stopped = %v, want %v; running %+v", stopped, tc.wantStop, m.Running())
			}
			st := b.status()
			if st.Daemons != 2 || (len(st.Stopped) == 1) != tc.wantStop {
				t.Errorf("status = %+v, want 2 daemons and the stop, if any", st)
			}
			if !tc.wantStop {
				return
			}
			recs, err := membudget.ReadAll(b.dir, time.Now(), time.Minute)
			if err != nil || len(recs) != 2 {
				t.Fatalf("records = %+v, %v", recs, err)
			}
			for _, r := range recs {
				if r.Pid == os.Getpid() && (len(r.Servers) != 0 || len(r.Stopped) != 1) {
					t.Errorf("this daemon's record after the stop = %+v, want no server and one stopped", r)
				}
			}
			if out := m.Check(context.Background(), []lsp.Doc{{Path: path}}, 0); out[0].Freshness != lsp.Fresh || len(out[0].Files[path]) != 1 {
				t.Fatalf("check after the budget stopped the server: %+v", out)
			}
		})
	}
}
