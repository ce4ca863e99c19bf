package lsp

import (
	"context"
	"strings"
	"testing"
)

// TestGarbageStdoutReason: a server that writes something other than a
// framed message on stdout is broken for that reason, not for the exit
// status it dies with once its stdin is closed.
func TestGarbageStdoutReason(t *testing.T) {
	m, dir := fakeManager(t, "garbage-stdout")
	path := writeFile(t, dir, "a.fake", "x")
	out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
	const want = "server wrote something other than an LSP message on stdout: jsonrpc2: no Content-Length header found"
	if len(out) != 1 || out[0].Freshness != None || out[0].Err == nil || !strings.Contains(out[0].Err.Error(), want) {
		t.Fatalf("outcome = %+v, want none with an error saying %q", out, want)
	}
	if st := fakeStatus(t, m); st.State != StateBroken || !strings.Contains(st.LastError, want) {
		t.Errorf("status = %+v, want broken saying %q", st, want)
	}
}
