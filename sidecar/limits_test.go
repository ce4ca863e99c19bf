package sidecar

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestBoundedCodec reads frames through BoundedCodec with a 100-byte limit
// (MaxMessageSize where noted): what it decodes, what it refuses and why,
// and that a refused body is not read.
func TestBoundedCodec(t *testing.T) {
	body := func(n int) string { return `{"a":"` + strings.Repeat("x", n-8) + `"}` } // n bytes of JSON
	tests := []struct {
		name, in   string
		limit      int64
		want       string // the decoded value of "a"
		wantErr    string
		wantTooBig bool
		wantUnread int // bytes the codec must leave unread
	}{
		{name: "one frame", in: "Content-Length: 9\r\n\r\n" + `{"a":"x"}`, want: "x"},
		{name: "content type too", in: "Content-Length: 9\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + `{"a":"x"}`, want: "x"},
		{name: "header name any case", in: "content-length: 9\r\n\r\n" + `{"a":"x"}`, want: "x"},
		{name: "at the limit", in: "Content-Length: 100\r\n\r\n" + body(100), want: strings.Repeat("x", 92)},
		{name: "over the limit", in: "Content-Length: 101\r\n\r\n" + body(101), wantTooBig: true, wantUnread: 101,
			wantErr: "message too large: 101 bytes, over the 100-byte limit"},
		{name: "4 GiB announced", in: "Content-Length: 4294967295\r\n\r\n{}", limit: wire.MaxMessageSize, wantTooBig: true, wantUnread: 2,
			wantErr: "4294967295 bytes, over the 67108864-byte limit"},
		{name: "beyond int64", in: "Content-Length: 99999999999999999999\r\n\r\n{}", wantErr: "invalid Content-Length"},
		{name: "negative", in: "Content-Length: -1\r\n\r\n{}", wantErr: "invalid Content-Length"},
		{name: "zero", in: "Content-Length: 0\r\n\r\n{}", wantErr: "invalid Content-Length"},
		{name: "not a number", in: "Content-Length: ten\r\n\r\n{}", wantErr: "invalid Content-Length"},
		{name: "no content length", in: "Content-Type: x\r\n\r\n{}", wantErr: "no Content-Length"},
		{name: "bare newline", in: "Content-Length: 2\n\n{}", wantErr: `line endings must be \r\n`},
		{name: "not a header", in: "hello\r\n\r\n{}", wantErr: `"hello" is not a header`},
		{name: "endless header line", in: strings.Repeat("X", 1<<20), wantErr: "a line longer than 4096 bytes"},
		{name: "endless header lines", in: strings.Repeat("X: y\r\n", 1000), wantErr: "more than 16 header lines"},
		{name: "short body", in: "Content-Length: 50\r\n\r\n{}", wantErr: "reading a 50-byte message body: unexpected EOF"},
		{name: "not JSON", in: "Content-Length: 2\r\n\r\n{]", wantErr: "decoding a 2-byte message"},
		{name: "closed between messages", in: "", wantErr: "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.limit == 0 {
				tt.limit = 100
			}
			logs := &fakelsptest.LockedBuffer{}
			codec := wire.BoundedCodec{Limit: tt.limit, Log: testdaemon.CaptureLog(t, logs)}
			if tt.limit == wire.MaxMessageSize {
				codec.Limit = 0 // the default
			}
			r := bufio.NewReader(strings.NewReader(tt.in))
			var v struct{ A string }
			var err error
			alloc := allocated(func() { err = codec.ReadObject(r, &v) })
			if tt.wantErr == "" {
				if err != nil || v.A != tt.want {
					t.Fatalf("ReadObject = %q, %v; want %q", v.A, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.Is(err, wire.ErrMessageTooLarge) != tt.wantTooBig {
				t.Fatalf("ReadObject error = %v, want %q (ErrMessageTooLarge: %v)", err, tt.wantErr, tt.wantTooBig)
			}
			if tt.name == "closed between messages" && err != io.EOF {
				t.Errorf("error = %v, want io.EOF itself (jsonrpc2 logs anything else as a protocol error)", err)
			}
			if tt.wantTooBig {
				if rest, _ := io.ReadAll(r); len(rest) != tt.wantUnread {
					t.Errorf("%d bytes left unread, want the whole body (%d)", len(rest), tt.wantUnread)
				}
				if !fakelsptest.HasLine(logs.String(), "refusing message over the size limit", "limit_bytes=") {
					t.Errorf("log does not name the refusal: %s", logs)
				}
				if alloc > 1<<20 {
					t.Errorf("refusing allocated %d bytes", alloc)
				}
			}
		})
	}
}

// TestBoundedCodecTrailingBytes: a body whose JSON ends before its
// Content-Length does not shift the next frame (VSCodeObjectCodec's
// json.Decoder would leave the rest to be read as a header).
func TestBoundedCodecTrailingBytes(t *testing.T) {
	r := bufio.NewReader(strings.NewReader("Content-Length: 11\r\n\r\n{\"a\":\"x\"}  Content-Length: 9\r\n\r\n{\"a\":\"y\"}"))
	for _, want := range []string{"x", "y"} {
		var v struct{ A string }
		if err := (wire.BoundedCodec{}).ReadObject(r, &v); err != nil || v.A != want {
			t.Fatalf("ReadObject = %q, %v; want %q", v.A, err, want)
		}
	}
}

// TestOversizedFrameClosesConnection: the daemon closes a connection that
// announces a frame over MaxMessageSize, at once (it does not wait for the
// body), without allocating it, logging the size and the limit; and then
// serves the next client.
func TestOversizedFrameClosesConnection(t *testing.T) {
	logs := &fakelsptest.LockedBuffer{}
	cfg := config.Default()
	cfg.LSP.Enabled = false
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	socket := serve(t, engine.NewEngine(root, cfg, nil, testdaemon.CaptureLog(t, logs)))
	tests := []struct {
		name, header string
		wantLog      []string
	}{
		{name: "4 GiB", header: "Content-Length: 4294967295\r\n\r\n",
			wantLog: []string{"refusing message over the size limit", "bytes=4294967295", fmt.Sprintf("limit_bytes=%d", wire.MaxMessageSize)}},
		{name: "one byte over", header: fmt.Sprintf("Content-Length: %d\r\n\r\n", wire.MaxMessageSize+1),
			wantLog: []string{"refusing message over the size limit", fmt.Sprintf("bytes=%d", wire.MaxMessageSize+1)}},
		{name: "endless header", header: strings.Repeat("X", 64<<10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc, err := net.Dial("unix", socket)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			var n int
			alloc := allocated(func() {
				if _, err = io.WriteString(nc, tt.header+`{"jsonrpc":"2.0","id":1,"method":"status"`); err != nil {
					t.Fatal(err)
				}
				nc.SetReadDeadline(time.Now().Add(30 * time.Second)) // generous: a loaded machine; the close comes at once
				n, err = nc.Read(make([]byte, 1))
			})
			if n != 0 || !(errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)) {
				t.Fatalf("read after the frame = %d bytes, %v; want the connection closed", n, err)
			}
			if alloc > 8<<20 {
				t.Errorf("the daemon allocated %d MiB refusing the frame", alloc>>20)
			}
			if tt.wantLog != nil && !fakelsptest.HasLine(logs.String(), tt.wantLog...) {
				t.Errorf("log does not say %q:\n%s", tt.wantLog, logs)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var st StatusResult
			if err := testdaemon.Dial(ctx, t, socket).Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
				t.Fatalf("the next client: %v", err)
			}
		})
	}
}

// TestParamsDepth: params nested deeper than MaxParamsDepth get an
// invalid-params error naming the limit, whatever the method; brackets in
// strings do not count; the connection stays usable.
func TestParamsDepth(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	socket := startServer(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	tests := []struct {
		name, method, params string
		wantErr              bool
	}{
		{name: "at the limit", method: wire.MethodStatus, params: nest(MaxParamsDepth)},
		{name: "one over", method: wire.MethodStatus, params: nest(MaxParamsDepth + 1), wantErr: true},
		{name: "deep object", method: wire.MethodNotifyChange, params: `{"changes":[{"path":"a.json","x":` + strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70) + "}]}", wantErr: true},
		{name: "thousands deep", method: wire.MethodDiagnostics, params: nest(5000), wantErr: true},
		{name: "brackets in a string", method: wire.MethodStatus, params: `{"s":"` + nest(1000) + `"}`},
		{name: "escaped quote in a string", method: wire.MethodStatus, params: `{"s":"\"` + strings.Repeat("[", 100) + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out json.RawMessage
			err := c.Call(ctx, tt.method, json.RawMessage(tt.params), &out)
			var rpcErr *jsonrpc2.Error
			switch {
			case !tt.wantErr && err != nil:
				t.Fatalf("%s: %v", tt.method, err)
			case tt.wantErr && (!errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.CodeInvalidParams ||
				rpcErr.Message != fmt.Sprintf("params nest deeper than %d levels (MaxParamsDepth)", MaxParamsDepth)):
				t.Fatalf("%s: error %v, want invalid params naming the limit %d", tt.method, err, MaxParamsDepth)
			}
		})
	}
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, nil); err != nil {
		t.Errorf("status after the refusals: %v", err)
	}
}

