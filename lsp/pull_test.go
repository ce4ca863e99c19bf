package lsp

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// fakeServerConfig is the config of the in-process peer: no command, one
// extension.
func fakeServerConfig() config.Server {
	return config.Server{Name: "peer", Extensions: []string{".x"}, LanguageIDs: map[string]string{".x": "x"}, Enabled: true}
}

// peer is an in-process language server at the far end of a net.Pipe: the
// test scripts its answers to textDocument/diagnostic and reads what the
// client sent.
type peer struct {
	conn *jsonrpc2.Conn
	caps map[string]any

	// pull answers one textDocument/diagnostic; n counts pulls of that
	// (uri, identifier) from 1. It runs on its own goroutine.
	pull func(p documentDiagnosticParams, n int) (any, error)
	// exec, when set before the first change, answers
	// workspace/executeCommand; else it is answered null.
	exec func(command string, args []json.RawMessage) (any, error)

	mu    sync.Mutex // guards below
	pulls []documentDiagnosticParams
	count map[pullKey]int
	notes []note
	recv  chan struct{} // closed and replaced on every message received
}

type note struct {
	method string
	params json.RawMessage
}

// newPeer connects a client to a peer announcing caps as its server
// capabilities and runs initialize.
func newPeer(t *testing.T, caps map[string]any, pull func(documentDiagnosticParams, int) (any, error)) (*peer, *Client) {
	t.Helper()
	p := &peer{caps: caps, pull: pull, count: make(map[pullKey]int), recv: make(chan struct{})}
	cs, ss := net.Pipe()
	p.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(ss, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(p.handle)))
	c := newClient(fakeServerConfig(), t.TempDir(), testLogger(t))
	c.connect(cs)
	go func() {
		<-c.conn.DisconnectNotify()
		c.fail(errShutDown)
		close(c.exited)
	}()
	t.Cleanup(func() {
		c.conn.Close()
		p.conn.Close()
		<-c.exited
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.initialize(ctx); err != nil {
		t.Fatal(err)
	}
	return p, c
}

func (p *peer) handle(ctx context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	params := rawParams(req)
	defer func() {
		p.mu.Lock()
		p.notes = append(p.notes, note{req.Method, params})
		close(p.recv)
		p.recv = make(chan struct{})
		p.mu.Unlock()
	}()
	switch req.Method {
	case "initialize":
		return map[string]any{"capabilities": p.caps}, nil
	case "textDocument/diagnostic":
		var dp documentDiagnosticParams
		if err := json.Unmarshal(params, &dp); err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.pulls = append(p.pulls, dp)
		k := pullKey{dp.TextDocument.URI, dp.Identifier}
		p.count[k]++
		n := p.count[k]
		p.mu.Unlock()
		return p.pull(dp, n)
	case "workspace/executeCommand":
		var ep struct {
			Command   string            `json:"command"`
			Arguments []json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(params, &ep); err != nil || p.exec == nil {
			return nil, err
		}
		return p.exec(ep.Command, ep.Arguments)
	}
	return nil, nil
}

// waitNote waits until the peer has received a message for which ok holds.
func (p *peer) waitNote(t *testing.T, ok func(note) bool) note {
	t.Helper()
	n, found := p.awaitNote(ok, 5*time.Second)
	if !found {
		t.Fatal("peer never received the expected message")
	}
	return n
}

// awaitNote waits up to d for a message for which ok holds; it may run on
// any goroutine.
func (p *peer) awaitNote(ok func(note) bool, d time.Duration) (note, bool) {
	deadline := time.After(d)
	for seen := 0; ; {
		p.mu.Lock()
		notes, recv := p.notes, p.recv
		p.mu.Unlock()
		for ; seen < len(notes); seen++ {
			if ok(notes[seen]) {
				return notes[seen], true
			}
		}
		select {
		case <-recv:
		case <-deadline:
			return note{}, false
		}
	}
}

func (p *peer) pullsSent() []documentDiagnosticParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]documentDiagnosticParams(nil), p.pulls...)
}

