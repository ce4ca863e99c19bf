package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// TestServerProgramInWorkspaceNeedsTrust: a server whose program a PATH
// entry finds inside the workspace (direnv's PATH_add) is not run until
// the workspace is trusted; the same server found outside it runs
// untrusted.
func TestServerProgramInWorkspaceNeedsTrust(t *testing.T) {
	bin, err := os.ReadFile(fakelsptest.Bin(t))
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(tempDir(t), "bin")
	tests := []struct {
		name    string
		dir     string // "" inside the workspace
		trusted bool
		wantErr error
	}{
		{name: "inside, untrusted", wantErr: ErrUntrustedProgram},
		{name: "inside, trusted", trusted: true},
		{name: "outside, untrusted", dir: outside},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := tempDir(t)
			dir := tt.dir
			if dir == "" {
				dir = filepath.Join(ws, "node_modules", ".bin")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "fake-ls"), bin, 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
			cfg := fakelsptest.Config(t, "normal")
			srv := cfg.LSP.Servers["fake"]
			srv.Command = append([]string{"fake-ls"}, srv.Command[1:]...)
			cfg.LSP.Servers["fake"] = srv
			cfg.WorkspaceTrusted = tt.trusted
			m := NewManager(cfg, ws, testLogger(t))
			t.Cleanup(m.Shutdown)
			path := writeFile(t, ws, "a.fake", "ERROR: broken\n")
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			out := m.Check(ctx, []Doc{{Path: path}}, 0)
			if len(out) != 1 {
				t.Fatalf("outcomes = %+v", out)
			}
			if tt.wantErr != nil {
				if !errors.Is(out[0].Err, tt.wantErr) || out[0].Freshness == Fresh {
					t.Errorf("outcome = %s, err %v; want not fresh and %v", out[0].Freshness, out[0].Err, tt.wantErr)
				}
				for _, st := range m.Status() {
					if st.Pid != 0 {
						t.Errorf("server %s runs as pid %d", st.Name, st.Pid)
					}
				}
				return
			}
			if out[0].Freshness != Fresh || len(out[0].Files[path]) != 1 {
				t.Errorf("outcome = %s (err %v), files %+v; want fresh with one diagnostic", out[0].Freshness, out[0].Err, out[0].Files)
			}
		})
	}
}
