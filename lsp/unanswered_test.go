package lsp

import (
	"context"
	"strings"
	"testing"
)

// TestUnansweredCheckInStatus: a server that takes a change and never
// answers it (hung, not dead) stays active, and status says it did not
// answer until a check is answered fresh.
func TestUnansweredCheckInStatus(t *testing.T) {
	m, dir := fakeManager(t, "never-publishes")
	path := writeFile(t, dir, "a.fake", "x")
	if out := m.Check(context.Background(), []Doc{{Path: path}}, 0); len(out) != 1 || out[0].Freshness != Timeout {
		t.Fatalf("outcome = %+v, want one timeout", out)
	}
	st := fakeStatus(t, m)
	if st.State != StateActive || !strings.HasPrefix(st.LastError, "no answer to a change within ") {
		t.Errorf("status = %+v, want active, with a last error saying the change got no answer", st)
	}

	// The same entry answering fresh clears it.
	m.mu.Lock()
	var entries []*entry
	for _, e := range m.entries {
		entries = append(entries, e)
	}
	m.mu.Unlock()
	for _, e := range entries {
		m.noteAnswer(e, Outcome{Freshness: Fresh}, 0)
	}
	if st := fakeStatus(t, m); st.LastError != "" {
		t.Errorf("status after a fresh answer = %+v, want no last error", st)
	}
}