// TestMaxChanges: a notify_change of MaxChanges changes is served; one
// more is refused with an invalid-params error naming both numbers.
func TestMaxChanges(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	socket := startServer(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	changes := func(n int) []wire.Change {
		out := make([]wire.Change, n)
		bad := "[1,,]"
		for i := range out {
			out[i] = wire.Change{Path: fmt.Sprintf("f%d.json", i), Content: &bad}
		}
		return out
	}
	var res wire.Result
	if err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: changes(MaxChanges)}, &res); err != nil {
		t.Fatalf("%d changes: %v", MaxChanges, err)
	}
	if len(res.Files) != MaxChanges {
		t.Errorf("%d changes gave %d files with diagnostics", MaxChanges, len(res.Files))
	}
	err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: changes(MaxChanges + 1)}, &res)
	var rpcErr *jsonrpc2.Error
	want := fmt.Sprintf("notify_change: %d changes, at most %d", MaxChanges+1, MaxChanges)
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.CodeInvalidParams || rpcErr.Message != want {
		t.Errorf("%d changes: %v, want invalid params %q", MaxChanges+1, err, want)
	}
}

// TestLintBlockCapsThroughDaemon: a flood of diagnostics (testdata/fakelsp
// -mode=flood) reaches the client as a lint block within the configured
// caps, whichever cap binds, also when the block ends with a note about a
// server that gave no answer.
func TestLintBlockCapsThroughDaemon(t *testing.T) {
	tests := []struct {
		name    string
		output  config.Output
		files   int  // changed files, each flooded
		crashed bool // a second server that dies: its notes end the block
		skipped int  // changes over MaxFileSize, which the client leaves out and notes
	}{
		{name: "default caps", files: 1},
		{name: "characters bind", output: config.Output{MaxPerFile: 100000, MaxLines: 100000, MaxChars: 10000}, files: 1},
		{name: "small character cap", output: config.Output{MaxPerFile: 100000, MaxLines: 100000, MaxChars: 1000}, files: 1},
		{name: "many files", output: config.Output{MaxPerFile: 100000, MaxLines: 100000, MaxChars: 10000}, files: 8},
		{name: "with a note", output: config.Output{MaxPerFile: 100000, MaxLines: 100000, MaxChars: 10000}, files: 1, crashed: true},
		{name: "with a note, small character cap", output: config.Output{MaxPerFile: 100000, MaxLines: 100000, MaxChars: 600}, files: 1, crashed: true},
		{name: "with a note, lines bind", output: config.Output{MaxPerFile: 100000, MaxLines: 12, MaxChars: 10000}, files: 1, crashed: true},
		{name: "with the client's notes, lines bind", output: config.Output{MaxPerFile: 100000, MaxLines: 12, MaxChars: 10000}, files: 1, skipped: 3},
	}
	big := strings.Repeat("x", wire.MaxFileSize+1)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := fakeEngine(t, "flood", "-flood=2000")
			e.Config.LSP.Timeout, e.Config.LSP.FirstTouchTimeout = 20*time.Second, 20*time.Second // CPU-bound under -race on a loaded machine
			e.Config.Output = tt.output
			if tt.crashed {
				e.Config.LSP.Servers["crashy"] = fakelsptest.Server(t, "crashy", "crash-mid-request")
				e.Manager = lsp.NewManager(e.Config, e.Root, e.Log)
				t.Cleanup(e.Manager.Shutdown)
			}
			lim := diag.Limits{MaxPerFile: tt.output.MaxPerFile, MaxLines: tt.output.MaxLines, MaxChars: tt.output.MaxChars}
			if lim.MaxChars == 0 {
				lim = diag.DefaultLimits
			}
			var changes []wire.Change
			for i := range tt.files {
				name := fmt.Sprintf("file%d.fake", i)
				testdaemon.WriteFile(t, e.Root, name, strings.Repeat("line\n", 100))
				changes = append(changes, wire.Change{Path: name, Mode: wire.ModeWrite})
			}
			for i := range tt.skipped {
				changes = append(changes, wire.Change{Path: fmt.Sprintf("big%d.json", i), Content: &big})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var res, current wire.Result
			c := testdaemon.Dial(ctx, t, serve(t, e))
			if err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: changes, BudgetMS: 30000, ColdBudgetMS: 30000}, &res); err != nil {
				t.Fatal(err)
			}
			// diagnostics (what the servers hold now) keeps the same caps.
			if err := c.Call(ctx, wire.MethodDiagnostics, wire.DiagnosticsParams{}, &current); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(current.Lint, "\n") + 1; len(current.Lint) > lim.MaxChars || n > lim.MaxLines {
				t.Errorf("diagnostics' lint block has %d chars and %d lines; caps %d and %d", len(current.Lint), n, lim.MaxChars, lim.MaxLines)
			}
			total := 0
			for _, f := range res.Files {
				total += len(f.Diagnostics)
			}
			lines := strings.Count(res.Lint, "\n") + 1
			t.Logf("%d diagnostics in Files; lint block: %d lines, %d chars", total, lines, len(res.Lint))
			if total != 2000*tt.files {
				t.Errorf("Files hold %d diagnostics, want all %d", total, 2000*tt.files)
			}
			if len(res.Lint) > lim.MaxChars || lines > lim.MaxLines {
				t.Errorf("lint block has %d chars and %d lines; caps %d and %d:\n%s", len(res.Lint), lines, lim.MaxChars, lim.MaxLines, tailOf(res.Lint, 400))
			}
			if !strings.Contains(res.Lint, "... output truncated (limit reached)") && !strings.Contains(res.Lint, " more") {
				t.Errorf("lint block does not say it was cut:\n%s", tailOf(res.Lint, 400))
			}
			if tt.skipped > 0 && !strings.Contains(res.Lint, "lsp-hook: skipped big0.json: content of 16.0 MiB is larger than 16 MiB") {
				t.Errorf("lint block does not say big0.json was not sent:\n%s", tailOf(res.Lint, 400))
			}
			if tt.crashed && !strings.Contains(res.Lint, "no fresh diagnostics from crashy") {
				t.Errorf("lint block does not say crashy gave no answer:\n%s", tailOf(res.Lint, 400))
			}
		})
	}
}

