package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		m.noteAnswer(e, Outcome{Freshness: Fresh}, 0, false)
	}
	if st := fakeStatus(t, m); st.LastError != "" {
		t.Errorf("status after a fresh answer = %+v, want no last error", st)
	}
}

// TestHungServerRestarts: a server that answered a change and then sends
// nothing at all (fakelsp hang-after-first: what clangd 14 does once a
// document it builds is closed and opened again) is not left answering
// nothing for the rest of the session. Checks cut short count for
// nothing; the first silent check to its deadline is only a timeout; the
// second in a row finds it hung (ErrHung), kills it and
// counts a crash; the next change after the back-off starts a new server
// process, which answers it fresh.
func TestHungServerRestarts(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "hang-after-first", "-trace="+trace)
	m.Crash = CrashPolicy{Backoff: time.Millisecond, MaxBackoff: time.Millisecond, Limit: 5, Window: time.Minute}
	path := writeFile(t, dir, "a.fake", "")
	check := func(msg string) Outcome {
		t.Helper()
		writeFile(t, dir, "a.fake", "ERROR: "+msg+"\n")
		out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
		if len(out) != 1 {
			t.Fatalf("%d outcomes, want 1", len(out))
		}
		return out[0]
	}
	if o := check("one"); o.Freshness != Fresh || len(o.Files[path]) != 1 {
		t.Fatalf("first check: %s %v %v, want fresh with one error", o.Freshness, o.Files, o.Err)
	}
	// Checks cut short prove nothing: a client that gave up (a hook its
	// agent killed), a budget shorter than hungMinWait.
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		if i == 0 {
			cancel()
		}
		m.Check(ctx, []Doc{{Path: path}}, 0)
		cancel()
	}
	if st := fakeStatus(t, m); st.State != StateActive || st.Crashes != 0 {
		t.Errorf("after checks cut short, status = %+v, want active with no crash", st)
	}
	if o := check("two"); o.Freshness != Timeout || errors.Is(o.Err, ErrHung) {
		t.Errorf("first silent check: %s, %v; want a timeout, not hung yet", o.Freshness, o.Err)
	}
	if st := fakeStatus(t, m); st.State != StateActive {
		t.Errorf("after one silent check, status = %+v, want active", st)
	}
	o := check("three")
	if o.Freshness != Timeout || !errors.Is(o.Err, ErrHung) {
		t.Fatalf("second silent check: %s, %v; want a timeout saying the server hung", o.Freshness, o.Err)
	}
	if st := fakeStatus(t, m); st.Crashes != 1 {
		t.Errorf("after the server hung, status = %+v, want one crash", st)
	}
	time.Sleep(10 * time.Millisecond) // the back-off
	o = check("four")
	if o.Freshness != Fresh || len(o.Files[path]) != 1 || o.Files[path][0].Message != "four" {
		t.Fatalf("check after the restart: %s %v %v, want fresh with the error \"four\"", o.Freshness, o.Files, o.Err)
	}
	if starts := traceLines(t, trace, "start "); len(starts) != 2 {
		t.Errorf("server processes started: %v, want 2", starts)
	}
}
