package privdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestCheck: what Make accepts and what Check refuses, with the reason,
// on every platform; platformCases adds each platform's own rows.
func TestCheck(t *testing.T) {
	base := testdir.New(t)
	made := filepath.Join(base, "made")
	if err := Make(made); err != nil {
		t.Fatalf("Make(%s) = %v", made, err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []checkCase{
		{name: "made", dir: made},
		{name: "made, inside made", dir: mustMake(t, filepath.Join(made, "sub"))},
		{name: "not a directory", dir: file, want: "not a directory"},
		{name: "missing", dir: filepath.Join(base, "nope"), notExist: true},
	}
	if link := filepath.Join(base, "link"); os.Symlink(made, link) == nil {
		if _, err := os.Lstat(link); err == nil { // Wine 8 says it made one
			tests = append(tests, checkCase{name: "symlink", dir: link, want: "is a symlink"})
		}
	}
	tests = append(tests, platformCases(t, base)...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.dir)
			var unsafe *UnsafeError
			switch {
			case tt.notExist:
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Check = %v, want fs.ErrNotExist", err)
				}
			case tt.want == "":
				if err != nil {
					t.Errorf("Check = %v, want nil", err)
				}
			case !errors.As(err, &unsafe) || unsafe.Dir != tt.dir || !strings.Contains(unsafe.Reason, tt.want):
				t.Errorf("Check = %v, want an *UnsafeError for %s saying %q", err, tt.dir, tt.want)
			}
		})
	}
}

// checkCase is one row of TestCheck.
type checkCase struct {
	name, dir string
	want      string // in the UnsafeError's reason; "": private
	notExist  bool
}

// TestMakeExisting: Make on an existing private directory is no error;
// on a file it is Check's refusal.
func TestMakeExisting(t *testing.T) {
	d := filepath.Join(testdir.New(t), "d")
	for range 2 {
		if err := Make(d); err != nil {
			t.Fatalf("Make = %v", err)
		}
	}
	f := filepath.Join(d, "f")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var unsafe *UnsafeError
	if err := Make(f); !errors.As(err, &unsafe) {
		t.Errorf("Make(file) = %v, want an *UnsafeError", err)
	}
}

func mustMake(t *testing.T, dir string) string {
	t.Helper()
	if err := Make(dir); err != nil {
		t.Fatalf("Make(%s) = %v", dir, err)
	}
	return dir
}