// wireDiag is a wire diagnostic at 0-based line:char with message msg.
func wireDiag(line, char int, msg string) map[string]any {
	pos := map[string]any{"line": line, "character": char}
	return map[string]any{"range": map[string]any{"start": pos, "end": pos}, "severity": 1, "message": msg}
}

func full(resultID string, items ...map[string]any) map[string]any {
	if items == nil {
		items = []map[string]any{}
	}
	return map[string]any{"kind": "full", "resultId": resultID, "items": items}
}

func messages(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return out
}

// writeDoc writes a file of c's workspace and returns its path.
func writeDoc(t *testing.T, c *Client, name, text string) string {
	t.Helper()
	return writeFile(t, c.root, name, text)
}

func update(t *testing.T, c *Client, docs ...Doc) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return c.Update(ctx, docs, 20*time.Millisecond)
}

// TestPullStaticUnchanged: a static diagnosticProvider is pulled after every
// change with its identifier and the previous resultId; an "unchanged"
// answer reuses the items of the answer it refers to, and is fresh.
func TestPullStaticUnchanged(t *testing.T) {
	p, c := newPeer(t, map[string]any{
		"textDocumentSync":   1,
		"diagnosticProvider": map[string]any{"identifier": "lint", "interFileDependencies": false, "workspaceDiagnostics": false},
	}, func(dp documentDiagnosticParams, n int) (any, error) {
		if n == 1 {
			return full("r1", wireDiag(0, 2, "first")), nil
		}
		return map[string]any{"kind": "unchanged", "resultId": "r2"}, nil
	})
	path := writeDoc(t, c, "a.x", "abcdef\n")
	o := update(t, c, Doc{Path: path})
	if o.Freshness != Fresh || strings.Join(messages(o.Files[path]), "|") != "first" || o.Files[path][0].Column != 3 {
		t.Fatalf("first update: %+v", o)
	}
	o = update(t, c, Doc{Path: path, Text: []byte("abcdefg\n")})
	if o.Freshness != Fresh || strings.Join(messages(o.Files[path]), "|") != "first" {
		t.Fatalf("unchanged update: %+v", o)
	}
	pulls := p.pullsSent()
	if len(pulls) != 2 || pulls[0].Identifier != "lint" || pulls[0].PreviousResultID != "" || pulls[1].PreviousResultID != "r1" {
		t.Fatalf("pulls sent = %+v", pulls)
	}
	if r, _ := c.store.lastPull(pathToURI(path), "lint"); r.resultID != "r2" || r.version != 2 {
		t.Fatalf("stored report = %+v, want resultId r2 at version 2", r)
	}
}

// TestPullMergesWithPush: a server that pushes and pulls the same problem
// shows it once, next to what only one of them reported.
func TestPullMergesWithPush(t *testing.T) {
	var p *peer
	p, c := newPeer(t, map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{}},
		func(dp documentDiagnosticParams, n int) (any, error) {
			v := 1
			p.conn.Notify(context.Background(), "textDocument/publishDiagnostics", map[string]any{
				"uri": dp.TextDocument.URI, "version": v, "diagnostics": []any{wireDiag(0, 0, "both"), wireDiag(0, 1, "push only")}})
			return full("", wireDiag(0, 0, "both"), wireDiag(0, 3, "pull only")), nil
		})
	path := writeDoc(t, c, "a.x", "abcdef\n")
	o := update(t, c, Doc{Path: path})
	if got := strings.Join(messages(o.Files[path]), "|"); o.Freshness != Fresh || got != "both|push only|pull only" {
		t.Fatalf("outcome %+v, messages %q", o, got)
	}
	if got := strings.Join(messages(c.Current()[path]), "|"); got != "both|push only|pull only" {
		t.Fatalf("Current = %q", got)
	}
}

