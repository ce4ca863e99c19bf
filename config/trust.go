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
// written by anyone whose repository the user clones, so the commands it
// defines — a server's `command`, `env`, `settings` or
// `initialization_options` (servers take executable paths there), a
// linter's `command` — do not
// run until the user runs `lsp-hook trust` in that workspace. Trust
// records the file's SHA-256 in the user's state
// ($XDG_STATE_HOME/lsp-hook/trust.json); any change to the file needs
// trust again. Until then the entries that define commands fall back to
// what they were without the workspace file (a built-in server or linter
// keeps its built-in command; a new one is left out) and Config.Untrusted
// names them. Every other key of the file applies. The user's own config
// file is always trusted.

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
// the content that was trusted.
type trustState map[string]string

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

// Trust records the current content of the workspace config file of root
// and of the files servers are imported from (ImportFiles) as trusted, and
// returns those files (none when the workspace has none).
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
	if len(files) == 0 {
		return nil, nil
	}
	st, err := readTrust()
	if err != nil {
		return nil, err
	}
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

// serverCommandField lists the server fields that can make a server run a
// program of the config's choosing: the command itself, its environment
// (PATH), and settings and initialization options, where servers take
// executable paths (pyright's python.pythonPath, a tsdk, a linter path).
var serverCommandField = map[string]bool{"command": true, "env": true, "settings": true, "initialization_options": true}

// commandKeys returns the dotted keys file set in c that define commands:
// lsp.servers.NAME.{command, env, settings, initialization_options} and
// linters.NAME.command.
func commandKeys(c *Config, file string) []string {
	var keys []string
	for k, src := range c.Sources {
		if !strings.HasPrefix(src, file+":") {
			continue
		}
		parts := strings.Split(k, ".")
		switch {
		case len(parts) == 4 && parts[0] == "lsp" && parts[1] == "servers" && serverCommandField[parts[3]],
			len(parts) == 3 && parts[0] == "linters" && parts[2] == "command":
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// distrust puts back, for every entry whose command file defined, the
// server or linter as it was before file was applied (servers and linters
// are those snapshots), and records the keys in c.Untrusted.
func distrust(c *Config, file string, servers map[string]Server, linters map[string]Linter) {
	for _, k := range commandKeys(c, file) {
		parts := strings.Split(k, ".")
		if parts[0] == "lsp" {
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

func snapshot(c *Config) (map[string]Server, map[string]Linter) {
	return maps.Clone(c.LSP.Servers), maps.Clone(c.Linters)
}