// tailOf returns the last n bytes of s.
func tailOf(s string, n int) string { return s[max(0, len(s)-n):] }

// TestContentTooLarge: content over MaxFileSize, or content whose JSON
// escaping would take the request over MaxMessageSize, is not sent by the
// client: the Result carries a note naming the file and the sizes, and the
// other changes are checked. A client that sends content over MaxFileSize
// anyway (VSCodeObjectCodec, no guard) gets the daemon's own note; a frame
// over MaxMessageSize is TestOversizedFrameClosesConnection's. The daemon
// serves on.
func TestContentTooLarge(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	socket := startServer(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	big := `"` + strings.Repeat("x", 17<<20) + `"` // 17 MiB of valid JSON
	angles := strings.Repeat("<", 12<<20)          // 12 MiB; 72 MiB escaped
	bad := "[1,,]"
	tests := []struct {
		name      string
		changes   []wire.Change
		raw       bool   // send without the client's guard
		wantNote  string // the note, whole
		wantFiles int    // files with diagnostics
		wantSent  bool   // the daemon was asked
	}{
		{name: "17 MiB", changes: []wire.Change{{Path: "big.json", Content: &big}},
			wantNote: "skipped big.json: content of 17.0 MiB is larger than 16 MiB; not sent to the daemon"},
		{name: "17 MiB beside a small change", changes: []wire.Change{{Path: "big.json", Content: &big}, {Path: "bad.json", Content: &bad}},
			wantNote: "skipped big.json: content of 17.0 MiB is larger than 16 MiB; not sent to the daemon", wantFiles: 1, wantSent: true},
		{name: "escaping over the message limit", changes: []wire.Change{{Path: "angles.json", Content: &angles}},
			wantNote: "skipped angles.json: its content takes 72.0 MiB as JSON, which would take the request over the daemon's 64 MiB message limit; not sent"},
		{name: "17 MiB without the guard", raw: true, changes: []wire.Change{{Path: "big.json", Content: &big}},
			wantNote: "skipped big.json: 17.0 MiB is larger than 16 MiB", wantSent: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := notifyCount(ctx, t, c)
			var res wire.Result
			var err error
			if tt.raw {
				err = rawCall(ctx, t, socket, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: tt.changes}, &res)
			} else {
				err = c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: tt.changes}, &res)
			}
			if err != nil {
				t.Fatalf("notify_change: %v", err)
			}
			if len(res.Notes) != 1 || res.Notes[0] != tt.wantNote {
				t.Errorf("notes = %q, want [%q]", res.Notes, tt.wantNote)
			}
			// The model must not take the unchecked file's silence for clean.
			name := tt.changes[0].Path
			if !strings.Contains(res.Lint, "lsp-hook: skipped "+name) && !strings.Contains(res.Lint, "lsp-hook: "+name+" not checked") {
				t.Errorf("lint block does not say %s was not checked:\n%s", name, res.Lint)
			}
			if len(res.Files) != tt.wantFiles {
				t.Errorf("files = %+v, want %d", res.Files, tt.wantFiles)
			}
			if sent := notifyCount(ctx, t, c) > before; sent != tt.wantSent {
				t.Errorf("the daemon was asked: %v, want %v", sent, tt.wantSent)
			}
		})
	}
}