// TestPullIdentifiersInParallel: two dynamic registrations are both pulled,
// and the document is fresh only when the slower one has answered too.
func TestPullIdentifiersInParallel(t *testing.T) {
	p, c := newPeer(t, map[string]any{"textDocumentSync": 1}, func(dp documentDiagnosticParams, n int) (any, error) {
		if dp.Identifier == "slow" {
			time.Sleep(300 * time.Millisecond)
		}
		return full("", wireDiag(0, 0, "from "+dp.Identifier)), nil
	})
	ctx := context.Background()
	if err := p.conn.Call(ctx, "client/registerCapability", map[string]any{"registrations": []any{
		map[string]any{"id": "1", "method": "textDocument/diagnostic", "registerOptions": map[string]any{"identifier": "fast", "documentSelector": nil}},
		map[string]any{"id": "2", "method": "textDocument/diagnostic", "registerOptions": map[string]any{"identifier": "slow", "documentSelector": []any{map[string]any{"language": "x"}}}},
		map[string]any{"id": "3", "method": "textDocument/diagnostic", "registerOptions": map[string]any{"identifier": "never", "documentSelector": []any{map[string]any{"language": "y"}}}},
	}}, nil); err != nil {
		t.Fatal(err)
	}
	path := writeDoc(t, c, "a.x", "abc\n")
	begin := time.Now()
	o := update(t, c, Doc{Path: path})
	if got := strings.Join(messages(o.Files[path]), "|"); o.Freshness != Fresh || got != "from fast|from slow" {
		t.Fatalf("outcome %+v, messages %q", o, got)
	}
	if d := time.Since(begin); d < 300*time.Millisecond {
		t.Errorf("fresh after %v, before the slow identifier answered", d)
	}
	for _, pl := range p.pullsSent() {
		if pl.Identifier == "never" {
			t.Errorf("pulled under a registration whose selector does not match: %+v", pl)
		}
	}
	// Unregistering one source stops its pulls.
	if err := p.conn.Call(ctx, "client/unregisterCapability", map[string]any{"unregisterations": []any{
		map[string]any{"id": "2", "method": "textDocument/diagnostic"}}}, nil); err != nil {
		t.Fatal(err)
	}
	n := len(p.pullsSent())
	o = update(t, c, Doc{Path: path, Text: []byte("abcd\n")})
	if got := strings.Join(messages(o.Files[path]), "|"); o.Freshness != Fresh || got != "from fast" {
		t.Fatalf("after unregister: %+v, messages %q", o, got)
	}
	if pulls := p.pullsSent()[n:]; len(pulls) != 1 || pulls[0].Identifier != "fast" {
		t.Fatalf("pulls after unregister = %+v", pulls)
	}
}

// TestPullRetriesAndErrors: ServerCancelled with retriggerRequest is retried
// once; a pull that keeps failing is ignored (the change times out without
// an error in the outcome, and a push still counts).
func TestPullRetriesAndErrors(t *testing.T) {
	cancelled := func(retrigger bool) error {
		e := &jsonrpc2.Error{Code: codeServerCancelled, Message: "busy"}
		e.SetError(map[string]any{"retriggerRequest": retrigger})
		return e
	}
	t.Run("retried once", func(t *testing.T) {
		p, c := newPeer(t, map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{}},
			func(dp documentDiagnosticParams, n int) (any, error) {
				if n == 1 {
					return nil, cancelled(true)
				}
				return full("", wireDiag(0, 0, "second try")), nil
			})
		path := writeDoc(t, c, "a.x", "abc\n")
		o := update(t, c, Doc{Path: path})
		if o.Freshness != Fresh || len(o.Files[path]) != 1 || len(p.pullsSent()) != 2 {
			t.Fatalf("outcome %+v after %d pulls", o, len(p.pullsSent()))
		}
	})
	t.Run("not retriggered", func(t *testing.T) {
		p, c := newPeer(t, map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{}},
			func(dp documentDiagnosticParams, n int) (any, error) { return nil, cancelled(false) })
		path := writeDoc(t, c, "a.x", "abc\n")
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		o := c.Update(ctx, []Doc{{Path: path}}, 20*time.Millisecond)
		if o.Freshness != Timeout || o.Err != nil || len(p.pullsSent()) != 1 {
			t.Fatalf("outcome %+v after %d pulls", o, len(p.pullsSent()))
		}
	})
	t.Run("failing pull, push still fresh", func(t *testing.T) {
		var p *peer
		p, c := newPeer(t, map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{}},
			func(dp documentDiagnosticParams, n int) (any, error) {
				p.conn.Notify(context.Background(), "textDocument/publishDiagnostics", map[string]any{
					"uri": dp.TextDocument.URI, "version": 1, "diagnostics": []any{wireDiag(0, 0, "pushed")}})
				return map[string]any{"kind": "bogus"}, nil
			})
		path := writeDoc(t, c, "a.x", "abc\n")
		o := update(t, c, Doc{Path: path})
		if o.Freshness != Fresh || strings.Join(messages(o.Files[path]), "|") != "pushed" {
			t.Fatalf("outcome %+v", o)
		}
	})
}

