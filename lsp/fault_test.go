package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// fakeConfig returns a config whose only server is the fake in mode, with
// short deadlines.
func fakeConfig(t *testing.T, mode string) *config.Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.LSP.Timeout = time.Second
	cfg.LSP.FirstTouchTimeout = 2 * time.Second
	cfg.LSP.Servers = map[string]config.Server{"fake": {
		Name: "fake", Command: []string{exe, "-test.run=^$"}, Extensions: []string{".fake"},
		LanguageIDs: map[string]string{".fake": "fake"}, Enabled: true,
		Env: map[string]string{"LSP_HOOK_FAKE_SERVER": mode},
	}}
	return cfg
}

func TestFaults(t *testing.T) {
	tests := []struct {
		mode          string
		text          string
		wantFreshness Freshness
		wantState     string
		wantErr       error
		wantMessage   string
		maxElapsed    time.Duration
	}{
		{mode: "crash", text: "x", wantFreshness: None, wantState: StateBroken, wantErr: ErrBroken, maxElapsed: 2 * time.Second},
		{mode: "silent", text: "x", wantFreshness: Timeout, wantState: StateActive, maxElapsed: 3 * time.Second},
		// 1 MiB of text fills the pipe of a server that does not read: the
		// write must time out, not block.
		{mode: "noread", text: strings.Repeat("x", 1<<20), wantFreshness: None, wantState: StateBroken, wantErr: ErrBroken, maxElapsed: DefaultWriteTimeout + 2*time.Second},
		{mode: "stale", text: "x", wantFreshness: Fresh, wantState: StateActive, wantMessage: "fresh: version 1", maxElapsed: 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.fake")
			os.WriteFile(path, []byte(tt.text), 0o644)
			m := NewManager(fakeConfig(t, tt.mode), dir, testLogger(t))
			defer m.Shutdown()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			begin := time.Now()
			out := m.Check(ctx, []Doc{{Path: path}}, 0)
			elapsed := time.Since(begin)
			if len(out) != 1 {
				t.Fatalf("outcomes = %+v", out)
			}
			o := out[0]
			if o.Freshness != tt.wantFreshness {
				t.Errorf("freshness = %s, want %s (err %v)", o.Freshness, tt.wantFreshness, o.Err)
			}
			if tt.wantErr != nil && !errors.Is(o.Err, tt.wantErr) {
				t.Errorf("err = %v, want %v", o.Err, tt.wantErr)
			}
			if elapsed > tt.maxElapsed {
				t.Errorf("took %v, budget %v", elapsed, tt.maxElapsed)
			}
			if tt.wantMessage != "" {
				ds := o.Files[path]
				if len(ds) != 1 || ds[0].Message != tt.wantMessage {
					t.Errorf("diagnostics = %+v, want only %q", ds, tt.wantMessage)
				}
			}
			st := m.Status()
			var fake *ServerStatus
			for i := range st {
				if st[i].Name == "fake" {
					fake = &st[i]
				}
			}
			if fake == nil || fake.State != tt.wantState {
				t.Errorf("status = %+v, want state %s", st, tt.wantState)
			}
		})
	}
}

// TestShutdownKillsStuckServer: a server that ignores shutdown is killed
// with its process group, and no process is left behind.
func TestShutdownKillsStuckServer(t *testing.T) {
	dir := t.TempDir()
	m := NewManager(fakeConfig(t, "noread"), dir, testLogger(t))
	path := filepath.Join(dir, "a.fake")
	os.WriteFile(path, []byte("x"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m.Check(ctx, []Doc{{Path: path}}, 0)
	pid := 0
	for _, s := range m.Status() {
		pid = s.Pid
	}
	if pid == 0 {
		t.Fatal("fake server not started")
	}
	begin := time.Now()
	m.Shutdown()
	if d := time.Since(begin); d > ShutdownGrace+2*time.Second {
		t.Errorf("shutdown took %v", d)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("server pid %d still exists after shutdown: %v", pid, err)
	}
}

func TestUnavailableServer(t *testing.T) {
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.Server{"nope": {
		Name: "nope", Command: []string{"lsp-hook-no-such-server"}, Extensions: []string{".nope"}, Enabled: true,
	}}
	dir := t.TempDir()
	m := NewManager(cfg, dir, testLogger(t))
	defer m.Shutdown()
	out := m.Check(context.Background(), []Doc{{Path: filepath.Join(dir, "a.nope"), Text: []byte("x")}}, 0)
	if len(out) != 1 || out[0].Freshness != None || out[0].Err == nil || !strings.Contains(out[0].Err.Error(), "not found") {
		t.Fatalf("outcome = %+v", out)
	}
	if st := m.Status(); len(st) != 1 || st[0].State != StateUnavailable {
		t.Fatalf("status = %+v", st)
	}
}
