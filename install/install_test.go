package install

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// updateInstall rewrites testdata/*.golden from Add's output:
// go test ./install -run Install -update-install
var updateInstall = flag.Bool("update-install", false, "rewrite testdata/*.golden from Add's output")

// installFixtureDir is where the per-agent config files and goldens live.
const installFixtureDir = "testdata"

// installTestCommand is the hook command the tests install (HookCommand with the
// bare program name, as when lsp-hook is on PATH).
func installTestCommand(agent string) string { return HookCommand(ProgramName, agent) }

// installProjectOpts are options for the project-level file under root,
// without the session entries (TestInstallSessionHooks covers them).
func installProjectOpts(root, agent string) Options {
	return Options{Scope: ProjectScope, Root: root, Command: installTestCommand(agent), NoSession: true}
}

// writeInstallFile writes data to path, creating its directory.
func writeInstallFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readInstallFile returns path's content, failing the test when it cannot.
func readInstallFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkInstallGolden compares got with testdata/name, or rewrites it
// with -update-install.
func checkInstallGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(installFixtureDir, name)
	if *updateInstall {
		writeInstallFile(t, path, got)
		return
	}
	want := readInstallFile(t, path)
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (-update-install rewrites it):\n%s", name, unifiedDiff("want", "got", want, got))
	}
}

// installIsSubsequence reports whether every byte of a appears in b, in order:
// b is a with bytes inserted and none removed or changed.
func installIsSubsequence(a, b []byte) bool {
	for _, c := range a {
		i := bytes.IndexByte(b, c)
		if i < 0 {
			return false
		}
		b = b[i+1:]
	}
	return true
}

// mustInstall runs Add and fails the test on an error.
func mustInstall(t *testing.T, agent string, opts Options) *Result {
	t.Helper()
	res, err := Add(agent, opts)
	if err != nil {
		t.Fatalf("install %s: %v", agent, err)
	}
	return res
}

// mustUninstall runs Remove and fails the test on an error.
func mustUninstall(t *testing.T, agent string, opts Options) *Result {
	t.Helper()
	res, err := Remove(agent, opts)
	if err != nil {
		t.Fatalf("uninstall %s: %v", agent, err)
	}
	return res
}

// TestInstallRoundTrip is the contract per agent, on a config file with
// unrelated keys (and comments where the agent's format allows them):
// install only adds lines (every original byte stays, in order) and
// matches the golden file; a second install changes no byte; the backup
// holds the original, made once; uninstall gives back the original bytes,
// both through the backup and, with the backup gone, through the edit
// alone.
func TestInstallRoundTrip(t *testing.T) {
	for _, agent := range Agents() {
		t.Run(agent, func(t *testing.T) {
			tgt, _ := Lookup(agent)
			if tgt.Plugin {
				t.Skip("a plugin file of lsp-hook's own, not an edited hooks file: TestInstallOpenCode")
			}
			orig := readInstallFile(t, filepath.Join(installFixtureDir, agent+".json"))
			for _, viaBackup := range []bool{true, false} {
				root := testdir.New(t)
				path := filepath.Join(root, filepath.FromSlash(tgt.ProjectFile))
				writeInstallFile(t, path, orig)
				opts := installProjectOpts(root, agent)

				res := mustInstall(t, agent, opts)
				if res.Action != Updated || res.Path != path || res.Backup != path+BackupSuffix {
					t.Fatalf("first install: action %s, path %s, backup %q", res.Action, res.Path, res.Backup)
				}
				installed := readInstallFile(t, path)
				checkInstallGolden(t, agent+".golden", installed)
				if !installIsSubsequence(orig, installed) {
					t.Errorf("install removed or changed original bytes:\n%s", res.Diff)
				}
				if !bytes.Equal(readInstallFile(t, res.Backup), orig) {
					t.Error("the backup is not the original file")
				}

				again := mustInstall(t, agent, opts)
				if again.Action != Unchanged || again.Backup != "" || again.Diff != "" {
					t.Errorf("second install: action %s, backup %q, diff:\n%s", again.Action, again.Backup, again.Diff)
				}
				if !bytes.Equal(readInstallFile(t, path), installed) {
					t.Error("second install changed the file")
				}

				if !viaBackup {
					os.Remove(path + BackupSuffix)
				}
				un := mustUninstall(t, agent, opts)
				if un.Action != Updated || un.Restored != viaBackup {
					t.Errorf("uninstall: action %s, restored %v", un.Action, un.Restored)
				}
				if got := readInstallFile(t, path); !bytes.Equal(got, orig) {
					t.Errorf("uninstall (via backup: %v) did not restore the original:\n%s", viaBackup, unifiedDiff("original", "after uninstall", orig, got))
				}
				if _, err := os.Stat(path + BackupSuffix); viaBackup && !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the backup was not removed after restoring it: %v", err)
				}
				if un := mustUninstall(t, agent, opts); un.Action != Unchanged {
					t.Errorf("second uninstall: action %s", un.Action)
				}
			}
		})
	}
}

