package hooks

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/wire"
)

func openCodeEvent(tool, args, output string) string {
	return `{"hook_event_name":"tool.execute.after","session_id":"ses_1","call_id":"call_1","tool":"` + tool +
		`","args":` + args + `,"cwd":"/r","output":` + output + `}`
}

func TestOpenCodeDecode(t *testing.T) {
	runDecodeTable(t, OpenCode{}, []decodeCase{
		{
			name: "write is a write",
			in:   openCodeEvent("write", `{"filePath":"/r/a.go","content":"package a"}`, `"Wrote file successfully."`),
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeWrite}}, session: "ses_1", cwd: "/r", agent: "opencode",
		},
		{
			name: "edit is an edit, a relative path under cwd",
			in:   openCodeEvent("edit", `{"filePath":"a.go","oldString":"x","newString":"y"}`, `"Edit applied successfully."`),
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}},
		},
		{
			name: "multiedit",
			in:   openCodeEvent("multiedit", `{"filePath":"/r/a.go","edits":[{"oldString":"x","newString":"y"}]}`, `""`),
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}},
		},
		{
			name: "apply_patch: every file the patch adds or updates",
			in:   openCodeEvent("apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: n.go\n+package n\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch"}`, `"Success."`),
			want: []wire.Change{{Path: "/r/n.go", Mode: wire.ModeWrite, Before: new(string)}, {Path: "/r/a.go", Mode: wire.ModeEdit}},
		},
		{
			name: "a file OpenCode's own LSP already reported is checked, and shown",
			in: openCodeEvent("apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: n.go\n+package n\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch"}`,
				`"Success.\n\nLSP errors detected in this file, please fix:\n<diagnostics file=\"/r/a.go\">\nERROR [1:1] x\n</diagnostics>"`),
			want:  []wire.Change{{Path: "/r/n.go", Mode: wire.ModeWrite, Before: new(string)}, {Path: "/r/a.go", Mode: wire.ModeEdit}},
			shown: []string{"/r/a.go"},
		},
		{name: "bash is a shell event", in: openCodeEvent("bash", `{"command":"gofmt -w ."}`, `""`), shell: "unknown"},
		{name: "read is not a change", in: openCodeEvent("read", `{"filePath":"/r/a.go"}`, `"…"`)},
		{name: "other event", in: `{"hook_event_name":"tool.execute.before","tool":"write","args":{"filePath":"/r/a.go"}}`},
		{name: "missing filePath", in: openCodeEvent("write", `{"content":"x"}`, `""`), wantErr: "args.filePath is missing"},
		{name: "no patch", in: openCodeEvent("apply_patch", `{"patchText":"nope"}`, `""`), wantErr: "Begin Patch"},
		{name: "malformed", in: `{"tool":`, wantErr: "decoding OpenCode hook event"},
	})
}

func TestOpenCodeEncode(t *testing.T) {
	ans, err := OpenCode{}.Encode(Event{}, wire.Result{Lint: "L <1>"})
	if err != nil || string(ans.Stdout) != "L <1>\n" || ans.Exit != 0 {
		t.Fatalf("answer = %+v, %v", ans, err)
	}
	if ans, _ := (OpenCode{}).Encode(Event{}, wire.Result{}); len(ans.Stdout) != 0 {
		t.Fatalf("clean answer = %q", ans.Stdout)
	}
	// The edited file's section OpenCode's output holds goes; the caller
	// it broke stays.
	edited := diag.FileDiagnostics{Path: "/r/a.go", Rel: "a.go", Diagnostics: []diag.Diagnostic{{Line: 1, Column: 1, Severity: diag.SeverityError, Message: "x"}}}
	caller := diag.FileDiagnostics{Path: "/r/b.go", Rel: "b.go", Diagnostics: []diag.Diagnostic{{Line: 2, Column: 1, Severity: diag.SeverityError, Message: "y"}}}
	res := wire.Result{Files: []diag.FileDiagnostics{edited, caller}, Lint: diag.LintBlock([]diag.FileDiagnostics{edited}, []diag.FileDiagnostics{caller}, diag.Limits{})}
	ans, _ = OpenCode{}.Encode(Event{Shown: []string{"/r/a.go"}}, res)
	if want := diag.LintBlock(nil, []diag.FileDiagnostics{caller}, diag.Limits{}) + "\n"; string(ans.Stdout) != want {
		t.Errorf("answer = %q, want %q", ans.Stdout, want)
	}
	if ans, _ := (OpenCode{}).Encode(Event{Shown: []string{"/r/a.go", "/r/b.go"}}, res); len(ans.Stdout) != 0 {
		t.Errorf("answer with every file already shown = %q, want none", ans.Stdout)
	}
}

func FuzzOpenCodeDecode(f *testing.F) {
	f.Add(openCodeEvent("write", `{"filePath":"/r/a.go"}`, `""`))
	f.Add(openCodeEvent("apply_patch", `{"patchText":"*** Begin Patch\n*** Delete File: d.go\n*** End Patch"}`, `"<diagnostics file=\"d.go\">"`))
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := OpenCode{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
	})
}