// TestPullInterFileAndRefresh: with interFileDependencies, a change re-pulls
// the other open documents (their answers are Others); a
// workspace/diagnostic/refresh request is answered null and re-pulls every
// open document.
func TestPullInterFileAndRefresh(t *testing.T) {
	var mu sync.Mutex
	broken := false
	p, c := newPeer(t, map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{"interFileDependencies": true}},
		func(dp documentDiagnosticParams, n int) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			if strings.HasSuffix(dp.TextDocument.URI, "/main.x") && broken {
				return full("", wireDiag(1, 0, "caller broken")), nil
			}
			return full(""), nil
		})
	mainPath := writeDoc(t, c, "main.x", "call\ncall\n")
	libPath := writeDoc(t, c, "lib.x", "def\n")
	if o := update(t, c, Doc{Path: mainPath}, Doc{Path: libPath}); o.Freshness != Fresh {
		t.Fatalf("open: %+v", o)
	}
	mu.Lock()
	broken = true
	mu.Unlock()
	o := update(t, c, Doc{Path: libPath, Text: []byte("def changed\n")})
	if o.Freshness != Fresh || len(o.Files[libPath]) != 0 || strings.Join(messages(o.Others[mainPath]), "|") != "caller broken" {
		t.Fatalf("inter-file: %+v", o)
	}

	n := len(p.pullsSent())
	var res json.RawMessage
	if err := p.conn.Call(context.Background(), "workspace/diagnostic/refresh", nil, &res); err != nil || string(res) != "null" {
		t.Fatalf("refresh answered %s, %v", res, err)
	}
	eventually(3*time.Second, func() bool { return len(p.pullsSent()) >= n+2 })
	if got := p.pullsSent()[n:]; len(got) != 2 {
		t.Fatalf("refresh re-pulled %d documents, want 2: %+v", len(got), got)
	}
}

// TestPullStaleVersionNotFresh: a pull answered for an older version (sent
// before the change and slow) never makes the new version fresh, and its
// items are not shown.
func TestPullStaleVersionNotFresh(t *testing.T) {
	release := make(chan struct{})
	_, c := newPeer(t, map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{}},
		func(dp documentDiagnosticParams, n int) (any, error) {
			if n == 1 {
				<-release
				return full("", wireDiag(0, 0, "old")), nil
			}
			return full("", wireDiag(0, 0, "new")), nil
		})
	path := writeDoc(t, c, "a.x", "abc\n")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	o := c.Update(ctx, []Doc{{Path: path}}, 10*time.Millisecond)
	cancel()
	if o.Freshness != Timeout {
		t.Fatalf("first: %+v", o)
	}
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	o = update(t, c, Doc{Path: path, Text: []byte("abcd\n")})
	if o.Freshness != Fresh || strings.Join(messages(o.Files[path]), "|") != "new" {
		t.Fatalf("second: %+v", o)
	}
}

