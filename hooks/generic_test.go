package hooks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

func TestGenericDecode(t *testing.T) {
	g := Generic{PathField: "tool.params.path", ContentField: "tool.params.content"}
	runDecodeTable(t, g, []decodeCase{
		{
			name: "path and content",
			in:   `{"event":"tool_end","tool":{"name":"filesystem.write","params":{"path":"/r/a.yaml","content":"a: 1\n"}}}`,
			want: []wire.Change{{Path: "/r/a.yaml", Content: ptr("a: 1\n"), Mode: wire.ModeWrite}}, agent: "generic",
		},
		{
			name: "path only reads disk",
			in:   `{"tool":{"params":{"path":"/r/a.yaml"}}}`,
			want: []wire.Change{{Path: "/r/a.yaml", Mode: wire.ModeEdit}},
		},
		{
			name: "several paths",
			in:   `{"tool":{"params":{"path":["/r/a.go","/r/b.go"]}}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}, {Path: "/r/b.go", Mode: wire.ModeEdit}},
		},
		{name: "no path", in: `{"tool":{"name":"x"}}`},
		{name: "null path", in: `{"tool":{"params":{"path":null}}}`},
		{name: "number path", in: `{"tool":{"params":{"path":3}}}`, wantErr: "want a string or an array of strings"},
		{name: "array of numbers", in: `{"tool":{"params":{"path":[1]}}}`, wantErr: "want strings"},
		{name: "content not a string", in: `{"tool":{"params":{"path":"/r/a","content":{}}}}`, wantErr: "content field"},
		{name: "content for two paths", in: `{"tool":{"params":{"path":["/a","/b"],"content":"x"}}}`, wantErr: "one content for 2 paths"},
		{name: "empty path", in: `{"tool":{"params":{"path":""}}}`, wantErr: "empty path"},
		{name: "not an object", in: `["x"]`, wantErr: "want one JSON object"},
		{name: "trailing data", in: `{} {}`, wantErr: "trailing data"},
		{name: "trailing brace", in: `{}}`, wantErr: "trailing data"},
	})
}

func TestGenericEncode(t *testing.T) {
	ev := Event{Changes: []wire.Change{{Path: "/r/a"}}, Raw: []byte(`{"id": 1, "lint": "old", "z": [1]}`)}
	res := wire.Result{Lint: "E <1>", Files: nil}
	ans, err := Generic{Inject: true}.Encode(ev, res)
	if err != nil || string(ans.Stdout) != `{"id": 1, "lint": "E <1>", "z": [1]}`+"\n" {
		t.Fatalf("replace: %q, %v", ans.Stdout, err)
	}
	ev.Raw = []byte(`{"id": 1 }`)
	ans, _ = Generic{Inject: true}.Encode(ev, res)
	if string(ans.Stdout) != `{"id": 1,"lint":"E <1>" }`+"\n" {
		t.Fatalf("add: %q", ans.Stdout)
	}
	ev.Raw = []byte(`{}`)
	ans, _ = Generic{Inject: true}.Encode(ev, wire.Result{})
	if string(ans.Stdout) != `{"lint":""}`+"\n" {
		t.Fatalf("empty object: %q", ans.Stdout)
	}
	ans, _ = Generic{Inject: true}.Encode(Event{Raw: []byte(`{"x":1}`)}, wire.Result{})
	if string(ans.Stdout) != `{"x":1}`+"\n" {
		t.Fatalf("unchecked event echoed as %q", ans.Stdout)
	}
	ans, _ = Generic{}.Encode(ev, res)
	var back wire.Result
	if err := json.Unmarshal(ans.Stdout, &back); err != nil || back.Lint != "E <1>" {
		t.Fatalf("result JSON %q: %v", ans.Stdout, err)
	}
	if ans, _ := (Generic{}).Encode(Event{}, wire.Result{}); len(ans.Stdout) != 0 {
		t.Fatalf("unchecked event printed %q", ans.Stdout)
	}
	if _, err := New("generic", Settings{}); err == nil || !strings.Contains(err.Error(), "--path-field") {
		t.Errorf("generic without --path-field: %v", err)
	}
	if _, err := New("claude", Settings{PathField: "a"}); err == nil {
		t.Error("claude took --path-field")
	}
}

func FuzzGenericDecode(f *testing.F) {
	f.Add(`{"tool":{"params":{"path":"/r/a.yaml","content":"a: 1"}}}`, "tool.params.path", "tool.params.content")
	f.Add(`{"p":["a","b"]}`, "p", "")
	f.Add(`{"p":"x","c":1}`, "p", "c")
	f.Add(`{"a":{"b":[{"c":"/x"}]}}`, "a.b.#.c", "")
	f.Fuzz(func(t *testing.T, in, pathField, contentField string) {
		if pathField == "" {
			return
		}
		g := Generic{PathField: pathField, ContentField: contentField, Inject: true}
		ev, err := g.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
		ans, err := g.Encode(ev, wire.Result{Lint: "L"})
		if err != nil {
			return
		}
		if !json.Valid(ans.Stdout) {
			t.Fatalf("injected answer is not JSON: %q from %q", ans.Stdout, in)
		}
	})
}
