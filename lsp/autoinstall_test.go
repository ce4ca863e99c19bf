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
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// TestAutoInstall: with auto_install, the first check of a file whose
// npm-distributed server is missing answers at once (unavailable) and
// starts the install in the background; a check after the install gets
// fresh diagnostics from the installed server. Without auto_install
// nothing is installed.
func TestAutoInstall(t *testing.T) {
	for _, auto := range []bool{true, false} {
		t.Run(fmt.Sprintf("auto_install=%v", auto), func(t *testing.T) {
			cfg := fakelsptest.Config(t, "normal")
			real := cfg.LSP.Servers["fake"]
			_, fakeBin := isolateTools(t, "/usr/bin", "/bin")
			// The fake npm "installs" fake-ls as a script running the fake server.
			fakeProgram(t, fakeBin, "npm", strings.Replace(fakeNPM, `printf '#!/bin/sh\necho fake server\n'`,
				fmt.Sprintf(`printf '#!/bin/sh\nexec %s "$@"\n'`, strings.Join(real.Command, " ")), 1))
			srv := real
			srv.Name, srv.Command = "fake-ls", []string{"fake-ls"}
			srv.Install = config.Install{Method: config.InstallNPM, Packages: []string{"fake-ls@1.0.0"}, Binary: "fake-ls"}
			cfg.LSP.Servers = map[string]config.Server{"fake-ls": srv}
			cfg.AutoInstall = auto
			dir := tempDir(t)
			m := NewManager(cfg, dir, testLogger(t))
			t.Cleanup(m.Shutdown)
			path := filepath.Join(dir, "a.fake")
			if err := os.WriteFile(path, []byte("error here\n"), 0o644); err != nil {
				t.Fatal(err)
			}

			begin := time.Now()
			out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
			if len(out) != 1 || out[0].Freshness != None || !strings.Contains(fmt.Sprint(out[0].Err), "not installed") {
				t.Fatalf("first check: %+v", out)
			}
			if elapsed := time.Since(begin); elapsed > 5*time.Second {
				t.Errorf("the first check waited for the install: %v", elapsed)
			}
			wait := 20 * time.Second
			if !auto {
				wait = 2 * time.Second // nothing should come; do not wait long for it
			}
			installed := false
			for deadline := time.Now().Add(wait); !installed && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				_, err := LookPath("fake-ls")
				installed = err == nil
			}
			if installed != auto {
				t.Fatalf("installed = %v, want %v", installed, auto)
			}
			if !auto {
				return
			}
			out = m.Check(context.Background(), []Doc{{Path: path}}, 0)
			if len(out) != 1 || out[0].Freshness != Fresh {
				t.Fatalf("check after the install: %+v", out)
			}
		})
	}
}

// TestServerByFileName: a server that serves a file by its name (as
// docker-langserver serves Dockerfile) checks it, with the language ID
// configured for that name.
func TestServerByFileName(t *testing.T) {
	cfg := fakelsptest.Config(t, "normal")
	srv := cfg.LSP.Servers["fake"]
	srv.FileNames = []string{"Buildfile"}
	srv.LanguageIDs = map[string]string{"Buildfile": "buildfile", ".fake": "fake"}
	cfg.LSP.Servers["fake"] = srv
	dir := tempDir(t)
	m := NewManager(cfg, dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	path := filepath.Join(dir, "Buildfile")
	if err := os.WriteFile(path, []byte("error here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if len(out) != 1 || out[0].Freshness != Fresh || out[0].Server != "fake" {
		t.Fatalf("check of Buildfile: %+v", out)
	}
}
