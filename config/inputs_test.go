package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

func TestFingerprint(t *testing.T) {
	dir := testdir.New(t)
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{a, b}
	none := fingerprint(files)
	if none != fingerprint(files) {
		t.Fatal("two fingerprints of the same absent files differ")
	}
	steps := []struct {
		name string
		do   func()
		same bool // the fingerprint equals the one before the step
	}{
		{"a created", func() { write(a, "severity: error\n") }, false},
		{"nothing done", func() {}, true},
		{"a written with the same bytes", func() { write(a, "severity: error\n") }, true},
		{"a written, same size", func() { write(a, "severity: hint!\n") }, false},
		{"b created empty", func() { write(b, "") }, false},
		{"b removed", func() { os.Remove(b) }, false},
		{"a replaced by a directory", func() { os.Remove(a); os.Mkdir(a, 0o755) }, false},
	}
	prev := none
	for _, s := range steps {
		s.do()
		now := fingerprint(files)
		if (now == prev) != s.same {
			t.Errorf("%s: fingerprint unchanged %v, want %v", s.name, now == prev, s.same)
		}
		prev = now
	}
	if fingerprint([]string{a, b}) == fingerprint([]string{b, a}) {
		t.Error("the fingerprint does not depend on which file holds what")
	}
}

// TestStamp: the stamp changes with the content of each file Load reads
// (the user file, the workspace file under another of its names, an
// imported server definition) and with the trust store's say on this
// workspace and its files, not with another workspace's trust.
func TestStamp(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	t.Setenv("XDG_STATE_HOME", testdir.New(t))
	root, other := testdir.New(t), testdir.New(t)
	file := filepath.Join(root, ".lsp-hook.yaml")
	if err := os.WriteFile(file, []byte("severity: warning\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, ".lsp-hook.yaml"), []byte("severity: hint\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prev := Stamp(root)
	steps := []struct {
		name string
		do   func() error
		same bool
	}{
		{"nothing done", func() error { return nil }, true},
		{"another workspace trusted", func() error { _, err := Trust(other); return err }, true},
		{"this workspace trusted", func() error { _, err := Trust(root); return err }, false},
		{"its config written", func() error { return os.WriteFile(file, []byte("severity: error\n"), 0o644) }, false},
		{"trusted again", func() error { _, err := Trust(root); return err }, false},
		{"the user file written", func() error {
			u := UserFile()
			if err := os.MkdirAll(filepath.Dir(u), 0o755); err != nil {
				return err
			}
			return os.WriteFile(u, []byte("memory_budget: 1GiB\n"), 0o644)
		}, false},
		{"a workspace file of another name created", func() error {
			return os.WriteFile(filepath.Join(root, ".lsp-hook.toml"), []byte("severity = \"hint\"\n"), 0o644)
		}, false},
		{"an imported server definition created", func() error {
			return os.WriteFile(filepath.Join(root, "opencode.json"), []byte(`{"lsp": false}`), 0o644)
		}, false},
		{"a file of no concern written", func() error {
			return os.WriteFile(filepath.Join(root, "notes.yaml"), []byte("severity: hint\n"), 0o644)
		}, true},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		now := Stamp(root)
		if (now == prev) != s.same {
			t.Errorf("%s: stamp unchanged %v, want %v", s.name, now == prev, s.same)
		}
		prev = now
	}
}
