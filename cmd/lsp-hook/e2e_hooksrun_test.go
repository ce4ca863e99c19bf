package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/lsp-hook/lsp-hook/wire"
)

// The `hooks run` tests run the binary as an agent runtime would: YAML
// hook declarations in the workspace config, events as JSON lines on
// stdin, a real daemon started on demand.

// runtimeHooks declares the DESIGN.md example (content from the event,
// never read from disk) and a path-matched hook that reads YAML files from
// disk; extra is appended to the config.
func runtimeHooks(extra string) string {
	return `hooks:
  - id: auto_lint
    "on": tool_end
    condition: {type: tool_name, match: "filesystem.write|workspace.*"}
    action: {type: lsp_diagnose, path_field: tool.params.path, content_field: tool.params.content,
             read_from_disk: false, inject_result: true, publish: true}
  - id: yaml_from_disk
    "on": tool_end
    condition: {type: path, match: "**/*.yaml"}
    action: {type: lsp_diagnose, path_field: file, inject_result: true}
` + extra
}

// runtimeEvent is a tool_end event of a runtime's write tool.
func runtimeEvent(tool, path, content string, result string) string {
	b, _ := json.Marshal(map[string]any{"event": "tool_end", "tool": map[string]any{
		"name": tool, "params": map[string]any{"path": path, "content": content}}})
	s := string(b)
	if result != "" {
		s = strings.TrimSuffix(s, "}") + `,"result":` + result + "}"
	}
	return s
}

// TestHooksRunThousandEvents: 1,000 mixed events through `lsp-hook hooks
// run` and a real daemon (validators only, so it takes seconds): order is
// kept, every event that gets no lint block comes back byte for byte, the
// others get theirs at result.lint, and no file is written.
func TestHooksRunThousandEvents(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	w.writeFile(".lsp-hook.yaml", "lsp: false\n"+runtimeHooks(""))
	badYAML := "a: 1\na: 2\n"
	w.writeFile("conf/bad.yaml", badYAML)

	var in strings.Builder
	kinds := make([]int, 1000)
	for i := range kinds {
		kinds[i] = i % 8
		var line string
		switch kinds[i] {
		case 0: // the event's content has an error; the file does not exist
			line = runtimeEvent("filesystem.write", fmt.Sprintf("data/x%d.json", i), fmt.Sprintf(`{"n": %d,}`, i), `{"bytes":12}`)
		case 1: // clean content
			line = runtimeEvent("workspace.edit", fmt.Sprintf("data/ok%d.json", i), `{"n": 1}`, "")
		case 2: // another tool, odd spacing and escapes
			line = fmt.Sprintf(`{ "event":"tool_end" , "tool":{"name":"shell.exec","params":{"path":"data/x.json","content":"{,"}}, "s":"\u00e9\/", "i": %d }`, i)
		case 3: // a YAML file checked from disk
			line = fmt.Sprintf(`{"event":"tool_end","tool":{"name":"editor.save"},"file":"conf/bad.yaml","seq":%d}`, i)
		case 4: // tool_start: no declaration fires
			line = runtimeEvent("filesystem.write", "data/y.json", "{,", "")
			line = strings.Replace(line, `"tool_end"`, `"tool_start"`, 1)
		case 5:
			line = fmt.Sprintf(`{"event":"tool_end", not json %d`, i)
		case 6:
			line = fmt.Sprintf(`{"type":"message","content":"step %d","n":1.0e3}`, i)
		case 7:
			line = ""
		}
		in.WriteString(line + "\n")
	}
	r := w.run(in.String(), nil, "hooks", "run")
	if r.exit != 0 {
		t.Fatalf("hooks run exited %d: %s", r.exit, r.stderr)
	}
	t.Logf("1,000 events in %v", r.elapsed.Round(time.Millisecond))
	inLines := strings.SplitAfter(in.String(), "\n")
	outLines := strings.SplitAfter(r.stdout, "\n")
	if len(outLines) != len(inLines) {
		t.Fatalf("%d lines in, %d out", len(inLines)-1, len(outLines)-1)
	}
	for i, k := range kinds {
		out := outLines[i]
		switch k {
		case 0:
			lint := gjson.Get(out, "result.lint").String()
			if !strings.Contains(lint, fmt.Sprintf(`<diagnostics file="data/x%d.json">`, i)) || !strings.Contains(lint, "ERROR [1:") ||
				gjson.Get(out, "result.bytes").Int() != 12 || !strings.HasSuffix(out, "\n") {
				t.Fatalf("line %d: want the event's JSON error at result.lint beside result.bytes, got:\n%s", i+1, out)
			}
		case 3:
			if lint := gjson.Get(out, "result.lint").String(); !strings.Contains(lint, `<diagnostics file="conf/bad.yaml">`) || !strings.Contains(lint, "duplicate key") {
				t.Fatalf("line %d: want bad.yaml's duplicate key at result.lint, got:\n%s", i+1, out)
			}
		default:
			if out != inLines[i] {
				t.Fatalf("line %d changed:\n in: %q\nout: %q", i+1, inLines[i], out)
			}
		}
	}
	if _, err := os.Stat(w.path("data")); !os.IsNotExist(err) {
		t.Errorf("hooks run wrote into the workspace: data/ exists (%v)", err)
	}
	if got := w.readFile("conf/bad.yaml"); got != badYAML {
		t.Errorf("conf/bad.yaml changed: %q", got)
	}
	if st, ok := w.status(); !ok || st.Counters[wire.MethodNotifyChange] != 375 {
		t.Errorf("daemon: running %v, counters %v; want 375 notify_change", ok, st.Counters)
	}
}

