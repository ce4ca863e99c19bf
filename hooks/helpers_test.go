package hooks

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

// checkEvent checks what every decoded event must satisfy, whatever the
// input: the fuzz targets' invariant.
func checkEvent(t *testing.T, in string, ev Event) {
	t.Helper()
	for _, c := range ev.Changes {
		if c.Path == "" {
			t.Fatalf("change without a path from %q", in)
		}
		if c.Mode != wire.ModeEdit && c.Mode != wire.ModeWrite {
			t.Fatalf("bad mode %q from %q", c.Mode, in)
		}
	}
	if ev.ShellRan < 0 || ev.ShellRan > 0 && !ev.Shell {
		t.Fatalf("shell run of %v (shell %v) from %q", ev.ShellRan, ev.Shell, in)
	}
	if ev.Spool < SpoolNone || ev.Spool > SpoolTake {
		t.Fatalf("bad spool op %d from %q", ev.Spool, in)
	}
	if ev.Agent == "" {
		t.Fatalf("no agent from %q", in)
	}
}

// decodeCase is one row of a decoder table.
type decodeCase struct {
	name    string
	in      string
	want    []wire.Change
	wantErr string
	// The rest is checked when set.
	session, cwd, agent string
	spool               SpoolOp
	once                bool
	shell               string   // shellOf the event
	shown               []string // Event.Shown
}

// runDecodeTable decodes each case with a and compares.
func runDecodeTable(t *testing.T, a Adapter, tests []decodeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := a.Decode(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkEvent(t, tt.in, ev)
			got, _ := json.Marshal(ev.Changes)
			want, _ := json.Marshal(tt.want)
			if string(got) != string(want) {
				t.Errorf("changes = %s, want %s", got, want)
			}
			if tt.session != "" && ev.Session != tt.session {
				t.Errorf("session = %q, want %q", ev.Session, tt.session)
			}
			if tt.cwd != "" && ev.Cwd != tt.cwd {
				t.Errorf("cwd = %q, want %q", ev.Cwd, tt.cwd)
			}
			if tt.agent != "" && ev.Agent != tt.agent {
				t.Errorf("agent = %q, want %q", ev.Agent, tt.agent)
			}
			if ev.Spool != tt.spool {
				t.Errorf("spool = %d, want %d", ev.Spool, tt.spool)
			}
			if ev.Once != tt.once {
				t.Errorf("once = %v, want %v", ev.Once, tt.once)
			}
			if got := shellOf(ev); got != tt.shell {
				t.Errorf("shell = %q, want %q", got, tt.shell)
			}
			if !slices.Equal(ev.Shown, tt.shown) {
				t.Errorf("shown = %q, want %q", ev.Shown, tt.shown)
			}
		})
	}
}

// shellOf describes an event's shell command: "" for none, "unknown" when
// the event does not say how long it ran, else that duration.
func shellOf(ev Event) string {
	switch {
	case !ev.Shell:
		return ""
	case ev.ShellRan == 0:
		return "unknown"
	}
	return ev.ShellRan.String()
}
