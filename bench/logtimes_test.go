package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLogCursorNext reads the records of one hook run, with and without the
// server_ms attribute, and checks that records written before the cursor
// and records of another server are ignored.
func TestLogCursorNext(t *testing.T) {
	const before = `time=2026-01-01T00:00:00Z level=INFO msg="server checked" pid=1 server=gopls root=/w freshness=fresh files=1 elapsed_ms=999 server_ms=998 err=<nil>` + "\n"
	tests := []struct {
		name   string
		server string
		log    string
		want   hookTimes
	}{
		{
			name:   "server_ms logged",
			server: "gopls",
			log: `time=2026-01-01T00:00:01Z level=INFO msg="server checked" pid=1 server=gopls root=/w freshness=fresh files=1 elapsed_ms=40 server_ms=24 err=<nil>
time=2026-01-01T00:00:01Z level=INFO msg=notify_change pid=1 source=claude changes=1 files=1 elapsed_ms=41 notes=[]
time=2026-01-01T00:00:01Z level=INFO msg="hook answered" component=hook agent=claude tool=Edit via=daemon files=1 notes=[] elapsed_ms=43
`,
			want: hookTimes{hook: 43, daemon: 41, server: 40, serverOnly: 24},
		},
		{
			name:   "no server_ms",
			server: "typescript-language-server",
			log: `time=2026-01-01T00:00:01Z level=INFO msg="server checked" pid=1 server=gopls root=/w freshness=fresh files=1 elapsed_ms=7 server_ms=3 err=<nil>
time=2026-01-01T00:00:01Z level=INFO msg="server checked" pid=1 server=typescript-language-server root=/w freshness=fresh files=1 elapsed_ms=390 err=<nil>
time=2026-01-01T00:00:01Z level=INFO msg=notify_change pid=1 source=claude changes=1 files=1 elapsed_ms=391 notes=[]
`,
			want: hookTimes{hook: -1, daemon: 391, server: 390, serverOnly: -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "w.log")
			if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
				t.Fatal(err)
			}
			cur := newLogCursor(path)
			if err := os.WriteFile(path, []byte(before+tt.log+"time=… partial record"), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := cur.next(tt.server)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("next(%q) = %+v, want %+v", tt.server, got, tt.want)
			}
		})
	}
}
