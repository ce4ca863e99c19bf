package hooks

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

func TestParsePatch(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    []PatchOp
		wantErr string
	}{
		{
			name: "every operation",
			body: "*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-print(\"Hi\")\n+print(\"Hello, world!\")\n*** Delete File: obsolete.txt\n*** End Patch\n",
			want: []PatchOp{{Kind: PatchAdd, Path: "hello.txt"}, {Kind: PatchUpdate, Path: "src/app.py", MoveTo: "src/main.py"}, {Kind: PatchDelete, Path: "obsolete.txt"}},
		},
		{
			name: "heredoc, CRLF, blanks and end of file",
			body: "apply_patch <<'EOF'\r\n  *** Begin Patch  \r\n\r\n*** Update File: a.go\r\n@@\r\n func a() {\r\n-\treturn\r\n+\treturn // x\r\n\r\n }\r\n*** End of File\r\n*** End Patch\r\nEOF\r\n",
			want: []PatchOp{{Kind: PatchUpdate, Path: "a.go"}},
		},
		{name: "empty patch", body: "*** Begin Patch\n*** End Patch", want: nil},
		{name: "absolute path", body: "*** Begin Patch\n*** Add File: /abs/x.go\n+package x\n*** End Patch\n", want: []PatchOp{{Kind: PatchAdd, Path: "/abs/x.go"}}},
		{name: "not a patch", body: "diff --git a/x b/x\n", wantErr: "no \"*** Begin Patch\" line"},
		{name: "no end", body: "*** Begin Patch\n*** Add File: a\n+x\n", wantErr: `no "*** End Patch" line`},
		{name: "unknown header", body: "*** Begin Patch\n*** Rename File: a\n*** End Patch\n", wantErr: "line 2: unknown header"},
		{name: "empty path", body: "*** Begin Patch\n*** Add File:  \n*** End Patch\n", wantErr: "names no path"},
		{name: "add line without plus", body: "*** Begin Patch\n*** Add File: a\nx\n*** End Patch\n", wantErr: "line 3: a line of an added file must start with '+'"},
		{name: "text after delete", body: "*** Begin Patch\n*** Delete File: a\n-x\n*** End Patch\n", wantErr: "line 3: nothing may follow"},
		{name: "bad hunk line", body: "*** Begin Patch\n*** Update File: a\n@@\nx\n*** End Patch\n", wantErr: "line 4: a hunk line must start with"},
		{name: "move without update", body: "*** Begin Patch\n*** Add File: a\n*** Move to: b\n*** End Patch\n", wantErr: "line 3: \"*** Move to:\" does not follow"},
		{name: "move after a hunk", body: "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** Move to: b\n*** End Patch\n", wantErr: "does not follow"},
		{name: "two moves", body: "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Move to: c\n*** End Patch\n", wantErr: "does not follow"},
		{name: "text before the first header", body: "*** Begin Patch\n+x\n*** End Patch\n", wantErr: "before any file header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePatch(tt.body)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ops = %+v, want %+v", got, tt.want)
			}
		})
	}
	if _, err := ParsePatch("hello"); !errors.Is(err, ErrNotPatch) {
		t.Errorf("err = %v, want ErrNotPatch", err)
	}
}

func TestPatchChanges(t *testing.T) {
	ops := []PatchOp{
		{Kind: PatchAdd, Path: "new.go"}, {Kind: PatchUpdate, Path: "a.go"}, {Kind: PatchUpdate, Path: "old.go", MoveTo: "pkg/moved.go"},
		{Kind: PatchDelete, Path: "gone.go"}, {Kind: PatchUpdate, Path: "/abs/b.go"},
	}
	got := PatchChanges(ops, "/w")
	want := []wire.Change{
		{Path: "/w/new.go", Mode: wire.ModeWrite, Before: new(string)}, {Path: "/w/a.go", Mode: wire.ModeEdit},
		{Path: "/w/old.go", Mode: wire.ModeWrite}, {Path: "/w/pkg/moved.go", Mode: wire.ModeWrite},
		{Path: "/w/gone.go", Mode: wire.ModeWrite}, {Path: "/abs/b.go", Mode: wire.ModeEdit},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		t.Errorf("changes = %s", g)
	}
}

func FuzzParsePatch(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** Update File: b\n*** Move to: c\n@@ x\n-y\n+z\n*** End of File\n*** Delete File: d\n*** End Patch\n")
	f.Add("*** Begin Patch\n*** End Patch")
	f.Add("*** Begin Patch\n*** Update File: \n")
	f.Add("x\n*** Begin Patch\r\n*** Add File: a\r\n+\r\n*** End Patch\r\n")
	f.Fuzz(func(t *testing.T, body string) {
		ops, err := ParsePatch(body)
		if err != nil {
			if ops != nil {
				t.Fatalf("ops %v with error %v", ops, err)
			}
			return
		}
		for _, op := range ops {
			if op.Path == "" || strings.TrimSpace(op.Path) != op.Path {
				t.Fatalf("bad path %q from %q", op.Path, body)
			}
			if op.MoveTo != "" && op.Kind != PatchUpdate {
				t.Fatalf("move on a %s from %q", op.Kind, body)
			}
		}
		for _, c := range PatchChanges(ops, "/w") {
			if !strings.HasPrefix(c.Path, "/") {
				t.Fatalf("relative change path %q", c.Path)
			}
		}
	})
}
