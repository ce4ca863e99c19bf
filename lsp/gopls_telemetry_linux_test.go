package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestGoplsNoTelemetryChild: the catalogue's gopls (Env
// GO_TELEMETRY_CHILD=2) starts no telemetry child process, where the same
// gopls without that variable does (unless this user's telemetry mode is
// "off": then there is nothing to compare, and the test skips). Each still
// answers a type error. Children are read from /proc, hence Linux.
func TestGoplsNoTelemetryChild(t *testing.T) {
	requireServer(t, "gopls")
	tests := []struct {
		name      string
		keepEnv   bool
		wantChild bool
	}{
		{"without GO_TELEMETRY_CHILD", false, true},
		{"the catalogue's", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config.Default()
			s := cfg.LSP.Servers["gopls"]
			if s.Env["GO_TELEMETRY_CHILD"] != "2" {
				t.Fatalf("catalogue gopls Env = %v, want GO_TELEMETRY_CHILD=2", s.Env)
			}
			if !tt.keepEnv {
				s.Env = nil
				cfg.LSP.Servers["gopls"] = s
			}
			dir := workspace(t, map[string]string{
				"go.mod":  "module example.com/demo\n\ngo 1.22\n",
				"main.go": "package main\n\nfunc main() {\n\tvar n int = \"x\"\n\tprintln(n)\n}\n",
			})
			m := NewManager(cfg, dir, testLogger(t))
			t.Cleanup(m.Shutdown)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			path := filepath.Join(dir, "main.go")
			out := m.Check(ctx, []Doc{{Path: path}}, 0)
			if len(out) != 1 || out[0].Freshness != Fresh || len(out[0].Files[path]) != 1 {
				t.Fatalf("check: %+v", out)
			}
			pid := 0
			for _, st := range m.Status() {
				if st.Name == "gopls" {
					pid = st.Pid
				}
			}
			if pid == 0 {
				t.Fatalf("no gopls pid in status %+v", m.Status())
			}
			// telemetry.Start runs first thing in gopls's main and starts
			// its child before gopls reads a message: by the answer above
			// the child exists, if there is one.
			kids := goplsChildren(t, pid)
			switch {
			case tt.wantChild && len(kids) == 0:
				t.Skip("gopls started no telemetry child even without GO_TELEMETRY_CHILD: this user's telemetry mode is off")
			case !tt.wantChild && len(kids) > 0:
				t.Errorf("gopls (pid %d) started child processes %v", pid, kids)
			}
		})
	}
}

// goplsChildren returns the pids of pid's child processes, from
// /proc/PID/task/*/children.
func goplsChildren(t *testing.T, pid int) []string {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		kids = append(kids, strings.Fields(string(b))...)
	}
	return kids
}
