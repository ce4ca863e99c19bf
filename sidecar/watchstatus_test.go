package sidecar

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/lsp"
)

// TestWriteStatusWatcher: status prints the watcher's line, partial with
// what it scans, and nothing when no watcher runs.
func TestWriteStatusWatcher(t *testing.T) {
	st := StatusResult{Pid: 1, Version: "v", Root: "/r", Servers: []ServerStatus{},
		Watcher: &lsp.WatcherStatus{Backend: "kqueue", WatchedDirs: 40, WatchedFiles: 4000, ScannedDirs: 3000, ScannedFiles: 48000, ScanRoundMS: 12000}}
	var b bytes.Buffer
	if err := WriteStatus(&b, st); err != nil {
		t.Fatal(err)
	}
	if want := "\nwatcher: partial (kqueue, 4,000 of 52,000 files); scanning the rest every 12s\n"; !strings.Contains(b.String(), want) {
		t.Errorf("status lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	st.Watcher = nil
	if err := WriteStatus(&b, st); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "watcher") {
		t.Errorf("a watcher line without a watcher:\n%s", b.String())
	}
}