// notifyCount returns the daemon's notify_change counter.
func notifyCount(ctx context.Context, t *testing.T, c *wire.Client) int64 {
	t.Helper()
	var st StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
		t.Fatalf("status: %v", err)
	}
	return st.Counters[wire.MethodNotifyChange]
}

// rawCall calls the daemon over a connection of its own, with jsonrpc2's
// plain codec and none of Client's checks.
func rawCall(ctx context.Context, t *testing.T, socket, method string, params, result any) error {
	t.Helper()
	nc, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(nc, jsonrpc2.VSCodeObjectCodec{}), refuseRequests)
	defer conn.Close()
	return conn.Call(ctx, method, params, result)
}

// TestCheckDepth: the depth counter on its own.
func TestCheckDepth(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		fail bool
	}{
		{`1`, 0, false},
		{`[]`, 1, false},
		{`[[]]`, 1, true},
		{`{"a":[{"b":1}]}`, 3, false},
		{`{"a":[{"b":[]}]}`, 3, true},
		{`["[[[[", "]]]]"]`, 1, false},
		{`["\"[[[["]`, 1, false},
		{`["\\", [[]]]`, 2, true},
		{`[[],[],[]]`, 2, false},
	}
	for _, tt := range tests {
		if err := checkDepth([]byte(tt.in), tt.max); (err != nil) != tt.fail {
			t.Errorf("checkDepth(%s, %d) = %v, want failure %v", tt.in, tt.max, err, tt.fail)
		}
	}
}