// TestInstallNewFile creates each agent's file from nothing (golden
// <agent>.new.golden) and uninstall deletes it again.
func TestInstallNewFile(t *testing.T) {
	for _, agent := range Agents() {
		t.Run(agent, func(t *testing.T) {
			root := testdir.New(t)
			opts := installProjectOpts(root, agent)
			res := mustInstall(t, agent, opts)
			if res.Action != Created || res.Backup != "" || !strings.HasPrefix(res.Diff, "--- /dev/null\n") {
				t.Fatalf("install: action %s, backup %q, diff:\n%s", res.Action, res.Backup, res.Diff)
			}
			checkInstallGolden(t, agent+".new.golden", readInstallFile(t, res.Path))
			if again := mustInstall(t, agent, opts); again.Action != Unchanged {
				t.Errorf("second install: %s", again.Action)
			}
			un := mustUninstall(t, agent, opts)
			if un.Action != Removed || !strings.Contains(un.Diff, "+++ /dev/null\n") {
				t.Errorf("uninstall: action %s, diff:\n%s", un.Action, un.Diff)
			}
			if _, err := os.Stat(res.Path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("uninstall left %s: %v", res.Path, err)
			}
		})
	}
}

// TestInstallDryRun writes nothing: no file, no backup, no directory, and
// the original bytes stay, for install and uninstall alike.
func TestInstallDryRun(t *testing.T) {
	root := testdir.New(t)
	opts := installProjectOpts(root, "claude")
	opts.DryRun = true
	res := mustInstall(t, "claude", opts)
	if res.Action != Created || res.Diff == "" {
		t.Fatalf("dry-run install of a new file: action %s, diff %q", res.Action, res.Diff)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Fatalf("dry run wrote %v", entries)
	}

	orig := readInstallFile(t, filepath.Join(installFixtureDir, "claude.json"))
	writeInstallFile(t, res.Path, orig)
	res = mustInstall(t, "claude", opts)
	if res.Action != Updated || !strings.Contains(res.Diff, "+            \"command\": \"lsp-hook hook claude\"\n") {
		t.Fatalf("dry-run install: action %s, diff:\n%s", res.Action, res.Diff)
	}
	if !bytes.Equal(readInstallFile(t, res.Path), orig) {
		t.Error("dry-run install changed the file")
	}
	if _, err := os.Stat(res.Path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dry-run install made a backup: %v", err)
	}

	opts.DryRun = false
	installed := readInstallFile(t, mustInstall(t, "claude", opts).Path)
	opts.DryRun = true
	un := mustUninstall(t, "claude", opts)
	if un.Action != Updated || !un.Restored || un.Diff == "" {
		t.Errorf("dry-run uninstall: action %s, restored %v", un.Action, un.Restored)
	}
	if !bytes.Equal(readInstallFile(t, res.Path), installed) {
		t.Error("dry-run uninstall changed the file")
	}
	if _, err := os.Stat(res.Path + BackupSuffix); err != nil {
		t.Errorf("dry-run uninstall removed the backup: %v", err)
	}
}

