// Package testdir gives tests a temporary directory, t.TempDir's, except
// under Wine, whose removal of it fails: Wine 8 answers the
// FileDispositionInformationEx that Go's os.RemoveAll sends (Go 1.26,
// internal/syscall/windows.Deleteat) with "Invalid function" rather than
// the STATUS_INVALID_INFO_CLASS that makes Go fall back, so every
// t.TempDir fails its test at cleanup. There the directory is made with
// os.MkdirTemp and a failed removal is logged, not failed. Only tests,
// and the bench for TouchedLast, import it (make wine-test runs the
// Windows test binaries under Wine).
package testdir

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// New returns a new temporary directory removed when t ends: t.TempDir(),
// or under Wine one whose failed removal is only logged.
func New(t testing.TB) string {
	if !onWine() {
		return t.TempDir()
	}
	d, err := os.MkdirTemp("", dirName(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(d); err != nil {
			t.Logf("Wine: leaving %s: %v", d, err)
		}
	})
	return d
}

// dirName is a test's name as a directory name Windows takes: the
// characters it refuses in a name (`<>:"/\|?*` and controls) become "_".
func dirName(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 32 || strings.ContainsRune(`<>:"/\|?*`, r) {
			return '_'
		}
		return r
	}, name)
}

// Abs turns p, a slash-separated path absolute on unix ("/r/a.go"), into
// an absolute path of this platform: p itself on unix; on Windows, where
// "/r/a.go" is only rooted (filepath.IsAbs is false), the same path on
// drive C: with backslashes (`C:\r\a.go`), as agents on Windows send.
func Abs(p string) string {
	if runtime.GOOS == "windows" && strings.HasPrefix(p, "/") {
		return filepath.FromSlash("C:" + p)
	}
	return p
}

// Symlink makes link a symbolic link to target. On Windows it skips t when
// symlinks cannot be made (no SeCreateSymbolicLinkPrivilege) or do not
// work (Wine 8, whose os.Symlink succeeds but leaves no link, or no
// link os.Lstat sees); elsewhere a failure fails t.
func Symlink(t testing.TB, target, link string) {
	t.Helper()
	err := os.Symlink(target, link)
	if runtime.GOOS != "windows" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skipf("the symlink made is not there (Wine 8): %v", err)
	}
}
