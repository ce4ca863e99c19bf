package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The per-agent Fuzz*Decode targets (claude_test.go, cursor_test.go, …)
// start from hand-written events. FuzzAgentEvent starts from the recorded
// payloads of testdata/agents and testdata/demo-events and runs the whole
// adapter, every mode: decode twice (the same event), then encode a lint
// block and read it back out of the agent's answer.

// fuzzAdapter is one adapter configuration FuzzAgentEvent runs.
type fuzzAdapter struct {
	agent    string
	settings Settings
}

// fuzzAdapters lists every agent in every mode it takes.
func fuzzAdapters() []fuzzAdapter {
	var out []fuzzAdapter
	for _, a := range Agents {
		if a == "generic" {
			for _, inject := range []bool{false, true} {
				out = append(out, fuzzAdapter{a, Settings{PathField: "tool.params.path", ContentField: "tool.params.content", Inject: inject}})
			}
			continue
		}
		for _, m := range modes {
			if _, err := New(a, Settings{Mode: m}); err == nil {
				out = append(out, fuzzAdapter{a, Settings{Mode: m}})
			}
		}
	}
	return out
}

// recordedEvents returns the recorded hook payloads, by agent.
func recordedEvents(tb testing.TB) map[string][][]byte {
	out := make(map[string][][]byte)
	for _, glob := range []string{"../testdata/agents/*/*.json", "../testdata/demo-events/*.json"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				tb.Fatal(err)
			}
			agent := filepath.Base(filepath.Dir(file))
			if agent == "demo-events" {
				agent = "claude"
			}
			out[agent] = append(out[agent], b)
		}
	}
	if len(out) < len(Agents) {
		tb.Fatalf("recorded events for %d agents, want %d", len(out), len(Agents))
	}
	return out
}

// fuzzLint is the lint block encoded into each answer: it holds what JSON
// escapes (quotes, <, >, &, a newline, a tab, non-ASCII).
const fuzzLint = "LSP errors detected in this file, please fix:\n<diagnostics file=\"a &b.go\">\nERROR [1:2] \"x\"\tis 日本 🙂 (ts2322)\n</diagnostics>"

func FuzzAgentEvent(f *testing.F) {
	adapters := fuzzAdapters()
	for agent, events := range recordedEvents(f) {
		for i, a := range adapters {
			if a.agent == agent {
				for _, ev := range events {
					f.Add(ev, uint8(i))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, which uint8) {
		a := adapters[int(which)%len(adapters)]
		ad, err := New(a.agent, a.settings)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := ad.Decode(bytes.NewReader(in))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		checkEvent(t, string(in), ev)
		again, err := ad.Decode(bytes.NewReader(in))
		if err != nil || !reflect.DeepEqual(ev, again) {
			t.Fatalf("decoding twice differs: %+v, %v\n%+v", again, err, ev)
		}
		res := wire.Result{Lint: fuzzLint}
		ans, err := ad.Encode(ev, res)
		if err != nil {
			t.Fatalf("encoding a lint block for %+v: %v", ev, err)
		}
		checkAnswer(t, a, ev, ans)
		empty, err := ad.Encode(ev, wire.Result{})
		if err != nil {
			t.Fatalf("encoding a clean result: %v", err)
		}
		if a.agent != "generic" && (len(empty.Stdout) > 0 || len(empty.Stderr) > 0 || empty.Exit != 0) {
			t.Fatalf("%s answered a clean result with %q, %q, exit %d", a.agent, empty.Stdout, empty.Stderr, empty.Exit)
		}
	})
}

// checkAnswer checks that the answer to a lint block carries it: exit 2
// with it on stderr, plain text (Windsurf), or JSON holding it as a
// string value (the generic adapter's Result, or an injected event).
func checkAnswer(t *testing.T, a fuzzAdapter, ev Event, ans Answer) {
	t.Helper()
	if ans.Exit != 0 && ans.Exit != 2 {
		t.Fatalf("exit status %d", ans.Exit)
	}
	if ans.Exit == 2 {
		if string(ans.Stderr) != fuzzLint+"\n" || len(ans.Stdout) > 0 {
			t.Fatalf("exit2 answer: stdout %q, stderr %q", ans.Stdout, ans.Stderr)
		}
		return
	}
	if a.agent == "generic" && len(ev.Changes) == 0 {
		if a.settings.Inject && !bytes.Equal(ans.Stdout, append(bytes.Clone(ev.Raw), '\n')) {
			t.Fatalf("an event without changes was not echoed as it was: %q", ans.Stdout)
		}
		return
	}
	if a.agent == "windsurf" || a.agent == "opencode" {
		if string(ans.Stdout) != fuzzLint+"\n" {
			t.Fatalf("windsurf answer %q", ans.Stdout)
		}
		return
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(ans.Stdout))
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s answer is not JSON: %v: %q", a.agent, err, ans.Stdout)
	}
	if dec.More() {
		t.Fatalf("%s answer has more than one JSON value: %q", a.agent, ans.Stdout)
	}
	want := fuzzLint
	if a.agent == "gemini" {
		want = diag.PlainLintBlock(fuzzLint) // Gemini CLI escapes angle brackets
	}
	if !holdsString(v, want) {
		t.Fatalf("%s answer does not carry the lint block: %s", a.agent, ans.Stdout)
	}
}

// holdsString reports whether s is one of the string values in v.
func holdsString(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return v == s
	case []any:
		return slices.ContainsFunc(v, func(e any) bool { return holdsString(e, s) })
	case map[string]any:
		for _, e := range v {
			if holdsString(e, s) {
				return true
			}
		}
	}
	return false
}
