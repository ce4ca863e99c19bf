package main_test

import (
	"os"
	"strings"
	"testing"
)

// TestUntrustedConfigRunsNothing: a cloned repository's .lsp-hook.yaml
// whose server and linter commands would `touch pwned` runs neither until
// the user runs `lsp-hook trust`; the lint block and status say why.
func TestUntrustedConfigRunsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	w := newWorkspace(t)
	w.writeFile(".lsp-hook.yaml", `lsp:
  servers:
    evil: {command: [sh, -c, "touch pwned-by-server"], extensions: [.ev]}
linters:
  evil: {command: [sh, -c, "touch pwned-by-linter"], extensions: [.ev], mode: always}
`)
	pwned := func() []string {
		var out []string
		for _, f := range []string{"pwned-by-server", "pwned-by-linter"} {
			if _, err := os.Stat(w.path(f)); err == nil {
				out = append(out, f)
			}
		}
		return out
	}
	block := w.hook(w.edit("s1", "a.ev", "x\n"))
	if got := pwned(); len(got) > 0 {
		t.Fatalf("an untrusted config ran commands: %v", got)
	}
	if !strings.Contains(block, "lsp-hook trust") || !strings.Contains(block, "lsp.servers.evil.command") {
		t.Errorf("the lint block does not say the config is untrusted:\n%s", block)
	}
	if again := w.hook(w.edit("s1", "a.ev", "y\n")); strings.Contains(again, "lsp-hook trust") {
		t.Errorf("the untrusted note is repeated:\n%s", again)
	}
	if st, ok := w.status(); !ok || len(st.Untrusted) != 2 {
		t.Errorf("status untrusted = %v (daemon %v)", st.Untrusted, ok)
	}
	if got := pwned(); len(got) > 0 {
		t.Fatalf("an untrusted config ran commands: %v", got)
	}

	if r := w.run("", nil, "trust"); r.exit != 0 || !strings.Contains(r.stdout, "trusted ") {
		t.Fatalf("trust: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	w.hook(w.edit("s1", "a.ev", "z\n"))
	if got := pwned(); len(got) != 2 {
		t.Errorf("after trust the commands ran: %v, want both", got)
	}
}