// TestFilesChanged: only changes matching the server's watchers (glob and
// kind) are sent, in one didChangeWatchedFiles, and none for open
// documents: an open document changed on disk is re-synced with didChange
// instead, one whose disk content is what was sent is not, and one that an
// Update is about to sync is left to it.
func TestFilesChanged(t *testing.T) {
	p, c := newPeer(t, map[string]any{"textDocumentSync": 1}, nil)
	root := c.root
	if err := p.conn.Call(context.Background(), "client/registerCapability", map[string]any{"registrations": []any{
		map[string]any{"id": "w", "method": "workspace/didChangeWatchedFiles", "registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": map[string]any{"baseUri": pathToURI(root), "pattern": "**/*.x"}},
			map[string]any{"globPattern": "**/*.cfg", "kind": WatchDelete},
		}}},
	}}, nil); err != nil {
		t.Fatal(err)
	}
	open := writeDoc(t, c, "open.x", "v1\n")
	same := writeDoc(t, c, "same.x", "same\n")
	busy := writeDoc(t, c, "busy.x", "b1\n")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	c.Update(ctx, []Doc{{Path: open}, {Path: same}, {Path: busy}}, 0) // the peer never publishes: times out
	cancel()
	writeDoc(t, c, "open.x", "v2 from disk\n")
	writeDoc(t, c, "busy.x", "b2 from disk\n")
	c.markUpdating([]Doc{{Path: busy}}, +1)

	c.FilesChanged([]FileEvent{
		{Path: filepath.Join(root, "sub", "new.x"), Type: FileCreated},
		{Path: filepath.Join(root, "a.cfg"), Type: FileChanged}, // kind is delete only
		{Path: filepath.Join(root, "b.cfg"), Type: FileDeleted},
		{Path: filepath.Join(root, "c.txt"), Type: FileChanged},
		{Path: open, Type: FileChanged},
		{Path: same, Type: FileChanged},
		{Path: busy, Type: FileChanged},
	})
	n := p.waitNote(t, func(n note) bool { return n.method == "workspace/didChangeWatchedFiles" })
	var got didChangeWatchedFilesParams
	json.Unmarshal(n.params, &got)
	want := []fileEventWire{
		{URI: pathToURI(filepath.Join(root, "sub", "new.x")), Type: FileCreated},
		{URI: pathToURI(filepath.Join(root, "b.cfg")), Type: FileDeleted},
	}
	if len(got.Changes) != len(want) {
		t.Fatalf("changes = %+v, want %+v", got.Changes, want)
	}
	for i := range want {
		if got.Changes[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, got.Changes[i], want[i])
		}
	}
	ch := p.waitNote(t, func(n note) bool {
		return n.method == "textDocument/didChange" && strings.Contains(string(n.params), "v2 from disk")
	})
	if !strings.Contains(string(ch.params), `"version":2`) {
		t.Errorf("re-sync didChange = %s", ch.params)
	}
	c.mu.Lock()
	vSame, vBusy := c.docs[pathToURI(same)].version, c.docs[pathToURI(busy)].version
	c.mu.Unlock()
	if vSame != 1 || vBusy != 1 {
		t.Errorf("re-synced an unchanged document (version %d) or one an Update is syncing (version %d)", vSame, vBusy)
	}
}

// TestStorePullFreshness: a pull report counts for the version it was sent
// for, only after the mark, only once no pull for the document is in
// flight; a late answer for an older version never replaces a newer one.
func TestStorePullFreshness(t *testing.T) {
	s := newStore()
	const uri = "file:///a.x"
	mark, _ := s.mark()
	s.pullBegin(uri)
	s.pullBegin(uri)
	s.recordPull(uri, "a", pullReport{version: 2, resultID: "r2"})
	s.pullEnd(uri)
	if storeFresh(s, uri, mark, 2) {
		t.Fatal("fresh while a pull is still in flight")
	}
	s.pullEnd(uri)
	if !storeFresh(s, uri, mark, 2) {
		t.Fatal("not fresh once every pull answered")
	}
	if storeFresh(s, uri, mark, 3) {
		t.Fatal("a report for version 2 made version 3 fresh")
	}
	if later, _ := s.mark(); storeFresh(s, uri, later, 2) {
		t.Fatal("a report from before the mark counted")
	}
	if s.recordPull(uri, "a", pullReport{version: 1, resultID: "r1"}) {
		t.Fatal("an older version replaced a newer report")
	}
	if r, _ := s.lastPull(uri, "a"); r.resultID != "r2" {
		t.Fatalf("lastPull = %+v", r)
	}
}

// pyrightFiles is a Python project whose main.py calls greet.py's greet
// (one parameter); pyrightTwoArgs is greet.py with a second parameter.
var pyrightFiles = map[string]string{
	"pyproject.toml": "",
	"greet.py":       "def greet(name: str) -> str:\n    return \"hi \" + name\n",
	"main.py":        "from greet import greet\n\nprint(greet(\"x\"))\n",
}