// TestHugeFileSkipped: a 200 MiB JSON file (sparse: made in no time) is
// skipped with a note naming its size and the limit, and checking it
// allocates nothing near its size (runtime TotalAlloc: every byte
// allocated, freed or not) nor grows the process's peak RSS by it.
func TestHugeFileSkipped(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	huge := filepath.Join(root, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("[\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	socket := startServer(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)

	var res wire.Result
	var callErr error
	resetPeakRSS(t)
	rssBefore := procStatusKiB(t, "VmRSS")
	alloc := allocated(func() {
		callErr = c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: "huge.json"}}}, &res)
	})
	peak := procStatusKiB(t, "VmHWM")
	t.Logf("200 MiB file: allocated %d KiB; RSS %d MiB before, peak %d MiB during", alloc>>10, rssBefore>>10, peak>>10)
	if callErr != nil {
		t.Fatal(callErr)
	}
	if want := "skipped huge.json: 200.0 MiB is larger than 16 MiB"; len(res.Notes) != 1 || res.Notes[0] != want {
		t.Errorf("notes = %q, want [%q]", res.Notes, want)
	}
	if want := "lsp-hook: huge.json not checked: 200.0 MiB is larger than 16 MiB"; res.Lint != want {
		t.Errorf("lint = %q, want %q", res.Lint, want)
	}
	if alloc > 4<<20 {
		t.Errorf("checking it allocated %d MiB", alloc>>20)
	}
	if peak-rssBefore > 32<<10 {
		t.Errorf("peak RSS grew by %d MiB", (peak-rssBefore)>>10)
	}
}

