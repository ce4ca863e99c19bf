package sidecar

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveAndRead(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	write := func(name string, data []byte) string {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("ok.json", []byte(`{"a":1}`))
	write("bin.json", []byte("{\x00\x01}"))
	write("latin1.txt", []byte("caf\xe9"))
	os.WriteFile(filepath.Join(outside, "secret.json"), []byte("{}"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "link.json"))
	os.Symlink(outside, filepath.Join(root, "linkdir"))
	big := strings.Repeat("x", MaxFileSize+1)

	tests := []struct {
		name    string
		path    string
		content *string
		wantErr error
		wantSub string
	}{
		{name: "relative inside", path: "ok.json"},
		{name: "absolute inside", path: filepath.Join(root, "ok.json")},
		{name: "dot dot escape", path: "../x.json", wantErr: ErrOutsideWorkspace},
		{name: "absolute elsewhere", path: "/etc/passwd", wantErr: ErrOutsideWorkspace},
		{name: "symlink out", path: "link.json", wantErr: ErrOutsideWorkspace},
		{name: "new file under linked dir", path: "linkdir/new.json", content: new(string), wantErr: ErrOutsideWorkspace},
		{name: "binary", path: "bin.json", wantErr: ErrBinary},
		{name: "latin1 is text", path: "latin1.txt"},
		{name: "missing", path: "gone.json", wantErr: os.ErrNotExist},
		{name: "new file with content", path: "new.json", content: new(string)},
		{name: "too large content", path: "big.json", content: &big, wantErr: ErrTooLarge},
		{name: "empty", path: "", wantSub: "empty path"},
		{name: "nul", path: "a\x00b", wantSub: "NUL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := resolve(root, tt.path)
			if err == nil {
				_, err = readContent(p, tt.content)
			}
			switch {
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			case tt.wantSub != "" && (err == nil || !strings.Contains(err.Error(), tt.wantSub)):
				t.Fatalf("err = %v, want it to mention %q", err, tt.wantSub)
			case tt.wantErr == nil && tt.wantSub == "" && err != nil:
				t.Fatalf("unexpected err %v", err)
			}
		})
	}
}

func TestReadContentRefusesDevices(t *testing.T) {
	if _, err := readContent("/dev/zero", nil); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v", err)
	}
}

func TestFindWorkspace(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	sub := filepath.Join(root, "a", "b")
	os.MkdirAll(sub, 0o755)
	if got, err := FindWorkspace(sub); err != nil || got != root {
		t.Errorf("FindWorkspace = %q, %v; want %q", got, err, root)
	}
	plain, _ := filepath.EvalSymlinks(t.TempDir())
	if got, err := FindWorkspace(plain); err != nil || got != plain && !strings.HasPrefix(plain, got+string(filepath.Separator)) {
		t.Errorf("FindWorkspace(no git) = %q, %v; want %q or an ancestor repo", got, err, plain)
	}
}