// TestInstallRefusesBadConfig: a file that is not JSON, or whose "hooks"
// or event has the wrong kind, is an error naming the file (and for a
// syntax error the line and column), and is left as it is, without backup.
func TestInstallRefusesBadConfig(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"syntax", "{\n  \"model\": \"opus\",\n  \"hooks\": {,}\n}\n", "line 3, column 13: invalid character ','"},
		{"truncated", "{\n  \"model\": \"opus\",\n", "line 3, column 1: parsing value: unexpected EOF"},
		{"top level array", "[]\n", "the top-level value is an array, want an object"},
		{"hooks array", "{\"hooks\": []}\n", `"hooks" is an array, want an object`},
		{"event object", "{\"hooks\": {\"PostToolUse\": {}}}\n", "hooks.PostToolUse is an object, want an array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testdir.New(t)
			path := filepath.Join(root, ".claude", "settings.json")
			writeInstallFile(t, path, []byte(tt.content))
			for _, f := range []func(string, Options) (*Result, error){Add, Remove} {
				_, err := f("claude", installProjectOpts(root, "claude"))
				if tt.name == "event object" && err == nil {
					continue // uninstall has nothing to remove there
				}
				if err == nil || !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("err = %v, want ErrBadConfig naming %s and %q", err, path, tt.want)
				}
			}
			if got := readInstallFile(t, path); string(got) != tt.content {
				t.Errorf("the file was changed to %q", got)
			}
			if _, err := os.Stat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a backup was made: %v", err)
			}
		})
	}
}

// TestInstallBackupOnce: an existing backup is never overwritten, by
// install or by uninstall.
func TestInstallBackupOnce(t *testing.T) {
	root := testdir.New(t)
	path := filepath.Join(root, ".cursor", "hooks.json")
	writeInstallFile(t, path, readInstallFile(t, filepath.Join(installFixtureDir, "cursor.json")))
	writeInstallFile(t, path+BackupSuffix, []byte("older backup\n"))
	opts := installProjectOpts(root, "cursor")
	if res := mustInstall(t, "cursor", opts); res.Action != Updated || res.Backup != "" {
		t.Errorf("install: action %s, backup %q", res.Action, res.Backup)
	}
	if res := mustUninstall(t, "cursor", opts); res.Action != Updated || res.Backup != "" || res.Restored {
		t.Errorf("uninstall: action %s, backup %q, restored %v", res.Action, res.Backup, res.Restored)
	}
	if got := readInstallFile(t, path+BackupSuffix); string(got) != "older backup\n" {
		t.Errorf("backup overwritten: %q", got)
	}
}

