package main_test

import (
	"strings"
	"testing"
)

// TestStopGateCallersThroughRelays: a session changes the parameters of a
// function whose only caller reaches it through two re-exports, three
// imports away (a Python module passing on a name it imported, a barrel
// of barrels), so no file within the two levels a hook's check re-checks
// breaks. The Stop hook must block, naming the caller's errors as the
// compiler reports them: the Stop gate's check re-checks the importers
// however far (wire.PhaseStop), where a hook's names those past its two
// levels in a note. Before, the gate found no error and warned that some
// importers were not checked: the turn ended on a build the compiler
// rejects. After the session puts the parameters back, Stop allows.
func TestStopGateCallersThroughRelays(t *testing.T) {
	e2e(t)
	cases := []struct {
		lang, exe, callee, farewell, from, to string
		relay                                 map[string]string
		truth                                 func(t *testing.T, dir string) []compilerErr
	}{
		{"py", "pyright-langserver", "greet.py",
			"\n\ndef farewell(name: str) -> str:\n    return \"bye, \" + name\n",
			"def farewell(name: str) -> str:", "def farewell(name: str, times: int) -> str:",
			map[string]string{
				"relay.py":  "from greet import farewell\n\n__all__ = [\"farewell\"]\n",
				"relay2.py": "from relay import farewell\n\n__all__ = [\"farewell\"]\n",
				"use.py":    "from relay2 import farewell\n\nbye: str = farewell(\"world\")\n",
			}, pyErrors},
		{"ts", "typescript-language-server", "src/greet.ts",
			"\nexport function farewell(name: string): string {\n  return \"bye, \" + name;\n}\n",
			"export function farewell(name: string): string {", "export function farewell(name: string, times: number): string {",
			map[string]string{
				"src/index.ts":  "export { farewell } from \"./greet\";\n",
				"src/index2.ts": "export { farewell } from \"./index\";\n",
				"src/use.ts":    "import { farewell } from \"./index2\";\n\nexport const bye: string = farewell(\"world\");\n",
			}, tsErrors},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			requireExe(t, tc.exe)
			w := newWorkspaceOf(t, "langs/"+tc.lang, "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
			orig := w.readFile(tc.callee) + tc.farewell
			w.writeFile(tc.callee, orig)
			for rel, text := range tc.relay {
				w.writeFile(rel, text)
			}
			commitAll(t, w.root)
			_, off := w.logSince(0)
			w.hook(w.editEvent("s", tc.callee, strings.Replace(orig, tc.from, tc.to, 1)))
			truth := tc.truth(t, w.root)
			if len(truth) == 0 {
				t.Fatalf("the compiler reports no error after the change; the test wants the caller's")
			}
			d, reason := stopDecision(t)(w.lifecycle("s", "Stop", map[string]any{"stop_hook_active": false}))
			if d != "block" {
				log, _ := w.logSince(off)
				t.Errorf("Stop after breaking the caller three imports away: %q %q; want a block (the compiler reports %v); the daemon's log:\n%s", d, reason, truth, indent(log))
			} else if p := judge(t, w.root, reason, truth); p != "" {
				t.Errorf("the block's reason: %s\n%s", p, indent(reason))
			}
			w.hook(w.editEvent("s", tc.callee, orig))
			if out := w.lifecycle("s", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
				t.Errorf("Stop after the fix printed %q, want nothing", out)
			}
		})
	}
}
