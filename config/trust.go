package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Workspace trust, like direnv's `allow`: a workspace config file can be
// written by anyone whose repository the user clones, so what it sets that
// runs or installs programs — a server's `command`, `env`, `settings` or
// `initialization_options` (servers take executable paths there), a
// linter's `command`, `auto_install: true` — does not apply until the user
// runs `lsp-hook trust` in that workspace. Trust records the file's SHA-256
// in the user's state ($XDG_STATE_HOME/lsp-hook/trust.json); any change to
// the file needs trust again. Until then those entries fall back to what
// they were without the workspace file (a built-in server or linter keeps
// its built-in command; a new one is left out; auto_install stays off) and
// Config.Untrusted names them. Every other key of the file applies. The
// user's own config file is always trusted.
//
// Trust also records the workspace root itself, with or without a config
// file (Config.WorkspaceTrusted): a program that lies inside the workspace,
// such as node_modules/.bin/eslint, is the repository's own, and runs only
// in a trusted workspace (package sidecar decides where a program lies).
// It also decides the environment servers and linters run in (ProgramEnv):
// untrusted, GOTOOLCHAIN=local and no GOFLAGS, so that a go.mod cannot
// make the go command fetch and run a toolchain.

// TrustFile returns where trust decisions are kept:
// $XDG_STATE_HOME/lsp-hook/trust.json, else ~/.local/state/lsp-hook/trust.json.
func TrustFile() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "lsp-hook", "trust.json")
}

// trustState is trust.json: workspace config file path → SHA-256 (hex) of
// the content that was trusted, and workspace root directory →
// workspaceTrusted.
type trustState map[string]string

// workspaceTrusted is trust.json's value for a trusted workspace root (a
// directory, so never a config file's path, and never a SHA-256).
const workspaceTrusted = "workspace"

func readTrust() (trustState, error) {
	b, err := os.ReadFile(TrustFile())
	if errors.Is(err, fs.ErrNotExist) {
		return trustState{}, nil
	}
	if err != nil {
		return nil, err
	}
	st := trustState{}
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("reading %s: %w", TrustFile(), err)
	}
	return st, nil
}

func fileHash(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Trust records the workspace root as trusted
// (TrustedWorkspace), and the current content of its workspace config file
// and of the files servers are imported from (ImportFiles), and returns
// those files (none when the workspace has none). The error is from
// reading or writing TrustFile, or reading a config file.
func Trust(root string) ([]string, error) {
	var files []string
	if f, _ := WorkspaceFile(root); f != "" {
		files = append(files, f)
	}
	for _, n := range ImportFiles {
		if st, err := os.Stat(filepath.Join(root, n)); err == nil && st.Mode().IsRegular() {
			files = append(files, filepath.Join(root, n))
		}
	}
	st, err := readTrust()
	if err != nil {
		return nil, err
	}
	st[workspaceKey(root)] = workspaceTrusted
	for _, f := range files {
		h, err := fileHash(f)
		if err != nil {
			return nil, err
		}
		st[f] = h
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, err
	}
	path := TrustFile()
	if path == "" {
		return nil, errors.New("no home directory for the trust file")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return nil, err
	}
	return files, os.Rename(tmp, path)
}

// Trusted reports whether file's current content was trusted.
func Trusted(file string) bool {
	st, err := readTrust()
	if err != nil {
		return false
	}
	h, err := fileHash(file)
	return err == nil && st[file] == h
}

// TrustedWorkspace reports whether `lsp-hook trust` was run in the
// workspace at root: programs inside it may run.
// An unreadable trust file is no trust.
func TrustedWorkspace(root string) bool {
	st, err := readTrust()
	return err == nil && st[workspaceKey(root)] == workspaceTrusted
}

// workspaceKey is root as trust.json names it: absolute, clean, symlinks
// followed (as far as they resolve).
func workspaceKey(root string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		return real
	}
	return filepath.Clean(root)
}

// serverCommandField lists the server fields that can make a server run a
// program of the config's choosing: the command itself, its environment
// (PATH), and settings and initialization options, where servers take
// executable paths (pyright's python.pythonPath, a tsdk, a linter path),
// and the companion watch command.
var serverCommandField = map[string]bool{"command": true, "env": true, "settings": true, "initialization_options": true, "watch": true}

// commandKeys returns the dotted keys file set in c that run or install
// programs: lsp.servers.NAME.{command, env, settings,
// initialization_options}, linters.NAME.command, and auto_install when file
// turned it on (before is c as it was without file).
func commandKeys(c *Config, file string, before trustSnapshot) []string {
	var keys []string
	for k, src := range c.Sources {
		if !strings.HasPrefix(src, file+":") {
			continue
		}
		parts := strings.Split(k, ".")
		switch {
		case len(parts) == 4 && parts[0] == "lsp" && parts[1] == "servers" && serverCommandField[parts[3]],
			len(parts) == 3 && parts[0] == "linters" && parts[2] == "command",
			k == "auto_install" && c.AutoInstall && !before.autoInstall:
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// distrust puts back, for every entry file set that runs or installs
// programs (commandKeys), the server, linter or auto_install as it was
// before file was applied (before), and records the keys in c.Untrusted.
func distrust(c *Config, file string, before trustSnapshot) {
	servers, linters := before.servers, before.linters
	for _, k := range commandKeys(c, file, before) {
		parts := strings.Split(k, ".")
		if k == "auto_install" {
			c.AutoInstall = before.autoInstall
		} else if parts[0] == "lsp" {
			name := parts[2]
			if s, ok := servers[name]; ok {
				c.LSP.Servers[name] = s
			} else {
				delete(c.LSP.Servers, name)
			}
		} else {
			name := parts[1]
			if l, ok := linters[name]; ok {
				c.Linters[name] = l
			} else {
				delete(c.Linters, name)
			}
		}
		c.Untrusted = append(c.Untrusted, k)
	}
}

// trustSnapshot is what distrust can put back: c's servers, linters and
// auto_install before a file was applied.
type trustSnapshot struct {
	servers     map[string]Server
	linters     map[string]Linter
	autoInstall bool
}

func snapshot(c *Config) trustSnapshot {
	return trustSnapshot{servers: maps.Clone(c.LSP.Servers), linters: maps.Clone(c.Linters), autoInstall: c.AutoInstall}
}
