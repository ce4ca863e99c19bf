package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/wire"
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
	big := strings.Repeat("x", wire.MaxFileSize+1)

	tests := []struct {
		name    string
		path    string
		content *string
		wantErr error
		wantSub string
	}{
		{name: "relative inside", path: "ok.json"},
		{name: "absolute inside", path: filepath.Join(root, "ok.json")},
		{name: "dot dot escape", path: "../x.json", wantErr: workspace.ErrOutside},
		{name: "absolute elsewhere", path: "/etc/passwd", wantErr: workspace.ErrOutside},
		{name: "symlink out", path: "link.json", wantErr: workspace.ErrOutside},
		{name: "new file under linked dir", path: "linkdir/new.json", content: new(string), wantErr: workspace.ErrOutside},
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
			p, err := workspace.Resolve(root, tt.path)
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

// TestPseudoFilesRefused: with the workspace at / (a hook run from the
// file system root), kernel pseudo-files are inside it and stat as regular
// files, yet are never read; nor are devices.
func TestPseudoFilesRefused(t *testing.T) {
	tests := []struct {
		path    string
		wantErr error
	}{
		{"/proc/self/environ", ErrPseudoFile},
		{"/proc/self/cmdline", ErrPseudoFile},
		{"/proc/self/status", ErrPseudoFile},
		{"/sys/kernel/uevent_seqnum", ErrPseudoFile},
		{"/dev/zero", ErrNotRegular},
		{"/dev/null", ErrNotRegular},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skipf("not on this machine: %v", err)
			}
			p, err := workspace.Resolve("/", tt.path)
			if err != nil {
				t.Fatalf("resolve: %v", err)
			}
			data, err := readContent(p, nil)
			if !errors.Is(err, tt.wantErr) || data != nil {
				t.Errorf("readContent(%s) = %d bytes, %v; want %v", p, len(data), err, tt.wantErr)
			}
		})
	}
}
