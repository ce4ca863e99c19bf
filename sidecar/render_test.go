package sidecar

import "testing"

func TestUnknownNote(t *testing.T) {
	tests := []struct {
		name    string
		servers []ServerResult
		want    string
	}{
		{"all fresh", []ServerResult{{Name: "gopls", State: "active", Freshness: "fresh"}, {Name: "json", State: "active", Freshness: "fresh"}}, ""},
		{"unavailable is not a note", []ServerResult{{Name: "clangd", State: "unavailable", Freshness: "none"}}, ""},
		{"timeout", []ServerResult{{Name: "gopls", State: "active", Freshness: "timeout"}},
			"lsp-hook: no fresh diagnostics from gopls (timeout); errors it would report are unknown, not absent."},
		{"broken", []ServerResult{{Name: "pyright", State: "broken", Freshness: "none"}},
			"lsp-hook: no fresh diagnostics from pyright (not running); errors it would report are unknown, not absent."},
		{"broken with a reason", []ServerResult{{Name: "gopls", Kind: "server", State: "broken", Freshness: "none",
			Error: "language server is broken: server process exited: signal: killed"}},
			"lsp-hook: no fresh diagnostics from gopls (not running); errors it would report are unknown, not absent.\n" +
				"lsp-hook: gopls is broken (server process exited: signal: killed); `lsp-hook restart gopls` starts it again."},
		{"work still running", []ServerResult{{Name: "rust-analyzer", State: "active", Freshness: "partial", Pending: []string{"cargo check"}}},
			"lsp-hook: rust-analyzer was still running cargo check; errors it finds later are not in this answer."},
		{"both", []ServerResult{
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
