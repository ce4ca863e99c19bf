package lsp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// TestServerRequestsRefused: a server that asks the client to edit a file
// (workspace/applyEdit) and to open a URI (window/showDocument, external)
// is told no: applied false with a reason, success false. What the client
// answered comes back in the diagnostic testdata/fakelsp publishes
// ("server-requests" mode), the file on disk is byte for byte what it was,
// nothing else appeared in the workspace, and the log names each refusal.
func TestServerRequestsRefused(t *testing.T) {
	dir := tempDir(t)
	const text = "package a\n"
	path := writeFile(t, dir, "a.fake", text)
	before := listDir(t, dir)
	cfg := fakelsptest.Config(t, "server-requests")
	cfg.LSP.Timeout, cfg.LSP.FirstTouchTimeout = 20*time.Second, 20*time.Second // a loaded machine; the answer comes as soon as it is published
	logs := &fakelsptest.LockedBuffer{}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(logs, testWriter{t}), &slog.HandlerOptions{Level: slog.LevelInfo}))
	m := NewManager(cfg, dir, log)
	t.Cleanup(m.Shutdown)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out := m.Check(ctx, []Doc{{Path: path}}, 0)
	if len(out) != 1 || out[0].Freshness != Fresh || len(out[0].Files[path]) != 1 {
		t.Fatalf("outcomes = %+v, want one fresh diagnostic from fakelsp", out)
	}
	msg := out[0].Files[path][0].Message
	t.Logf("fakelsp reports: %s", msg)
	rest, ok := strings.CutPrefix(msg, "applyEdit=")
	applyJSON, showJSON, ok2 := strings.Cut(rest, " showDocument=")
	if !ok || !ok2 {
		t.Fatalf("message %q is not fakelsp's server-requests report", msg)
	}

	var applied struct {
		Applied       *bool           `json:"applied"`
		FailureReason string          `json:"failureReason"`
		Error         json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(applyJSON), &applied); err != nil {
		t.Fatalf("applyEdit answer %q: %v", applyJSON, err)
	}
	if applied.Applied == nil || *applied.Applied || applied.FailureReason != ApplyEditRefusal || applied.Error != nil {
		t.Errorf("applyEdit answered %s, want {applied: false, failureReason: %q}", applyJSON, ApplyEditRefusal)
	}
	var shown struct {
		Success *bool           `json:"success"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(showJSON), &shown); err != nil {
		t.Fatalf("showDocument answer %q: %v", showJSON, err)
	}
	if shown.Success == nil || *shown.Success || shown.Error != nil {
		t.Errorf("showDocument answered %s, want {success: false}", showJSON)
	}

	if got, err := os.ReadFile(path); err != nil || string(got) != text {
		t.Errorf("a.fake now holds %q (%v), want it unchanged: %q", got, err, text)
	}
	if after := listDir(t, dir); after != before {
		t.Errorf("workspace changed: before %q, after %q", before, after)
	}
	for _, want := range [][]string{
		{`msg="refused a server's workspace/applyEdit"`, `label="fakelsp: overwrite the file"`},
		{`msg="refused a server's window/showDocument"`, `uri=https://example.com/fakelsp external=true`},
	} {
		if !fakelsptest.HasLine(logs.String(), want...) {
			t.Errorf("no log line says all of %q", want)
		}
	}
}

// listDir returns the names in dir, one per line.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, "\n")
}