const pyrightTwoArgs = "def greet(name: str, suffix: str) -> str:\n    return \"hi \" + name + suffix\n"

// TestPyrightPull: pyright (which switches to pull diagnostics when the
// client declares textDocument.diagnostic.dynamicRegistration, and then
// publishes nothing) answers every change through pulls: the error, then
// clean, then a caller in another open file broken by a signature change,
// reported under Others by the inter-file re-pull.
func TestPyrightPull(t *testing.T) {
	requireServer(t, "pyright-langserver")
	dir := workspace(t, pyrightFiles)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := startClient(ctx, t, config.Default().LSP.Servers["pyright"], dir)
	mainPath, greetPath := filepath.Join(dir, "main.py"), filepath.Join(dir, "greet.py")

	o := c.Update(ctx, []Doc{{Path: mainPath}, {Path: greetPath}}, DefaultSettle)
	if o.Freshness != Fresh || len(o.Files[mainPath]) != 0 || len(o.Files[greetPath]) != 0 {
		t.Fatalf("open: %+v", o)
	}
	if len(c.regs.pulls()) == 0 {
		t.Fatal("pyright registered no pull source")
	}
	broken := "from greet import greet\n\nn: int = greet(\"x\")\n"
	for i := range 3 {
		o = c.Update(ctx, []Doc{{Path: mainPath, Text: []byte(broken)}}, DefaultSettle)
		if ds := o.Files[mainPath]; o.Freshness != Fresh || len(ds) != 1 || ds[0].Line != 3 || ds[0].Column != 10 {
			t.Fatalf("round %d broken: %+v", i, o)
		}
		o = c.Update(ctx, []Doc{{Path: mainPath}}, DefaultSettle)
		if o.Freshness != Fresh || len(o.Files[mainPath]) != 0 {
			t.Fatalf("round %d fixed: %+v", i, o)
		}
	}
	o = c.Update(ctx, []Doc{{Path: greetPath, Text: []byte(pyrightTwoArgs)}}, DefaultSettle)
	if ds := o.Others[mainPath]; o.Freshness != Fresh || len(ds) != 1 || !strings.Contains(ds[0].Message, "suffix") {
		t.Fatalf("signature change: %+v", o)
	}
}

// TestPyrightWriteBeforeFirstOpen: pyright re-checks the importers of a
// file on didChange or didChangeWatchedFiles, not when the file is first
// opened with text other than what it read from disk. With the Watcher,
// the write reaches pyright as a watched-file change before the didOpen,
// so the caller's break shows under Others.
func TestPyrightWriteBeforeFirstOpen(t *testing.T) {
	requireServer(t, "pyright-langserver")
	dir := workspace(t, pyrightFiles)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := startClient(ctx, t, config.Default().LSP.Servers["pyright"], dir)
	watchDir(t, c, dir)
	mainPath, greetPath := filepath.Join(dir, "main.py"), filepath.Join(dir, "greet.py")
	if o := c.Update(ctx, []Doc{{Path: mainPath}}, DefaultSettle); o.Freshness != Fresh || len(o.Files[mainPath]) != 0 {
		t.Fatalf("open main.py: %+v", o)
	}
	writeFiles(t, dir, map[string]string{"greet.py": pyrightTwoArgs})
	o := c.Update(ctx, []Doc{{Path: greetPath}}, DefaultSettle)
	if ds := o.Others[mainPath]; o.Freshness != Fresh || len(ds) != 1 || !strings.Contains(ds[0].Message, "suffix") {
		t.Fatalf("write of greet.py: %+v", o)
	}
}