// TestLargeFileBoundedMemory: a large file under MaxFileSize (15 MiB) is
// validated through the daemon in memory bounded by a small multiple of
// its size: JSON and JSONC whole, YAML and TOML, over their parse limits
// (validators.MaxYAMLParse, MaxTOMLParse), only by the checks that stream,
// and the answer's notes and lint block say what was not checked. The bound
// is on TotalAlloc (every byte allocated during the check, freed or not,
// client included), which bounds the heap's growth.
func TestLargeFileBoundedMemory(t *testing.T) {
	const size = 15 << 20
	tests := []struct {
		name, file  string
		open, close string
		gen         func(i int) string // the i-th line
		validator   string
		note        string // the note saying what was not checked; "" for none
	}{
		{name: "json", file: "large.json", open: "[\n", close: "{}]\n", validator: "json", gen: func(i int) string {
			return fmt.Sprintf(`{"id": %d, "name": "item %d", "tags": ["a", "b"]},`, i, i)
		}},
		{name: "jsonc", file: "large.jsonc", open: "[\n", close: "{}]\n", validator: "jsonc", gen: func(i int) string {
			return fmt.Sprintf(`{"id": %d, "name": "item %d", "tags": ["a", "b"]}, // item %d`, i, i, i)
		}},
		{name: "yaml", file: "large.yaml", validator: "yaml",
			gen:  func(i int) string { return fmt.Sprintf("- id: %d\n  name: item %d\n  tags: [a, b]", i, i) },
			note: "large.yaml: 15.0 MiB of YAML not checked: larger than the 1 MiB YAML limit (only its encoding and indentation tabs were)"},
		{name: "toml", file: "large.toml", validator: "toml",
			gen: func(i int) string {
				return fmt.Sprintf("[[item]]\nid = %d\nname = \"item %d\"\ntags = [\"a\", \"b\"]", i, i)
			},
			note: "large.toml: 15.0 MiB of TOML not checked: larger than the 2 MiB TOML limit (only its encoding and control characters were)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
			var b strings.Builder
			b.WriteString(tt.open)
			for i := 0; b.Len() < size-100; i++ {
				b.WriteString(tt.gen(i) + "\n")
			}
			b.WriteString(tt.close)
			text := b.String()
			testdaemon.WriteFile(t, root, tt.file, text)
			b.Reset()
			socket := startServer(t, root)
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			c := testdaemon.Dial(ctx, t, socket)
			var res wire.Result
			var callErr error
			begin := time.Now()
			alloc := allocated(func() {
				callErr = c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: tt.file}}}, &res)
			})
			t.Logf("%s of %.1f MiB: allocated %.1f MiB (%.1f× the file) in %v; servers %+v, notes %q, lint %q",
				tt.name, float64(len(text))/(1<<20), float64(alloc)/(1<<20), float64(alloc)/float64(len(text)),
				time.Since(begin).Round(time.Millisecond), res.Servers, res.Notes, res.Lint)
			if callErr != nil {
				t.Fatal(callErr)
			}
			if len(res.Servers) != 1 || res.Servers[0].Name != tt.validator {
				t.Fatalf("servers = %+v, want the %s validator", res.Servers, tt.validator)
			}
			if bound := uint64(3*len(text) + 8<<20); alloc > bound {
				t.Errorf("allocated %d MiB, over %d MiB", alloc>>20, bound>>20)
			}
			var wantNotes []string
			wantLint := ""
			if tt.note != "" {
				wantNotes, wantLint = []string{tt.note}, "lsp-hook: "+tt.note
			}
			if !slices.Equal(res.Notes, wantNotes) || res.Lint != wantLint {
				t.Errorf("notes %q, lint %q; want %q, %q", res.Notes, res.Lint, wantNotes, wantLint)
			}
		})
	}
}

// allocated runs f and returns the bytes the process allocated meanwhile
// (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// resetPeakRSS resets the process's peak RSS (VmHWM) to its current RSS
// (proc(5), /proc/PID/clear_refs, value 5).
func resetPeakRSS(t *testing.T) {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak RSS: %v", err)
	}
}

// procStatusKiB returns a kB field of /proc/self/status (VmRSS, VmHWM).
func procStatusKiB(t *testing.T, field string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}
