package sidecar

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
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
