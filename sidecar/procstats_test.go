package sidecar

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestReadProcessStats reads this test process: an opened file is one more
// descriptor and closing it gives it back; goroutines, RSS and heap are
// there.
func TestReadProcessStats(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("counts every handle, not only files")
	}
	before := ReadProcessStats()
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	open := ReadProcessStats()
	f.Close()
	after := ReadProcessStats()
	if open.OpenFDs != before.OpenFDs+1 || after.OpenFDs != before.OpenFDs {
		t.Errorf("open fds %d, then %d with one more file open, then %d after closing it", before.OpenFDs, open.OpenFDs, after.OpenFDs)
	}
	if before.Goroutines < 1 || before.RSSKiB < 1024 || before.HeapKiB < 1 {
		t.Errorf("stats = %+v, want goroutines, an RSS of at least 1 MiB and a heap", before)
	}
}

func TestWriteStatusProcess(t *testing.T) {
	var b bytes.Buffer
	st := StatusResult{Pid: 1, Version: "v", Root: "/r", Servers: []ServerStatus{},
		Process: &ProcessStats{Goroutines: 12, OpenFDs: 9, RSSKiB: 21913, HeapKiB: 812}}
	if err := WriteStatus(&b, st); err != nil {
		t.Fatal(err)
	}
	if want := "process 12 goroutines  9 open fds  rss 21.4 MiB  heap 812 KiB\n"; !strings.Contains(b.String(), want) {
		t.Errorf("status output:\n%s\nwant a line %q", b.String(), want)
	}
}

// TestWriteStatusMemory holds status's budget line to what the last
// round measured and when: a total without its time read as the memory
// held now, though a server started since the round was not in it.
func TestWriteStatusMemory(t *testing.T) {
	at := time.Date(2026, 11, 28, 21, 30, 32, 0, time.Local)
	tests := []struct {
		name string
		m    MemoryStatus
		want string
	}{
		{"one daemon", MemoryStatus{Budget: 6 << 30, Total: 13 << 20, At: at, Daemons: 1, RSS: 13 << 20},
			"memory  budget 6.0 GiB, the 1 daemon held 13 MiB at 21:30:32 (this one 13 MiB; lsp-hook status --all)\n"},
		{"three daemons, no budget", MemoryStatus{Total: 1363 << 20, At: at, Daemons: 3, RSS: 21 << 20},
			"memory  no budget, all 3 daemons held 1.3 GiB at 21:30:32 (this one 21 MiB; lsp-hook status --all)\n"},
		{"before the first round", MemoryStatus{Budget: 2 << 30}, "memory  budget 2.0 GiB, not measured yet\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteStatus(&b, StatusResult{Pid: 1, Version: "v", Root: "/r", Servers: []ServerStatus{}, Memory: &tt.m}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tt.want) {
				t.Errorf("status output:\n%s\nwant a line %q", b.String(), tt.want)
			}
		})
	}
}
