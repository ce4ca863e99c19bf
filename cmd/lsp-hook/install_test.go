package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runLSPHook runs one command line in-process and returns its exit code,
// stdout and stderr.
func runLSPHook(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"lsp-hook"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestInstallCLI drives install and uninstall through the command line:
// create, a dry run that finds nothing to do, a dry-run uninstall that
// prints the diff and writes nothing, then the uninstall that deletes the
// file install created.
func TestInstallCLI(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".cursor", "hooks.json")
	code, out, errOut := runLSPHook(t, "install", "cursor", "--root", root, "--command", "lsp-hook hook cursor")
	if code != 0 || !strings.HasPrefix(out, "created "+path+"\nnote: ") {
		t.Fatalf("install: exit %d\n%s%s", code, out, errOut)
	}
	installed, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(installed, []byte(`"command": "lsp-hook hook cursor"`)) {
		t.Fatalf("installed file: %s %v", installed, err)
	}
	if code, out, _ := runLSPHook(t, "install", "cursor", "--root", root, "--command", "lsp-hook hook cursor", "--dry-run"); code != 0 || out != path+": nothing to change\n" {
		t.Errorf("dry-run install again: exit %d %q", code, out)
	}
	code, out, _ = runLSPHook(t, "uninstall", "cursor", "--root", root, "--dry-run")
	if code != 0 || !strings.HasPrefix(out, "--- "+path+"\n+++ /dev/null\n") {
		t.Errorf("dry-run uninstall: exit %d\n%s", code, out)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, installed) {
		t.Error("dry-run uninstall changed the file")
	}
	if code, out, _ := runLSPHook(t, "uninstall", "cursor", "--root", root); code != 0 || out != "removed "+path+"\n" {
		t.Errorf("uninstall: exit %d %q", code, out)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("uninstall left the file: %v", err)
	}
}

// TestInstallCLIUser edits the file under $HOME with --user, backs up the
// existing file, and restores it on uninstall.
func TestInstallCLIUser(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	path := filepath.Join(home, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	orig := []byte("{\n  // mine\n  \"general\": {\"vimMode\": true}\n}\n")
	os.WriteFile(path, orig, 0o644)
	code, out, errOut := runLSPHook(t, "install", "gemini", "--user", "--command", "lsp-hook hook gemini")
	if code != 0 || !strings.HasPrefix(out, "updated "+path+" (the original is in "+path+".lsp-hook.bak)\n") {
		t.Fatalf("install --user: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runLSPHook(t, "uninstall", "gemini", "--user")
	if code != 0 || out != "restored "+path+" from "+path+".lsp-hook.bak\n" {
		t.Errorf("uninstall --user: exit %d %q", code, out)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
		t.Errorf("after uninstall: %q", now)
	}
}

// TestInstallCLIDefaultCommand: without --command the hook runs
// `lsp-hook` when one is on PATH, else this binary by absolute path (with
// a note saying so).
func TestInstallCLIDefaultCommand(t *testing.T) {
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	root := t.TempDir()
	code, out, errOut := runLSPHook(t, "install", "claude", "--root", root, "--dry-run")
	exe, _ := os.Executable()
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if code != 0 || !strings.Contains(out, `"command": "`+exe+` hook claude"`) {
		t.Errorf("not on PATH: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runLSPHook(t, "install", "claude", "--root", root)
	if code != 0 || !strings.Contains(out, "note: lsp-hook is not on PATH, so the hook runs "+exe) {
		t.Errorf("not on PATH, note: exit %d\n%s", code, out)
	}

	if err := os.WriteFile(filepath.Join(bin, "lsp-hook"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runLSPHook(t, "install", "claude", "--root", root, "--dry-run")
	if code != 0 || !strings.Contains(out, `-            "command": "`+exe+` hook claude"`) || !strings.Contains(out, `+            "command": "lsp-hook hook claude"`) {
		t.Errorf("on PATH: exit %d\n%s", code, out)
	}
}

// TestInstallCLIErrors: usage errors and a broken config file exit 2 with
// a message naming the problem, and write nothing.
func TestInstallCLIErrors(t *testing.T) {
	root := t.TempDir()
	bad := filepath.Join(root, ".windsurf", "hooks.json")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(bad, []byte("{\n  \"hooks\": {\n    \"post_write_code\": [\n  }\n}\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"install"}, "install: want one agent: AGENT (claude, codex, copilot, cursor, gemini, opencode, windsurf)"},
		{[]string{"uninstall", "claude", "cursor"}, "uninstall: want one agent"},
		{[]string{"install", "claude", "--user", "--project"}, "--user and --project exclude each other"},
		{[]string{"install", "emacs", "--root", root}, `unknown agent "emacs" (known: claude, codex, copilot, cursor, gemini, opencode, windsurf)`},
		{[]string{"install", "cursor", "--batch", "--root", root, "--command", "lsp-hook hook cursor"}, "Cursor has no batch hook"},
		{[]string{"install", "windsurf", "--root", root, "--command", "lsp-hook hook windsurf"}, bad + ": not a valid hooks config: line 4, column 3: invalid character '}'"},
		{[]string{"uninstall", "windsurf", "--root", root}, bad + ": not a valid hooks config: line 4"},
	}
	for _, tt := range tests {
		code, out, errOut := runLSPHook(t, tt.args...)
		if code != exitError || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(bad)); len(entries) != 1 {
		t.Errorf("files were written next to the broken config: %v", entries)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("files were written in the workspace: %v", entries)
	}
}

// TestInstallCLIMCP: install claude --mcp also writes .mcp.json, a second
// run changes nothing, uninstall --mcp removes both files install created,
// and --mcp is refused for another agent.
func TestInstallCLIMCP(t *testing.T) {
	root := t.TempDir()
	mcpPath := filepath.Join(root, ".mcp.json")
	code, out, errOut := runLSPHook(t, "install", "claude", "--mcp", "--root", root, "--command", "lsp-hook hook claude")
	if code != 0 || !strings.Contains(out, "created "+mcpPath+"\n") {
		t.Fatalf("install --mcp: exit %d\n%s%s", code, out, errOut)
	}
	if b, err := os.ReadFile(mcpPath); err != nil || !bytes.Contains(b, []byte(`"mcp"`)) {
		t.Fatalf(".mcp.json: %s %v", b, err)
	}
	if code, out, _ := runLSPHook(t, "install", "claude", "--mcp", "--root", root, "--command", "lsp-hook hook claude"); code != 0 || strings.Count(out, "nothing to change") != 2 {
		t.Errorf("install --mcp again: exit %d %q", code, out)
	}
	if code, out, _ := runLSPHook(t, "uninstall", "claude", "--mcp", "--root", root); code != 0 || !strings.Contains(out, "removed "+mcpPath+"\n") {
		t.Errorf("uninstall --mcp: exit %d %q", code, out)
	}
	if _, err := os.Stat(mcpPath); !os.IsNotExist(err) {
		t.Errorf("uninstall left .mcp.json: %v", err)
	}
	if code, _, errOut := runLSPHook(t, "install", "cursor", "--mcp", "--root", root); code == 0 || !strings.Contains(errOut, "--mcp is for claude") {
		t.Errorf("install cursor --mcp: exit %d %q", code, errOut)
	}
}
