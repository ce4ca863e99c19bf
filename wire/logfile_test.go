package wire

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLogFileFollowsPath: the daemon's log keeps reaching its path when
// the file is deleted, moved away or its directory re-created, rotates when
// it grows past its size, and never writes through a symlink put at the
// path.
func TestLogFileFollowsPath(t *testing.T) {
	tests := []struct {
		name    string
		between func(t *testing.T, path string) // after "first\n" is written
		want    map[string]string               // file name in the directory → content; "" absent
	}{
		{"untouched", func(*testing.T, string) {}, map[string]string{"d.log": "first\nsecond\n"}},
		{"deleted", func(t *testing.T, path string) { must(t, os.Remove(path)) },
			map[string]string{"d.log": "second\n"}},
		{"moved away", func(t *testing.T, path string) { must(t, os.Rename(path, path+".old")) },
			map[string]string{"d.log": "second\n", "d.log.old": "first\n"}},
		{"over its size", func(t *testing.T, path string) { must(t, os.WriteFile(path, []byte("first\nxxxxxxxxxx\n"), 0o600)) },
			map[string]string{"d.log": "second\n", "d.log.1": "first\nxxxxxxxxxx\n"}},
		{"directory deleted and re-created", func(t *testing.T, path string) {
			must(t, os.RemoveAll(filepath.Dir(path)))
			must(t, os.Mkdir(filepath.Dir(path), 0o700))
		}, map[string]string{"d.log": "second\n"}},
		{"symlink put at the path", func(t *testing.T, path string) {
			must(t, os.Remove(path))
			must(t, os.Symlink(filepath.Join(filepath.Dir(path), "target"), path))
			must(t, os.WriteFile(filepath.Join(filepath.Dir(path), "target"), nil, 0o600))
		}, map[string]string{"target": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "lsp-hook")
			must(t, os.Mkdir(dir, 0o700))
			path := filepath.Join(dir, "d.log")
			l, err := openLogFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			l.maxSize, l.checkEvery = 12, 0
			if _, err := l.Write([]byte("first\n")); err != nil {
				t.Fatal(err)
			}
			tt.between(t, path)
			if _, err := l.Write([]byte("second\n")); err != nil {
				t.Fatal(err)
			}
			for name, want := range tt.want {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil || string(got) != want {
					t.Errorf("%s = %q (%v), want %q", name, got, err, want)
				}
			}
		})
	}
}

// TestLogFileRotatesAtOpen: a log over its size is moved to <log>.1 when
// it is opened.
func TestLogFileRotatesAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.log")
	big := make([]byte, maxLogSize+1)
	must(t, os.WriteFile(path, big, 0o600))
	l, err := openLogFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if fi, err := os.Stat(path + ".1"); err != nil || fi.Size() != int64(len(big)) {
		t.Errorf("%s.1: %v, %v; want the old log", path, fi, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("%s: %v, %v; want a new, empty log", path, fi, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
