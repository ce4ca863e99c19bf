package lsp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeRegistrations(t *testing.T) {
	tests := []struct {
		name    string
		params  string
		want    []registration
		wantErr string
	}{
		{
			name: "plain pattern, default kind",
			params: `{"registrations":[{"id":"w1","method":"workspace/didChangeWatchedFiles",
				"registerOptions":{"watchers":[{"globPattern":"**/*.{go,mod}"}]}}]}`,
			want: []registration{{id: "w1", method: "workspace/didChangeWatchedFiles",
				watchers: []fileWatcher{{pattern: "**/*.{go,mod}", kind: 7}}}},
		},
		{
			name: "relative pattern with a URI base and kind",
			params: `{"registrations":[{"id":"w2","method":"workspace/didChangeWatchedFiles",
				"registerOptions":{"watchers":[{"globPattern":{"baseUri":"file:///tmp/a%20b","pattern":"**/*.py"},"kind":5}]}}]}`,
			want: []registration{{id: "w2", method: "workspace/didChangeWatchedFiles",
				watchers: []fileWatcher{{base: "/tmp/a b", pattern: "**/*.py", kind: 5}}}},
		},
		{
			name: "relative pattern with a WorkspaceFolder base",
			params: `{"registrations":[{"id":"w3","method":"workspace/didChangeWatchedFiles",
				"registerOptions":{"watchers":[{"globPattern":{"baseUri":{"uri":"file:///ws","name":"ws"},"pattern":"*.json"}}]}}]}`,
			want: []registration{{id: "w3", method: "workspace/didChangeWatchedFiles",
				watchers: []fileWatcher{{base: "/ws", pattern: "*.json", kind: 7}}}},
		},
		{
			name: "pull registration with identifier and selector",
			params: `{"registrations":[{"id":"d1","method":"textDocument/diagnostic","registerOptions":{
				"identifier":"Pyright","interFileDependencies":true,"workspaceDiagnostics":false,
				"documentSelector":[{"language":"python"},{"scheme":"file","pattern":"**/*.pyi"},{"notebook":"jupyter"}]}}]}`,
			want: []registration{{id: "d1", method: "textDocument/diagnostic", pull: &pullRegistration{
				identifier: "Pyright", interFile: true,
				selector: []documentFilter{{Language: "python"}, {Scheme: "file", Pattern: "**/*.pyi"}, {Notebook: json.RawMessage(`"jupyter"`)}},
			}}},
		},
		{
			name: "pull registration with null selector",
			params: `{"registrations":[{"id":"d2","method":"textDocument/diagnostic","registerOptions":{
				"documentSelector":null,"interFileDependencies":false,"workspaceDiagnostics":false}}]}`,
			want: []registration{{id: "d2", method: "textDocument/diagnostic", pull: &pullRegistration{}}},
		},
		{
			name:   "another method is stored by id only",
			params: `{"registrations":[{"id":"c1","method":"workspace/didChangeConfiguration","registerOptions":{"section":"x"}}]}`,
			want:   []registration{{id: "c1", method: "workspace/didChangeConfiguration"}},
		},
		{name: "not an object", params: `[1]`, wantErr: "decoding registration params"},
		{name: "no registrations", params: `{}`, wantErr: "no registrations array"},
		{name: "missing id", params: `{"registrations":[{"method":"x"}]}`, wantErr: "id and method are required"},
		{
			name:    "watchers missing",
			params:  `{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles","registerOptions":{}}]}`,
			wantErr: "want {watchers: FileSystemWatcher[]}",
		},
		{
			name:    "glob pattern of unknown shape",
			params:  `{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":42}]}}]}`,
			wantErr: "want a string or {baseUri, pattern}",
		},
		{
			name:    "invalid glob",
			params:  `{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"src/[a-"}]}}]}`,
			wantErr: "not a valid glob",
		},
		{
			name:    "relative pattern with non-file base",
			params:  `{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":{"baseUri":"http://x/","pattern":"*"}}]}}]}`,
			wantErr: "scheme \"http\" is not file",
		},
		{
			name:    "kind out of range",
			params:  `{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"*","kind":8}]}}]}`,
			wantErr: "not a WatchKind bitmask",
		},
		{
			name:    "selector of unknown shape",
			params:  `{"registrations":[{"id":"d","method":"textDocument/diagnostic","registerOptions":{"documentSelector":["python"]}}]}`,
			wantErr: "want an array of DocumentFilter",
		},
		{
			name:    "selector with unknown field",
			params:  `{"registrations":[{"id":"d","method":"textDocument/diagnostic","registerOptions":{"documentSelector":[{"lang":"python"}]}}]}`,
			wantErr: `unknown field "lang"`,
		},
		{
			name:    "pull without options",
			params:  `{"registrations":[{"id":"d","method":"textDocument/diagnostic"}]}`,
			wantErr: "want an object",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeRegistrations(json.RawMessage(tt.params))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeUnregistrations(t *testing.T) {
	tests := []struct {
		params  string
		want    []string
		wantErr bool
	}{
		{`{"unregisterations":[{"id":"a","method":"m"},{"id":"b","method":"m"}]}`, []string{"a", "b"}, false},
		{`{"unregistrations":[{"id":"a","method":"m"}]}`, []string{"a"}, false},
		{`{"unregisterations":[{"method":"m"}]}`, nil, true},
		{`{}`, nil, true},
		{`"x"`, nil, true},
	}
	for _, tt := range tests {
		got, err := decodeUnregistrations(json.RawMessage(tt.params))
		if (err != nil) != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("decodeUnregistrations(%s) = %v, %v", tt.params, got, err)
		}
	}
}

// TestRegisterUnregister drives the handler: registrations are stored by
// id, replaced by a second registration with the same id, removed by
// unregistration, and a bad payload is refused with InvalidParams without
// storing anything.
func TestRegisterUnregister(t *testing.T) {
	c := newClient(fakeServerConfig(), "/ws", testLogger(t))
	reg := func(params string) error {
		t.Helper()
		res, err := c.register(json.RawMessage(params))
		if res != nil {
			t.Fatalf("register result = %v, want null", res)
		}
		return err
	}
	watch := func(id, glob string) string {
		return `{"registrations":[{"id":"` + id + `","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"` + glob + `"}]}}]}`
	}
	if err := reg(watch("a", "**/*.go")); err != nil {
		t.Fatal(err)
	}
	if err := reg(watch("b", "**/*.mod")); err != nil {
		t.Fatal(err)
	}
	if err := reg(watch("a", "**/*.work")); err != nil { // same id: replaces
		t.Fatal(err)
	}
	if got := c.regs.watchers(); len(got) != 2 || got[0].pattern != "**/*.work" || got[1].pattern != "**/*.mod" {
		t.Fatalf("watchers = %+v", got)
	}
	err := reg(`{"registrations":[` + strings.TrimSuffix(strings.TrimPrefix(watch("c", "*.c"), `{"registrations":[`), `]}`) +
		`,{"id":"d","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":{}}]}}]}`)
	if err == nil || !strings.Contains(err.Error(), "registration \"d\"") {
		t.Fatalf("bad registration: err = %v", err)
	}
	if got := c.regs.watchers(); len(got) != 2 {
		t.Fatalf("a refused batch stored something: %+v", got)
	}
	if _, err := c.unregister(json.RawMessage(`{"unregisterations":[{"id":"a","method":"workspace/didChangeWatchedFiles"},{"id":"zzz","method":"x"}]}`)); err != nil {
		t.Fatal(err)
	}
	if got := c.regs.watchers(); len(got) != 1 || got[0].pattern != "**/*.mod" {
		t.Fatalf("after unregister: %+v", got)
	}
	if _, err := c.unregister(json.RawMessage(`{"nope":1}`)); err == nil {
		t.Fatal("bad unregistration accepted")
	}
}

func TestWatcherGlobMatch(t *testing.T) {
	const root = "/ws/mod"
	tests := []struct {
		name string
		w    fileWatcher
		path string
		typ  FileChangeType
		want bool
	}{
		{"any depth", fileWatcher{pattern: "**/*.go", kind: 7}, "/ws/mod/a/b/c.go", FileChanged, true},
		{"any depth, root level", fileWatcher{pattern: "**/*.go", kind: 7}, "/ws/mod/c.go", FileCreated, true},
		{"any depth, outside the root", fileWatcher{pattern: "**/*.go", kind: 7}, "/ws/other/c.go", FileChanged, true},
		{"braces", fileWatcher{pattern: "**/*.{mod,work}", kind: 7}, "/ws/mod/go.work", FileChanged, true},
		{"braces miss", fileWatcher{pattern: "**/*.{mod,work}", kind: 7}, "/ws/mod/go.sum", FileChanged, false},
		{"relative to the root", fileWatcher{pattern: "*.json", kind: 7}, "/ws/mod/package.json", FileChanged, true},
		{"relative is not any depth", fileWatcher{pattern: "*.json", kind: 7}, "/ws/mod/sub/package.json", FileChanged, false},
		{"absolute pattern", fileWatcher{pattern: "/ws/mod/**/*.py", kind: 7}, "/ws/mod/x/y.py", FileDeleted, true},
		{"absolute pattern elsewhere", fileWatcher{pattern: "/ws/mod/**/*.py", kind: 7}, "/ws/other/y.py", FileDeleted, false},
		{"character class", fileWatcher{pattern: "**/[a-c].txt", kind: 7}, "/ws/mod/b.txt", FileChanged, true},
		{"negated class", fileWatcher{pattern: "**/[!a-c].txt", kind: 7}, "/ws/mod/b.txt", FileChanged, false},
		{"question mark", fileWatcher{pattern: "**/?.txt", kind: 7}, "/ws/mod/q.txt", FileChanged, true},
		{"relative pattern inside its base", fileWatcher{base: "/ws/mod/sub", pattern: "**/*.py", kind: 7}, "/ws/mod/sub/p/x.py", FileChanged, true},
		{"relative pattern outside its base", fileWatcher{base: "/ws/mod/sub", pattern: "**/*.py", kind: 7}, "/ws/mod/x.py", FileChanged, false},
		{"relative pattern, sibling with common prefix", fileWatcher{base: "/ws/mod/sub", pattern: "**", kind: 7}, "/ws/mod/subway/x.py", FileChanged, false},
		{"double star alone", fileWatcher{base: "/ws", pattern: "**", kind: 7}, "/ws/a/b/c", FileChanged, true},
		{"kind create only, changed", fileWatcher{pattern: "**/*.go", kind: WatchCreate}, "/ws/mod/a.go", FileChanged, false},
		{"kind create|delete, deleted", fileWatcher{pattern: "**/*.go", kind: WatchCreate | WatchDelete}, "/ws/mod/a.go", FileDeleted, true},
		{"spaces and unicode", fileWatcher{pattern: "**/*.go", kind: 7}, "/ws/mod/dir with space/ü.go", FileChanged, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.w.matches(tt.path, tt.typ, root); got != tt.want {
				t.Errorf("%+v.matches(%q, %d) = %v, want %v", tt.w, tt.path, tt.typ, got, tt.want)
			}
		})
	}
}

func TestPullRegistrationApplies(t *testing.T) {
	p := pullRegistration{selector: []documentFilter{
		{Language: "python"},
		{Scheme: "file", Pattern: "**/*.pyi"},
		{Notebook: json.RawMessage(`"jupyter"`)},
	}}
	tests := []struct {
		path, lang string
		want       bool
	}{
		{"/ws/a.py", "python", true},
		{"/ws/stubs/a.pyi", "", true},
		{"/ws/a.go", "go", false},
	}
	for _, tt := range tests {
		if got := p.applies(tt.path, tt.lang, "/ws"); got != tt.want {
			t.Errorf("applies(%q, %q) = %v, want %v", tt.path, tt.lang, got, tt.want)
		}
	}
	if !(pullRegistration{}).applies("/anything", "", "/ws") {
		t.Error("a registration without selector must apply to every document")
	}
}