// TestInstallKeepsOtherEntries: install replaces an outdated lsp-hook entry
// (another matcher, sharing a group with a user's hook) and leaves every
// other hook; uninstall removes lsp-hook's entries only, in every event.
func TestInstallKeepsOtherEntries(t *testing.T) {
	const in = `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write",
        "hooks": [
          { "type": "command", "command": "/opt/bin/lsp-hook hook claude" },
          { "type": "command", "command": "prettier --write" }
        ]
      }
    ],
    "Stop": [
      { "hooks": [{ "type": "command", "command": "lsp-hook hook claude" }] },
      { "hooks": [{ "type": "command", "command": "lsp-hook hook cursor" }] }
    ]
  }
}
`
	const installed = `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write",
        "hooks": [
          { "type": "command", "command": "prettier --write" }
        ]
      },
      {
        "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
        "hooks": [
          {
            "type": "command",
            "command": "lsp-hook hook claude"
          }
        ]
      }
    ],
    "Stop": [
      { "hooks": [{ "type": "command", "command": "lsp-hook hook claude" }] },
      { "hooks": [{ "type": "command", "command": "lsp-hook hook cursor" }] }
    ]
  }
}
`
	const uninstalled = `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write",
        "hooks": [
          { "type": "command", "command": "prettier --write" }
        ]
      }
    ],
    "Stop": [
      { "hooks": [{ "type": "command", "command": "lsp-hook hook cursor" }] }
    ]
  }
}
`
	root := testdir.New(t)
	path := filepath.Join(root, ".claude", "settings.json")
	writeInstallFile(t, path, []byte(in))
	opts := installProjectOpts(root, "claude")
	mustInstall(t, "claude", opts)
	if got := readInstallFile(t, path); string(got) != installed {
		t.Errorf("install:\n%s", unifiedDiff("want", "got", []byte(installed), got))
	}
	os.Remove(path + BackupSuffix)
	mustUninstall(t, "claude", opts)
	if got := readInstallFile(t, path); string(got) != uninstalled {
		t.Errorf("uninstall:\n%s", unifiedDiff("want", "got", []byte(uninstalled), got))
	}
}

// TestInstallBatch: --batch adds Claude Code's PostToolBatch entry, a
// later install without it keeps that entry, uninstall removes both, and
// --batch is refused for agents without a batch hook.
func TestInstallBatch(t *testing.T) {
	root := testdir.New(t)
	opts := installProjectOpts(root, "claude")
	opts.Batch = true
	res := mustInstall(t, "claude", opts)
	want := `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
        "hooks": [
          {
            "type": "command",
            "command": "lsp-hook hook claude"
          }
        ]
      }
    ],
    "PostToolBatch": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "lsp-hook hook claude"
          }
        ]
      }
    ]
  }
}
`
	if got := readInstallFile(t, res.Path); string(got) != want {
		t.Errorf("install --batch:\n%s", unifiedDiff("want", "got", []byte(want), got))
	}
	opts.Batch = false
	if again := mustInstall(t, "claude", opts); again.Action != Unchanged {
		t.Errorf("install without --batch after --batch: %s\n%s", again.Action, again.Diff)
	}
	if un := mustUninstall(t, "claude", opts); un.Action != Removed {
		t.Errorf("uninstall: %s", un.Action)
	}
	bad := installProjectOpts(root, "cursor")
	bad.Batch = true
	if _, err := Add("cursor", bad); err == nil || !strings.Contains(err.Error(), "no batch hook") {
		t.Errorf("install cursor --batch: %v", err)
	}
}

// TestInstallUserScope: --user files are under the home directory (Codex's
// under CODEX_HOME when it is set).
func TestInstallUserScope(t *testing.T) {
	want := map[string]string{
		"claude":   ".claude/settings.json",
		"cursor":   ".cursor/hooks.json",
		"gemini":   ".gemini/settings.json",
		"codex":    ".codex/hooks.json",
		"copilot":  ".copilot/hooks/lsp-hook.json",
		"windsurf": ".codeium/windsurf/hooks.json",
		"opencode": ".config/opencode/plugin/lsp-hook.js",
	}
	home := testdir.New(t)
	noEnv := func(string) string { return "" }
	for _, agent := range Agents() {
		opts := Options{Scope: UserScope, Home: home, Getenv: noEnv, Command: installTestCommand(agent)}
		res := mustInstall(t, agent, opts)
		if res.Path != filepath.Join(home, filepath.FromSlash(want[agent])) || res.Action != Created {
			t.Errorf("%s: %s %s, want %s created", agent, res.Path, res.Action, want[agent])
		}
	}
	codexHome := testdir.New(t)
	opts := Options{Scope: UserScope, Home: home, Command: installTestCommand("codex"),
		Getenv: func(k string) string {
			if k == "CODEX_HOME" {
				return codexHome
			}
			return ""
		}}
	if res := mustInstall(t, "codex", opts); res.Path != filepath.Join(codexHome, "hooks.json") {
		t.Errorf("codex with CODEX_HOME: %s", res.Path)
	}
}

