package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/lsp-hook/lsp-hook/wire"
)

// fakeDiagnoser answers every change with the lint block "L <path> <n>"
// (n: the content's length, -1 when read from disk) for paths containing
// "bad", and a clean result otherwise; it records the changes.
type fakeDiagnoser struct{ changes []wire.Change }

func (f *fakeDiagnoser) Diagnose(_ context.Context, _ *Declaration, c wire.Change) (wire.Result, string) {
	f.changes = append(f.changes, c)
	if !strings.Contains(c.Path, "bad") {
		return wire.Result{}, "daemon"
	}
	n := -1
	if c.Content != nil {
		n = len(*c.Content)
	}
	return wire.Result{Lint: fmt.Sprintf("L %s %d", c.Path, n)}, "daemon"
}

func mustDecls(t testing.TB, s string) []Declaration {
	t.Helper()
	ds, err := ParseDeclarations([]byte(s), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

const runtimeDecl = `- id: auto_lint
  "on": tool_end
  condition: {type: tool_name, match: "filesystem.write|workspace.*"}
  action: {type: lsp_diagnose, path_field: tool.params.path, content_field: tool.params.content,
           read_from_disk: false, inject_result: true}
`

func runLines(t testing.TB, decls []Declaration, d Diagnoser, in string) string {
	t.Helper()
	var out bytes.Buffer
	r := &Runner{Decls: decls, Root: "/w", Alias: "/link/w", Diagnoser: d}
	if err := r.Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// splitKeep splits s into lines, each with its "\n" (the last may have
// none).
func splitKeep(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// TestRunnerThousandEvents: order is kept and every event that is not
// checked into a lint block comes back byte for byte.
func TestRunnerThousandEvents(t *testing.T) {
	var in strings.Builder
	type want struct {
		same bool
		path string
	}
	var wants []want
	for i := range 1000 {
		var line string
		w := want{same: true}
		switch i % 10 {
		case 0, 3, 7: // matching, with errors
			w = want{path: fmt.Sprintf("/w/bad%d.json", i)}
			line = fmt.Sprintf(`{"event":"tool_end","tool":{"name":"filesystem.write","params":{"path":%q,"content":"{\"a\": %d"}},"result":{"ok":true,"n":1.50}}`, w.path, i)
		case 1: // matching, clean
			line = fmt.Sprintf(`{"event":"tool_end","tool":{"name":"workspace.edit","params":{"path":"ok%d.json","content":"{}"}}}`, i)
		case 2: // another tool, odd spacing and escapes
			line = fmt.Sprintf(`{ "event" : "tool_end", "tool": {"name": "shell.run", "params": {"path": "bad.json", "content": "\u00e9\/x"}} , "seq": %d }`, i)
		case 4: // tool_start
			line = fmt.Sprintf(`{"event":"tool_start","tool":{"name":"filesystem.write","params":{"path":"bad%d.json","content":"x"}}}`, i)
		case 5: // not JSON
			line = fmt.Sprintf(`{"event":"tool_end", oops %d`, i)
		case 6: // blank, or a JSON value that is not an object
			line = []string{"", "   ", `[1,2]`, `"str"`}[i%4]
		case 8: // CRLF line of a matching tool without the path
			line = fmt.Sprintf("{\"event\":\"tool_end\",\"tool\":{\"name\":\"filesystem.write\",\"params\":{\"content\":\"%d\"}}}\r", i)
		case 9: // a message event
			line = fmt.Sprintf(`{"type":"message","role":"assistant","content":"hello %d","n":1e3}`, i)
		}
		in.WriteString(line)
		if i != 999 {
			in.WriteString("\n")
		}
		wants = append(wants, w)
	}
	d := &fakeDiagnoser{}
	inLines := splitKeep(in.String())
	out := runLines(t, mustDecls(t, runtimeDecl), d, in.String())
	outLines := splitKeep(out)
	if len(outLines) != len(inLines) || len(inLines) != 1000 {
		t.Fatalf("%d lines in, %d out; want 1000", len(inLines), len(outLines))
	}
	if len(d.changes) != 400 {
		t.Errorf("%d checks, want 400", len(d.changes))
	}
	for i, w := range wants {
		if w.same {
			if outLines[i] != inLines[i] {
				t.Fatalf("line %d changed:\n in: %q\nout: %q", i+1, inLines[i], outLines[i])
			}
			continue
		}
		body := strings.TrimSuffix(outLines[i], "\n")
		if !strings.HasSuffix(outLines[i], "\n") {
			t.Errorf("line %d lost its newline", i+1)
		}
		if !json.Valid([]byte(body)) {
			t.Fatalf("line %d is not JSON: %s", i+1, body)
		}
		wantLint := fmt.Sprintf("L %s %d", w.path, len(fmt.Sprintf(`{"a": %d`, i)))
		if got := gjson.Get(body, "result.lint").String(); got != wantLint {
			t.Errorf("line %d: result.lint = %q, want %q", i+1, got, wantLint)
		}
		// Everything but the inserted key keeps its bytes.
		if strings.Replace(body, `,"lint":"`+wantLint+`"`, "", 1) != strings.TrimSuffix(inLines[i], "\n") {
			t.Errorf("line %d: more than lint changed:\n in: %s\nout: %s", i+1, inLines[i], body)
		}
	}
	if !strings.HasSuffix(out, `"n":1e3}`) {
		t.Errorf("the last line, which had no newline, gained one or changed: %q", out[len(out)-40:])
	}
}

// TestRunnerMatching covers the field rules: tool name and phase fields,
// path conditions, missing fields falling through to the next
// declaration, content from the event versus from disk.
func TestRunnerMatching(t *testing.T) {
	decls := mustDecls(t, `
- id: start_only
  "on": tool_start
  condition: {type: tool_name, match: "pre.*"}
  action: {type: lsp_diagnose, path_field: file, inject_result: true}
- id: from_event
  "on": tool_end
  condition: {type: tool_name, match: "Write|fs.write"}
  action: {type: lsp_diagnose, path_field: tool_input.file_path, content_field: tool_input.content, inject_result: true}
- id: go_by_path
  "on": [tool_end, tool_start]
  condition: {type: path, match: "**/*.go"}
  action: {type: lsp_diagnose, path_field: args.path, inject_result: true}
`)
	for _, tc := range []struct {
		name, event string
		want        string // the change's path and content ("-" from disk), or "" for no check
	}{
		{"claude shape", `{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/w/bad.ts","content":"abc"}}`, "/w/bad.ts abc"},
		{"name field", `{"phase":"after_tool","name":"fs.write","tool_input":{"file_path":"rel/bad.ts","content":""}}`, "/w/rel/bad.ts "},
		{"no phase field matches any on", `{"tool":{"name":"fs.write"},"tool_input":{"file_path":"bad.ts","content":"x"}}`, "/w/bad.ts x"},
		{"unrecognized phase value is no phase", `{"type":"function","name":"Write","tool_input":{"file_path":"bad.ts","content":"y"}}`, "/w/bad.ts y"},
		{"wrong phase", `{"event":"tool_start","tool_name":"Write","tool_input":{"file_path":"bad.ts","content":"y"}}`, ""},
		{"tool.name wins over name", `{"tool":{"name":"other"},"name":"Write","tool_input":{"file_path":"bad.ts","content":"y"}}`, ""},
		{"content missing: next declaration", `{"event":"tool_end","tool_name":"Write","tool_input":{"file_path":"bad.go"},"args":{"path":"src/bad.go"}}`, "/w/src/bad.go -"},
		{"content not a string", `{"event":"tool_end","tool_name":"Write","tool_input":{"file_path":"bad.ts","content":7}}`, ""},
		{"path glob", `{"event":"PreToolUse","tool_name":"Bash","args":{"path":"/w/a/b/bad.go"}}`, "/w/a/b/bad.go -"},
		{"path glob miss", `{"event":"PreToolUse","tool_name":"Bash","args":{"path":"/w/bad.ts"}}`, ""},
		{"tool_start declaration", `{"event":"BeforeTool","tool_name":"pre.write","file":"bad.md"}`, "/w/bad.md -"},
		{"path not a string", `{"event":"tool_end","tool_name":"Write","tool_input":{"file_path":["x"],"content":"y"}}`, ""},
		{"no tool name", `{"event":"tool_end","tool_input":{"file_path":"bad.ts","content":"y"}}`, ""},
		{"spelled through the root's alias", `{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/link/w/bad.ts","content":"abc"}}`, "/w/bad.ts abc"},
		{"path glob through the root's alias", `{"event":"PreToolUse","tool_name":"Bash","args":{"path":"/link/w/a/b/bad.go"}}`, "/w/a/b/bad.go -"},
		{"beside the alias: left as it is", `{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/link/wx/bad.ts","content":"abc"}}`, "/link/wx/bad.ts abc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &fakeDiagnoser{}
			out := runLines(t, decls, d, tc.event+"\n")
			got := ""
			if len(d.changes) == 1 {
				c := d.changes[0]
				content := "-"
				if c.Content != nil {
					content = *c.Content
				}
				got = c.Path + " " + content
			} else if len(d.changes) > 1 {
				t.Fatalf("%d checks for one event", len(d.changes))
			}
			if got != tc.want {
				t.Errorf("checked %q, want %q", got, tc.want)
			}
			if tc.want == "" && out != tc.event+"\n" {
				t.Errorf("unchecked event changed: %s", out)
			}
			if tc.want != "" && !strings.Contains(out, `"lint":"L `) {
				t.Errorf("checked event has no lint: %s", out)
			}
		})
	}
}

func TestInjectLint(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1,"result":{"lint":"E"}}`},
		{`{}`, `{"result":{"lint":"E"}}`},
		{`{ "a" : 1 }`, `{ "a" : 1,"result":{"lint":"E"} }`},
		{`{"result":null,"b":2}`, `{"result":{"lint":"E"},"b":2}`},
		{`{"result":{"ok":true}}`, `{"result":{"ok":true,"lint":"E"}}`},
		{`{"result":{}}`, `{"result":{"lint":"E"}}`},
		{`{"result":{"lint":"old","x":[1]}}`, `{"result":{"lint":"E","x":[1]}}`},
		{`{"result":"File written"}`, `{"result":"File written\n\nE"}`},
		{`{"result":[1],"z":0}`, `{"result":[1],"z":0,"lint":"E"}`},
		{`{"result":3,"lint":"x"}`, `{"result":3,"lint":"E"}`},
		{"{\n  \"result\": {\n    \"a\": \"<&>\"\n  }\n}", "{\n  \"result\": {\n    \"a\": \"<&>\",\"lint\":\"E\"\n  }\n}"},
	} {
		got, err := injectLint([]byte(tc.in), "E")
		if err != nil || string(got) != tc.want {
			t.Errorf("injectLint(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
		if err == nil && !json.Valid(got) {
			t.Errorf("injectLint(%s) = %s: not JSON", tc.in, got)
		}
	}
	got, _ := injectLint([]byte(`{}`), "a \"<b>\"\n")
	if gjson.GetBytes(got, "result.lint").String() != "a \"<b>\"\n" {
		t.Errorf("lint not escaped right: %s", got)
	}
}

// FuzzRunner: whatever the input, the output has as many lines; an
// event nobody matches (or checks clean) comes back byte for byte; a
// checked one stays valid JSON with the block at result.lint or in a
// string result.
func FuzzRunner(f *testing.F) {
	f.Add([]byte(`{"event":"tool_end","tool":{"name":"filesystem.write","params":{"path":"bad.json","content":"{"}}}` + "\n"))
	f.Add([]byte("{\"tool_name\":\"workspace.x\",\"tool\":{\"params\":{\"path\":\"bad\",\"content\":\"\"}},\"result\":\"s\"}\r\n\n[1]\n{oops"))
	f.Add([]byte(`{"tool":{"name":"filesystem.write","params":{"path":"bad","content":"c"}},"result":{"a":{"lint":1}}}`))
	f.Add([]byte(`{"tool":{"name":"filesystem.write","params":{"path":"bad","content":"c"}},"result":{"a":1,"a":2},"result":3}`))
	decls := mustDecls(f, runtimeDecl)
	f.Fuzz(func(t *testing.T, in []byte) {
		out := runLines(t, decls, &fakeDiagnoser{}, string(in))
		inLines, outLines := splitKeep(string(in)), splitKeep(out)
		if len(inLines) != len(outLines) {
			t.Fatalf("%d lines in, %d out", len(inLines), len(outLines))
		}
		for i := range inLines {
			if inLines[i] == outLines[i] {
				continue
			}
			body := strings.TrimSuffix(strings.TrimSuffix(outLines[i], "\n"), "\r")
			if !gjson.Valid(body) {
				t.Fatalf("line %d changed into something that is not JSON:\n in: %q\nout: %q", i+1, inLines[i], outLines[i])
			}
			if !strings.HasPrefix(gjson.Get(body, "result.lint").String(), "L ") && !strings.HasPrefix(gjson.Get(body, "lint").String(), "L ") &&
				!strings.Contains(gjson.Get(body, "result").String(), "\n\nL ") {
				t.Fatalf("line %d changed but holds no lint block:\n in: %q\nout: %q", i+1, inLines[i], outLines[i])
			}
			if ending(inLines[i]) != ending(outLines[i]) {
				t.Fatalf("line %d: line ending changed: %q → %q", i+1, inLines[i], outLines[i])
			}
		}
		none := runLines(t, nil, &fakeDiagnoser{}, string(in))
		if none != string(in) {
			t.Fatalf("without declarations the stream changed:\n in: %q\nout: %q", in, none)
		}
	})
}

// ending returns line's ending: "\r\n", "\n" or "".
func ending(line string) string {
	body := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	return line[len(body):]
}
