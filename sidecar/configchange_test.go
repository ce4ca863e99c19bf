package sidecar

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestConfigChangedRefuses: once a file the daemon's config was loaded
// from changes, hello says so and every method that answers by the config
// is refused with wire.CodeConfigChanged, while hello, status and
// shutdown still answer; until then, nothing is refused.
func TestConfigChangedRefuses(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	cfgFile := filepath.Join(root, ".lsp-hook.yaml")
	data := filepath.Join(root, "a.json")
	if err := os.WriteFile(data, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.LSP.Enabled = false
	e := engine.NewEngine(root, cfg, nil, testdaemon.Discard())
	srv := &Server{Engine: e, Version: "test", Log: e.Log, ConfigStamp: config.Stamp(root)}
	socket := testdaemon.Socket(t)
	testdaemon.Serve(t, srv, socket)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	change := wire.NotifyChangeParams{Changes: []wire.Change{{Path: data, Mode: wire.ModeEdit}}}

	c, err := wire.Dial(ctx, socket, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.Hello.Current() {
		t.Fatalf("hello before any change: %+v, want a current daemon", c.Hello)
	}
	var res wire.Result
	if err := c.Call(ctx, wire.MethodNotifyChange, change, &res); err != nil {
		t.Fatalf("notify_change before any change: %v", err)
	}

	if err := os.WriteFile(cfgFile, []byte("severity: warning\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c2, err := wire.Dial(ctx, socket, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if !c2.Hello.ConfigChanged || c2.Hello.Current() {
		t.Errorf("hello after the config file was written: %+v, want config_changed", c2.Hello)
	}
	for _, tc := range []struct {
		method string
		params any
	}{
		{wire.MethodNotifyChange, change},
		{wire.MethodCheck, wire.CheckParams{Path: data}},
		{wire.MethodDiagnostics, wire.DiagnosticsParams{}},
	} {
		if err := c.Call(ctx, tc.method, tc.params, new(any)); !wire.IsConfigChanged(err) {
			t.Errorf("%s after the config changed: %v, want the CodeConfigChanged refusal", tc.method, err)
		}
	}
	var st StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil || !st.ConfigChanged {
		t.Errorf("status after the config changed: config_changed %v, err %v; want true, nil", st.ConfigChanged, err)
	}
	// Written back as it was: still changed (servers may have read it).
	if err := os.Remove(cfgFile); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, wire.MethodNotifyChange, change, &res); !wire.IsConfigChanged(err) {
		t.Errorf("notify_change once the file was removed again: %v, want still refused", err)
	}
	if err := c.Call(ctx, wire.MethodShutdown, struct{}{}, nil); err != nil {
		t.Errorf("shutdown after the config changed: %v", err)
	}
}
