package wire

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenLogUnwritable: a log file that cannot be opened (a directory; a
// path under a regular file) gives a logger that still works (writing to
// also only) and an error naming the file, for status and serve's stderr.
func TestOpenLogUnwritable(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "blocker")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file string
		want       error
	}{
		{"a directory", dir, syscall.EISDIR},
		{"under a regular file", filepath.Join(blocker, "d.log"), syscall.ENOTDIR},
	} {
		t.Run(c.name, func(t *testing.T) {
			var also bytes.Buffer
			log, closeLog, err := OpenLog(c.file, &also)
			defer closeLog()
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.file) {
				t.Errorf("OpenLog error = %v, want %v naming %s", err, c.want, c.file)
			}
			log.Info("still logging")
			if !strings.Contains(also.String(), "still logging") {
				t.Errorf("the logger wrote %q to also", also.String())
			}
		})
	}
	log, closeLog, err := OpenLog(filepath.Join(dir, "ok.log"), nil)
	defer closeLog()
	if err != nil || log == nil {
		t.Errorf("OpenLog of a writable file = %v", err)
	}
}