// TestHooksRunContentFromEvent: with read_from_disk: false gopls checks
// the text in the event (through didChange), not the file, which stays as
// it was.
func TestHooksRunContentFromEvent(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	w.writeFile(".lsp-hook.yaml", runtimeHooks(""))
	before := w.readFile("greet.go")
	fi, err := os.Stat(w.path("greet.go"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(before, `return "1 item"`, `return 1`, 1)
	if broken == before {
		t.Fatal(`greet.go lacks return "1 item"`)
	}
	ev := runtimeEvent("filesystem.write", w.path("greet.go"), broken, `"File written"`)
	r := w.run(ev+"\n", nil, "hooks", "run", "--verbose")
	if r.exit != 0 {
		t.Fatalf("hooks run exited %d: %s", r.exit, r.stderr)
	}
	// A string result gets the block appended after a blank line.
	res := gjson.Get(r.stdout, "result").String()
	block, ok := strings.CutPrefix(res, "File written\n\n")
	if !ok {
		t.Fatalf("result = %q, want the tool's text then the lint block\nstderr:\n%s", res, r.stderr)
	}
	checkLint(t, block, []wantDiag{{file: "greet.go", line: 16, col: 10, msg: "cannot use 1 (untyped int constant) as string value", code: "IncompatibleAssign"}})
	if got := w.readFile("greet.go"); got != before {
		t.Errorf("greet.go changed on disk")
	}
	if fi2, err := os.Stat(w.path("greet.go")); err != nil || !fi2.ModTime().Equal(fi.ModTime()) {
		t.Errorf("greet.go touched: mtime %v → %v (%v)", fi.ModTime(), fi2.ModTime(), err)
	}
	// The same event without the error comes back untouched.
	clean := runtimeEvent("filesystem.write", w.path("greet.go"), before, `"File written"`)
	if r := w.run(clean+"\n", nil, "hooks", "run"); r.stdout != clean+"\n" {
		t.Errorf("clean event changed: %s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

// TestHooksRunPublish: `publish: true` reaches `lsp-hook subscribe`.
func TestHooksRunPublish(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	w.writeFile(".lsp-hook.yaml", "lsp: false\n"+`hooks:
  - id: pub
    "on": tool_end
    condition: {type: tool_name, match: "fs.*"}
    action: {type: lsp_diagnose, path_field: args.path, content_field: args.text, publish: true}
`)
	wait := w.start("", nil, "subscribe", "--count", "1")
	if !pollUntil(20*time.Second, func() bool {
		st, ok := w.status()
		return ok && st.Counters["subscriptions"] >= 1
	}) {
		t.Fatal("lsp-hook subscribe did not subscribe within 20s")
	}
	ev := `{"event":"tool_end","tool_name":"fs.write","args":{"path":"cfg/new.json","text":"[1,,2]"}}` + "\n"
	r := w.run(ev, nil, "hooks", "run")
	if r.exit != 0 || r.stdout != ev {
		t.Errorf("hooks run: exit %d, stdout %q (want the event unchanged: no inject_result)\n%s", r.exit, r.stdout, r.stderr)
	}
	sub, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	if sub.exit != 0 {
		t.Fatalf("subscribe exited %d: %s", sub.exit, sub.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(sub.stdout, "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("subscribe --count 1 printed %d lines:\n%s", len(lines), sub.stdout)
	}
	var p wire.Published
	if err := json.Unmarshal([]byte(lines[0]), &p); err != nil {
		t.Fatal(err)
	}
	if p.Path != w.path("cfg/new.json") || p.Rel != "cfg/new.json" || p.Source != "hooks:pub" || len(p.Diagnostics) == 0 ||
		p.Diagnostics[0].Line != 1 || !strings.Contains(p.Lint, `<diagnostics file="cfg/new.json">`) {
		t.Errorf("published = %s", lines[0])
	}
	if !strings.Contains(sub.stderr, "subscribed to daemon pid") {
		t.Errorf("subscribe stderr = %q", sub.stderr)
	}
}

// TestSubscribeFollowsReplacedDaemon: `lsp-hook subscribe` outlives the
// daemon it subscribed to. A config written while the daemon runs makes
// the next hook replace it (wire.HelloResult.Current); the subscriber
// subscribes again, to the new daemon, and prints what that daemon
// publishes. Before, it exited 2 ("the daemon closed the connection") at
// the first config change.
func TestSubscribeFollowsReplacedDaemon(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	decl := "lsp: false\n" + `hooks:
  - id: pub
    "on": tool_end
    condition: {type: tool_name, match: "fs.*"}
    action: {type: lsp_diagnose, path_field: args.path, content_field: args.text, publish: true}
`
	w.writeFile(".lsp-hook.yaml", decl)
	wait := w.start("", nil, "subscribe", "--count", "2")
	subscribed := func(notPid int) (pid int, ok bool) {
		return pid, pollUntil(20*time.Second, func() bool {
			st, up := w.status()
			pid = st.Pid
			return up && st.Pid != notPid && st.Counters["subscriptions"] >= 1
		})
	}
	first, ok := subscribed(0)
	if !ok {
		t.Fatal("lsp-hook subscribe did not subscribe within 20s")
	}
	publish := func(rel string) {
		ev := `{"event":"tool_end","tool_name":"fs.write","args":{"path":"` + rel + `","text":"[1,,2]"}}` + "\n"
		if r := w.run(ev, nil, "hooks", "run"); r.exit != 0 {
			t.Fatalf("hooks run: exit %d\n%s", r.exit, r.stderr)
		}
	}
	publish("cfg/a.json")
	// The config changes; a hook replaces the daemon.
	w.writeFile(".lsp-hook.yaml", decl+"severity: warning\n")
	w.writeFile("b.json", "{}")
	w.hook(w.claudeEvent("s1", "Write", map[string]any{"file_path": w.path("b.json")}))
	second, ok := subscribed(first)
	if !ok {
		t.Fatalf("no subscription to a new daemon within 20s (the first was pid %d)", first)
	}
	publish("cfg/c.json")
	sub, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	if sub.exit != 0 {
		t.Fatalf("subscribe exited %d: %s", sub.exit, sub.stderr)
	}
	var rels []string
	for _, line := range strings.Split(strings.TrimSuffix(sub.stdout, "\n"), "\n") {
		var p wire.Published
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		rels = append(rels, p.Rel)
	}
	if want := []string{"cfg/a.json", "cfg/c.json"}; !slices.Equal(rels, want) {
		t.Errorf("published files = %q, want %q\n%s", rels, want, sub.stdout)
	}
	for _, want := range []string{
		fmt.Sprintf("subscribed to daemon pid %d", first),
		"the daemon closed the connection; subscribing again",
		fmt.Sprintf("subscribed to daemon pid %d", second),
	} {
		if !strings.Contains(sub.stderr, want) {
			t.Errorf("subscribe's stderr lacks %q:\n%s", want, sub.stderr)
		}
	}
}

// TestHooksRunBadDeclarations: a declaration error stops `hooks run`
// before it reads anything, naming the file, line and hook.
func TestHooksRunBadDeclarations(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	w.writeFile("decls.yaml", `- id: one
  "on": tool_end
  condition: {type: tool_name, match: "[oops"}
  action: {type: lsp_diagnose, path_field: p, publish: true}
`)
	r := w.run("{}\n", nil, "hooks", "run", "--config", "decls.yaml")
	if r.exit != 2 || r.stdout != "" || !strings.Contains(r.stderr, `decls.yaml:3: hook "one": condition.match: bad glob "[oops"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
	if r := w.run("{}\n", nil, "hooks", "run"); r.exit != 2 || !strings.Contains(r.stderr, "no hook declarations") {
		t.Errorf("no declarations: exit %d, stderr %q", r.exit, r.stderr)
	}
	w.writeFile(".lsp-hook.yaml", runtimeHooks(""))
	r = w.run("", nil, "hooks", "check")
	want := w.path(".lsp-hook.yaml") + `:2: auto_lint: on [tool_end], tool_name "filesystem.write|workspace.*" → lsp_diagnose tool.params.path (read_from_disk false, inject_result true, publish true)`
	if r.exit != 0 || !strings.HasPrefix(r.stdout, want+"\n") || strings.Count(r.stdout, "\n") != 2 {
		t.Errorf("hooks check: exit %d, stdout:\n%s\nwant first line:\n%s", r.exit, r.stdout, want)
	}
}