// TestInstallCommandChecks: a command uninstall could not recognise is
// refused, an unknown agent lists the known ones, and a changed command
// (the binary moved) replaces the entry.
func TestInstallCommandChecks(t *testing.T) {
	root := testdir.New(t)
	opts := installProjectOpts(root, "claude")
	opts.Command = "my-linter --fix"
	if _, err := Add("claude", opts); err == nil || !strings.Contains(err.Error(), "does not run `lsp-hook hook claude`") {
		t.Errorf("foreign command: %v", err)
	}
	if _, err := Add("vim", opts); err == nil || !strings.Contains(err.Error(), "known: claude, codex, copilot, cursor, gemini, opencode, windsurf") {
		t.Errorf("unknown agent: %v", err)
	}
	opts.Command = installTestCommand("claude")
	mustInstall(t, "claude", opts)
	opts.Command = HookCommand("/opt/my tools/lsp-hook", "claude")
	res := mustInstall(t, "claude", opts)
	if res.Action != Updated || !strings.Contains(string(readInstallFile(t, res.Path)), `"command": "'/opt/my tools/lsp-hook' hook claude"`) {
		t.Errorf("moved binary: action %s\n%s", res.Action, readInstallFile(t, res.Path))
	}
	if strings.Count(string(readInstallFile(t, res.Path)), "hook claude") != 1 {
		t.Errorf("the old entry was kept:\n%s", readInstallFile(t, res.Path))
	}
}

// TestInstallCodexInlineHooksNote: a config.toml beside the Codex
// hooks.json that has [hooks] tables earns a note.
func TestInstallCodexInlineHooksNote(t *testing.T) {
	root := testdir.New(t)
	writeInstallFile(t, filepath.Join(root, ".codex", "config.toml"), []byte("model = \"o4\"\n\n[[hooks.Stop]]\n"))
	res := mustInstall(t, "codex", installProjectOpts(root, "codex"))
	if n := res.Notes[len(res.Notes)-1]; !strings.Contains(n, "config.toml also has [hooks] tables") {
		t.Errorf("notes: %q", res.Notes)
	}
}

// TestInstallFollowsSymlink: a config file that is a symlink (dotfiles)
// is edited through the link, which stays a link.
func TestInstallFollowsSymlink(t *testing.T) {
	root := testdir.New(t)
	real := filepath.Join(root, "dotfiles", "settings.json")
	writeInstallFile(t, real, []byte("{\n  \"model\": \"opus\"\n}\n"))
	link := filepath.Join(root, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(link), 0o755)
	testdir.Symlink(t, real, link)
	opts := installProjectOpts(root, "claude")
	mustInstall(t, "claude", opts)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if !strings.Contains(string(readInstallFile(t, real)), "lsp-hook hook claude") {
		t.Error("the link's target was not edited")
	}
	os.Remove(link + BackupSuffix)
	mustUninstall(t, "claude", opts)
	if got := string(readInstallFile(t, real)); got != "{\n  \"model\": \"opus\"\n}\n" {
		t.Errorf("after uninstall: %q", got)
	}
}

// TestInstallKeepsFileMode: the rewritten file keeps its permissions, and
// so does the backup.
func TestInstallKeepsFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows files have no unix permission bits (os.Chmod sets only read-only)")
	}
	root := testdir.New(t)
	path := filepath.Join(root, ".claude", "settings.json")
	writeInstallFile(t, path, []byte("{\"env\": {\"API_KEY\": \"secret\"}}\n"))
	os.Chmod(path, 0o600)
	res := mustInstall(t, "claude", installProjectOpts(root, "claude"))
	for _, p := range []string{path, res.Backup} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", p, fi.Mode().Perm(), err)
		}
	}
}
