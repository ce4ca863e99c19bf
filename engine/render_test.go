package engine

import (
	"cmp"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/wire"
)

func TestUnknownNote(t *testing.T) {
	tests := []struct {
		name    string
		servers []wire.ServerResult
		want    string
	}{
		{"all fresh", []wire.ServerResult{{Name: "gopls", State: "active", Freshness: "fresh"}, {Name: "json", State: "active", Freshness: "fresh"}}, ""},
		{"unavailable is not a note", []wire.ServerResult{{Name: "clangd", State: "unavailable", Freshness: "none"}}, ""},
		{"timeout", []wire.ServerResult{{Name: "gopls", State: "active", Freshness: "timeout"}},
			"lsp-hook: no fresh diagnostics from gopls (timeout); errors it would report are unknown, not absent."},
		{"broken", []wire.ServerResult{{Name: "pyright", State: "broken", Freshness: "none"}},
			"lsp-hook: no fresh diagnostics from pyright (not running); errors it would report are unknown, not absent."},
		{"broken with a reason", []wire.ServerResult{{Name: "gopls", Kind: "server", State: "broken", Freshness: "none",
			Error: "language server is broken: server process exited: signal: killed"}},
			"lsp-hook: no fresh diagnostics from gopls (not running); errors it would report are unknown, not absent.\n" +
				"lsp-hook: gopls is broken (server process exited: signal: killed); `lsp-hook restart gopls` starts it again."},
		{"crashed, restarting after its back-off", []wire.ServerResult{{Name: "gopls", Kind: "server", State: "broken", Freshness: "none",
			Error: "language server is broken: server process exited: signal: killed; it restarts on the next change after 15:04:05 (in 1s)"}},
			"lsp-hook: no fresh diagnostics from gopls (not running); errors it would report are unknown, not absent.\n" +
				"lsp-hook: gopls is broken (server process exited: signal: killed); it restarts on the next change after 15:04:05 (in 1s)."},
		{"crashed too often", []wire.ServerResult{{Name: "gopls", Kind: "server", State: "broken", Freshness: "none",
			Error: "language server is broken: server process exited: signal: killed; it crashed 5 times in 10 minutes: run `lsp-hook restart gopls` to start it again"}},
			"lsp-hook: no fresh diagnostics from gopls (not running); errors it would report are unknown, not absent.\n" +
				"lsp-hook: gopls is broken (server process exited: signal: killed); it crashed 5 times in 10 minutes: run `lsp-hook restart gopls` to start it again."},
		{"a long reason is cut, the plan kept", []wire.ServerResult{{Name: "gopls", Kind: "server", State: "broken", Freshness: "none",
			Error: "language server is broken: " + strings.Repeat("x", 300) + "; it restarts on the next change after 15:04:05 (in 2s)"}},
			"lsp-hook: no fresh diagnostics from gopls (not running); errors it would report are unknown, not absent.\n" +
				"lsp-hook: gopls is broken (" + strings.Repeat("x", 200) + "…); it restarts on the next change after 15:04:05 (in 2s)."},
		{"work still running", []wire.ServerResult{{Name: "rust-analyzer", State: "active", Freshness: "partial", Pending: []string{"cargo check"}}},
			"lsp-hook: rust-analyzer was still running cargo check; errors it finds later are not in this answer."},
		{"two roots of a server say the same: said once", []wire.ServerResult{
			{Name: "typescript-language-server", Kind: "server", State: "active", Freshness: "partial", Error: "changed again during the check: src/models.ts"},
			{Name: "typescript-language-server", Kind: "server", State: "active", Freshness: "partial", Error: "changed again during the check: src/models.ts"},
		}, "lsp-hook: no fresh diagnostics from typescript-language-server (changed again during the check: src/models.ts; the newer check reports it); errors it would report are unknown, not absent."},
		{"a root past the cap of a change under another root", []wire.ServerResult{
			{Name: "pyright", Kind: "server", State: "active", Freshness: "partial", Error: "its importers of a file changed under another root were not checked: 2 under apps/a4; at most 3 other roots are checked per change"},
		}, "lsp-hook: no fresh diagnostics from pyright (its importers of a file changed under another root were not checked: 2 under apps/a4; at most 3 other roots are checked per change); errors it would report are unknown, not absent."},
		{"importers past the cap, two roots saying it: a line of its own, once", []wire.ServerResult{
			{Name: "pyright", Kind: "server", State: "active", Freshness: "partial", Error: "files importing a changed one were not checked again: 30 past the first 10 (use10.py, use11.py, use12.py, …)"},
			{Name: "pyright", Kind: "server", State: "active", Freshness: "partial", Error: "files importing a changed one were not checked again: 30 past the first 10 (use10.py, use11.py, use12.py, …)"},
		}, "lsp-hook: pyright: files importing a changed one were not checked again: 30 past the first 10 (use10.py, use11.py, use12.py, …); errors the change made there are unknown, not absent."},
		{"both", []wire.ServerResult{
			{Name: "gopls", State: "active", Freshness: "partial"},
			{Name: "rust-analyzer", State: "active", Freshness: "partial", Pending: []string{"cargo check"}},
		}, "lsp-hook: no fresh diagnostics from gopls (partial); errors it would report are unknown, not absent.\n" +
			"lsp-hook: rust-analyzer was still running cargo check; errors it finds later are not in this answer."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unknownNote(tt.servers); got != tt.want {
				t.Errorf("unknownNote =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestFitBlock: the lint block with its notes stays within the character
// and line caps whatever they are; notes that fit in half of each cap are
// all there, with the diagnostics cut to make room ("... and N more" or
// "... output truncated"); more notes end in a line counting the rest; a
// note too long alone is cut with "…".
func TestFitBlock(t *testing.T) {
	var ds []diag.Diagnostic
	for i := range 300 {
		ds = append(ds, diag.Diagnostic{Path: "/w/a.go", Line: i + 1, Column: 1, Severity: diag.SeverityError, Message: fmt.Sprintf("error number %d", i)})
	}
	changed := []diag.FileDiagnostics{{Path: "/w/a.go", Rel: "a.go", Diagnostics: ds}}
	note := func(i int) string {
		return fmt.Sprintf("lsp-hook: no fresh diagnostics from server%d (timeout); errors it would report are unknown, not absent.", i)
	}
	var many []string
	for i := range 40 {
		many = append(many, note(i))
	}
	long := "lsp-hook: " + strings.Repeat("é", 3000)
	tests := []struct {
		name      string
		changed   []diag.FileDiagnostics
		notes     []string
		lim       diag.Limits
		want      []string // lines the block must hold
		wantNot   []string
		wantWhole string // the whole block, when set
	}{
		{name: "no notes", changed: changed, lim: diag.DefaultLimits,
			wantWhole: diag.LintBlock(changed, nil, diag.DefaultLimits)},
		{name: "one note, characters bind", changed: changed, notes: many[:1],
			lim:  diag.Limits{MaxPerFile: 1000, MaxLines: 1000, MaxChars: 2000},
			want: []string{note(0), "... output truncated (limit reached)", "</diagnostics>"}},
		{name: "one note, lines bind", changed: changed, notes: many[:1],
			lim:  diag.Limits{MaxPerFile: 1000, MaxLines: 10, MaxChars: 10000},
			want: []string{note(0), "... output truncated (limit reached)"}},
		{name: "notes only", notes: many[:2], lim: diag.DefaultLimits, wantWhole: note(0) + "\n" + note(1)},
		{name: "many notes", changed: changed, notes: many, lim: diag.DefaultLimits,
			want:    []string{note(0), note(23), "lsp-hook: … and 16 more notes (lsp-hook status, the log)"},
			wantNot: []string{note(24)}},
		{name: "many notes, small cap", changed: changed, notes: many, lim: diag.Limits{MaxChars: 1000},
			want:    []string{note(0), note(3), "lsp-hook: … and 36 more notes (lsp-hook status, the log)"},
			wantNot: []string{note(4)}},
		{name: "a long note", changed: changed, notes: []string{long, note(1)}, lim: diag.Limits{MaxChars: 1000},
			want: []string{"lsp-hook: éé", "é…", "lsp-hook: … and 1 more note (lsp-hook status, the log)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := tt.lim
			lim.MaxPerFile = cmp.Or(lim.MaxPerFile, 20)
			lim.MaxOtherFiles = cmp.Or(lim.MaxOtherFiles, 5)
			lim.MaxLines = cmp.Or(lim.MaxLines, 50)
			got := fitBlock(tt.changed, nil, tt.notes, lim)
			if n := strings.Count(got, "\n") + 1; len(got) > lim.MaxChars || n > lim.MaxLines {
				t.Errorf("%d chars, %d lines; caps %d, %d", len(got), n, lim.MaxChars, lim.MaxLines)
			}
			if !utf8.ValidString(got) {
				t.Errorf("invalid UTF-8: a character was cut")
			}
			if tt.wantWhole != "" && got != tt.wantWhole {
				t.Errorf("block =\n%s\nwant\n%s", got, tt.wantWhole)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("block lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("block holds %q:\n%s", w, got)
				}
			}
		})
	}
	// Every cap, however small: never over it.
	for chars := 1; chars <= 3000; chars += 11 {
		for lines := 1; lines <= 60; lines += 3 {
			lim := diag.Limits{MaxPerFile: 20, MaxOtherFiles: 5, MaxLines: lines, MaxChars: chars}
			got := fitBlock(changed, changed, many[:3], lim)
			if n := strings.Count(got, "\n") + 1; len(got) > chars || n > lines || !utf8.ValidString(got) {
				t.Fatalf("caps %d chars, %d lines: block of %d chars, %d lines:\n%s", chars, lines, len(got), n, got)
			}
		}
	}
}