// TestUnversionedPushNotFresh: once a server has tied a push to a version,
// an unversioned push for an open document (left over from before it was
// opened, as gopls sends for closed files) is not taken as its fresh
// answer; the versioned one is.
func TestUnversionedPushNotFresh(t *testing.T) {
	p, c := newPeer(t, map[string]any{"textDocumentSync": 1}, nil)
	go func() {
		n, ok := p.awaitNote(func(n note) bool { return n.method == "textDocument/didOpen" }, 5*time.Second)
		if !ok {
			return
		}
		var op didOpenParams
		json.Unmarshal(n.params, &op)
		pub := func(version any, msg string) {
			p.conn.Notify(context.Background(), "textDocument/publishDiagnostics", map[string]any{
				"uri": op.TextDocument.URI, "version": version, "diagnostics": []any{wireDiag(0, 0, msg)}})
		}
		pub(nil, "from disk, before the open")
		time.Sleep(50 * time.Millisecond)
		pub(1, "version 1")
	}()
	// The server has versioned a push before (another file).
	if err := p.conn.Notify(context.Background(), "textDocument/publishDiagnostics", map[string]any{
		"uri": pathToURI(filepath.Join(c.root, "other.x")), "version": 3, "diagnostics": []any{}}); err != nil {
		t.Fatal(err)
	}
	if !eventually(3*time.Second, func() bool { _, _, _, versioned := c.store.answers(""); return versioned }) {
		t.Fatal("the versioned push for other.x was never recorded")
	}
	path := writeDoc(t, c, "a.x", "abc\n")
	o := update(t, c, Doc{Path: path})
	if o.Freshness != Fresh || strings.Join(messages(o.Files[path]), "|") != "version 1" {
		t.Fatalf("outcome %+v", o)
	}
}

// TestPullOthersWaitedFor: a change — a write or an edit (whose lint block
// lists the errors it introduced in other files) — waits for the pulls of
// the other open documents that a change to an inter-file source starts,
// however long past the settle window they take (pyright under load), so
// the caller the change broke is in Others.
func TestPullOthersWaitedFor(t *testing.T) {
	const gap = 600 * time.Millisecond // the other document's pull: four settle windows
	dir := workspace(t, map[string]string{"lib.fake": "PROVIDES(greet)\n", "main.fake": "NEEDS(greet)\n"})
	tests := []struct {
		name       string
		settle     time.Duration
		wantOthers bool
	}{
		{"write waits", DefaultSettle, true},
		{"edit waits", EditSettle, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c := startClient(ctx, t, fakelsptest.Server(t, "fake", "pull-interfile", "-gap="+gap.String()), dir)
			libPath, mainPath := filepath.Join(dir, "lib.fake"), filepath.Join(dir, "main.fake")
			if o := c.Update(ctx, []Doc{{Path: libPath}, {Path: mainPath}}, DefaultSettle); o.Freshness != Fresh || len(o.Files[mainPath]) != 0 {
				t.Fatalf("open: %+v", o)
			}
			o := c.Update(ctx, []Doc{{Path: libPath, Text: []byte("nothing here\n")}}, tt.settle)
			if o.Freshness != Fresh {
				t.Fatalf("change: %+v", o)
			}
			ds, found := o.Others[mainPath]
			if got := found && len(ds) == 1 && strings.Contains(ds[0].Message, "greet is provided by no other"); got != tt.wantOthers {
				t.Errorf("main.fake in Others: %v (%+v), want %v", got, o.Others, tt.wantOthers)
			}
		})
	}
}

// TestResolveKeepsSince: an "unchanged" report carries the items and the
// since of the report it refers to (before.go saidAfter: it is as old as
// that answer); a full one starts afresh.
func TestResolveKeepsSince(t *testing.T) {
	prev := pullReport{resultID: "1", items: []Diagnostic{{Message: json.RawMessage(`"old"`)}}, asked: 3, since: 3}
	items := []Diagnostic{}
	for _, tc := range []struct {
		name      string
		rep       singleReport
		wantSince uint64
		wantItems int
	}{
		{"unchanged", singleReport{Kind: "unchanged", ResultID: "1"}, 3, 1},
		{"full", singleReport{Kind: "full", ResultID: "2", Items: &items}, 0, 0},
	} {
		r, err := tc.rep.resolve(prev)
		if err != nil || r.since != tc.wantSince || len(r.items) != tc.wantItems {
			t.Errorf("%s: resolve = %+v, %v; want since %d, %d items", tc.name, r, err, tc.wantSince, tc.wantItems)
		}
	}
}
