package sidecar

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestHookMarksSaveLoad: the marks a daemon saves are what the next one
// loads — each chain's times, in their order — except chains idle past
// hookChainIdle and chains the loading daemon marked itself (its mark is
// newer); the texts file tools' hooks checked are not kept. A document
// that is not one save wrote is refused whole.
func TestHookMarksSaveLoad(t *testing.T) {
	now := time.Unix(100_000, 0)
	ago := func(s int) time.Time { return now.Add(-time.Duration(s) * time.Second) }
	var old hookMarks
	old.mark("claude/PostToolUse/a", ago(40), true)
	old.markChecked("claude/PostToolUse/a", ago(20), map[string]checkedText{"/w/x.go": {sum: 1, at: ago(21)}})
	old.mark("claude//a", ago(50), false)
	old.mark("codex/PostToolUse/b", ago(10), true)
	old.mark("claude/PostToolUse/idle", ago(1000), true)
	var buf bytes.Buffer
	n, err := old.save(&buf, now.Add(-hookChainIdle+time.Second+1000*time.Second)) // "idle" still within
	if err != nil || n != 4 {
		t.Fatalf("save = %d, %v; want 4 chains", n, err)
	}
	var h hookMarks
	h.mark("codex/PostToolUse/b", ago(5), false) // this daemon's own, newer
	n, err = h.load(bytes.NewReader(buf.Bytes()), now.Add(hookChainIdle-900*time.Second))
	if err != nil || n != 2 {
		t.Fatalf("load = %d, %v; want 2 chains (one idle, one known)", n, err)
	}
	at := now.Add(hookChainIdle - 900*time.Second)
	if m, ok := h.last("claude/PostToolUse/a", at); !ok || !m.at.Equal(ago(20)) || m.examined || !m.examinedAt.Equal(ago(40)) || m.checked != nil {
		t.Errorf("chain a: %+v, %v; want at 20 s ago, not examined, examined 40 s ago, no texts", m, ok)
	}
	if m, ok := h.last("claude//a", at); !ok || !m.at.Equal(ago(50)) {
		t.Errorf("session a: %+v, %v; want at 50 s ago", m, ok)
	}
	if m, ok := h.last("codex/PostToolUse/b", at); !ok || !m.at.Equal(ago(5)) || m.examined {
		t.Errorf("chain b: %+v, %v; want this daemon's own mark", m, ok)
	}
	if _, ok := h.last("claude/PostToolUse/idle", at); ok {
		t.Error("an idle chain was loaded")
	}
	if first := h.order.Front().Value.(*hookMark).key; first != sha256.Sum256([]byte("codex/PostToolUse/b")) {
		t.Error("the daemon's own mark is not the most recent")
	}

	for _, bad := range []string{
		"",
		`{"version": 2, "chains": []}`,
		`{"version": 1, "chains": [{"key": "zz", "at": "2026-11-29T00:00:00Z"}]}`,
		`{"version": 1, "chains": [{"key": "` + strings.Repeat("ab", 31) + `", "at": "2026-11-29T00:00:00Z"}]}`,
		`{"version": 1, "chains": [{"key": "` + strings.Repeat("ab", 33) + `", "at": "2026-11-29T00:00:00Z"}]}`,
		`{"version": 1, "chains": [{"key": 3}]}`,
	} {
		var h hookMarks
		if n, err := h.load(strings.NewReader(bad), now); err == nil || n != 0 || h.order.Len() != 0 {
			t.Errorf("load(%q) = %d, %v, %d chains; want an error and none", bad, n, err, h.order.Len())
		}
	}
}

// TestChangedFilesAcrossDaemons: a session's shell hook, then its daemon
// stops (replaced for a changed config, its idle timeout, `lsp-hook
// stop`) and the next daemon of the socket answers the session's next
// shell hook, which arrives late: its span starts where the first hook
// left off (span "session"), not at its command's start by the event
// (span "command"), which a late hook has passed.
func TestChangedFilesAcrossDaemons(t *testing.T) {
	root := gitRoot(t, map[string]string{"a.go": "package a"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const session = "claude/PostToolUse/s"
	srv, socket := serveServer(t, noServersEngine(root))
	var first wire.ChangedFilesResult
	if err := testdaemon.Dial(ctx, t, socket).Call(ctx, wire.MethodChangedFiles, wire.ChangedFilesParams{Session: session, SinceMS: time.Now().UnixMilli()}, &first); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	asked := time.Now()
	srv.Shutdown()
	if _, err := os.Stat(wire.HookMarksPath(socket)); err != nil {
		t.Fatalf("the stopped daemon left no hook marks: %v", err)
	}

	serveAt(t, noServersEngine(root), socket)
	var next wire.ChangedFilesResult
	late := wire.ChangedFilesParams{Session: session, SinceMS: time.Now().UnixMilli(), DefaultMS: 1}
	if err := testdaemon.Dial(ctx, t, socket).Call(ctx, wire.MethodChangedFiles, late, &next); err != nil {
		t.Fatal(err)
	}
	if next.Span != wire.SpanSession || next.SinceMS >= asked.UnixMilli() || next.SinceMS < first.SinceMS {
		t.Errorf("the next daemon's span: %s from %d; want %s from the first hook's question, before %d",
			next.Span, next.SinceMS, wire.SpanSession, asked.UnixMilli())
	}
}

// FuzzHookMarksLoad: load never panics on any input, keeps at most
// maxHookChains chains, and what it accepts it saves again whole.
func FuzzHookMarksLoad(f *testing.F) {
	now := time.Unix(100_000, 0)
	var h hookMarks
	h.mark("claude/PostToolUse/s", now.Add(-time.Second), true)
	h.mark("claude//s", now.Add(-time.Minute), false)
	var buf bytes.Buffer
	if _, err := h.save(&buf, now); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"version":1,"chains":[{"key":"","at":"0001-01-01T00:00:00Z"}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var h hookMarks
		n, err := h.load(bytes.NewReader(doc), now)
		if err != nil {
			return
		}
		if n != h.order.Len() || n > maxHookChains {
			t.Fatalf("load reported %d chains, holds %d (at most %d)", n, h.order.Len(), maxHookChains)
		}
		var out bytes.Buffer
		if m, err := h.save(&out, now); err != nil || m != n {
			t.Fatalf("save after load = %d, %v; want %d chains", m, err, n)
		}
	})
}
