// Package testdir gives tests a temporary directory, t.TempDir's, except
// under Wine, whose removal of it fails: Wine 8 answers the
// FileDispositionInformationEx that Go's os.RemoveAll sends (Go 1.26,
// internal/syscall/windows.Deleteat) with "Invalid function" rather than
// the STATUS_INVALID_INFO_CLASS that makes Go fall back, so every
// t.TempDir fails its test at cleanup. There the directory is made with
// os.MkdirTemp and a failed removal is logged, not failed. Only tests
// import it (make wine-test runs the Windows test binaries under Wine).
package testdir

import (
	"os"
	"strings"
	"testing"
)

// New returns a new temporary directory removed when t ends: t.TempDir(),
// or under Wine one whose failed removal is only logged.
func New(t testing.TB) string {
	if !onWine() {
		return t.TempDir()
	}
	d, err := os.MkdirTemp("", strings.NewReplacer("/", "_", `\`, "_", ":", "_").Replace(t.Name()))
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
