// Command fakelsp is a scripted language server for lsp-hook's fault tests:
// it produces, on demand, the failures real servers produce only by accident.
// Tests build it with `go build ./testdata/fakelsp` and run it as a
// configured server. It speaks LSP 3.17 over stdio (Content-Length framing),
// full text sync, UTF-16 positions.
//
// Diagnostics are computed from the document text: every line holding
// "ERROR: message" or "ERROR(code): message" yields an error at the column
// where ERROR starts, with that message and code ("WARN" gives a warning).
//
// The mode (-mode, else $FAKELSP_MODE; default "normal") picks the fault:
//
//	normal             push diagnostics for every didOpen/didChange, tied to its version
//	crash-mid-request  exit 3, after a few stderr lines, on any request other than
//	                   initialize/shutdown (while it is pending), or 100 ms after a
//	                   didOpen/didChange
//	never-answers      never answer initialize (nor anything else)
//	never-publishes    answer initialize and shutdown; never publish, never answer
//	                   any other request
//	hang-after-first   normal for the first didOpen/didChange; after it, send nothing
//	                   at all, not even the answer to shutdown (what clangd 14 does
//	                   once a document it builds is closed and opened again)
//	pull-only          declare diagnosticProvider and answer textDocument/diagnostic;
//	                   never push
//	pull-interfile     pull-only with interFileDependencies, as pyright declares it: a
//	                   line "NEEDS(name)" is an error unless another open document has
//	                   a line "PROVIDES(name)"; a pull for a document other than the
//	                   last one changed is answered -gap later (what a loaded pyright
//	                   does while it re-checks the importers of a changed file)
//	stale-version      for every change, push diagnostics tied to the previous
//	                   version first, then 300 ms later the right ones
//	slow-initialize    answer initialize after -init-delay (default 30s), then normal
//	flood              push -flood (default 10,000) diagnostics for a changed file
//	stderr-flood       normal, while writing -stderr-mib MiB to stderr (some before
//	                   every push, so an undrained stderr pipe would stall it)
//	garbage-stdout     on the first didOpen/didChange, write bytes that are not a
//	                   framed message to stdout, then keep running
//	no-read            answer initialize, then never read stdin again
//	close-stdin        close stdin, answer initialize, and exit 4 50 ms later: a server
//	                   dying while the client writes to it (its writes fail, EPIPE,
//	                   before the exit status is known)
//	server-requests    on the first didOpen, send the client workspace/applyEdit (an
//	                   edit inserting "PWNED" at the top of the opened file) and
//	                   window/showDocument (an external https URI, taking focus), then
//	                   publish one error whose message is what the client answered:
//	                   "applyEdit=<result or error JSON> showDocument=<result or error JSON>"
//	empty-first        what gopls does when a change arrives while an earlier change's
//	                   pass re-publishes open files (config/catalogue.go, gopls): for
//	                   every didOpen/didChange, a diagnostic pass reported as work-done
//	                   progress (window/workDoneProgress/create, then $/progress begin
//	                   "diagnosing didChange"), an empty publication tied to the
//	                   change's version, the real one -gap (default 100ms) later, then
//	                   the end of the pass ($/progress end)
//	replay             play the server side of the trace file -script (replay.go)
//	sourcemap          luau-lsp and its sourcemap.json (sourcemap.go)
//	rojo-watch         not a server: the companion that keeps sourcemap.json
//	                   fresh, as `rojo sourcemap --watch` does (sourcemap.go)
//
// -trace FILE appends one line per event: "start PID", then for every
// message received its method, a space, and the document URI when it names
// one.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
)

func main() {
	mode := flag.String("mode", envOr("FAKELSP_MODE", "normal"), "fault to produce (see the package comment)")
	initDelay := flag.Duration("init-delay", 30*time.Second, "slow-initialize: delay before answering initialize")
	flood := flag.Int("flood", 10000, "flood: diagnostics per publication")
	stderrMiB := flag.Int("stderr-mib", 16, "stderr-flood: MiB written to stderr in the background")
	trace := flag.String("trace", "", "append received methods to this file")
	scriptFile := flag.String("script", "", "replay: the trace file to play (see replay.go)")
	gap := flag.Duration("gap", 100*time.Millisecond, "empty-first: from the empty publication to the real one; pull-interfile: the delay of another document's pull")
	flag.Parse()
	s := &server{
		mode: *mode, initDelay: *initDelay, flood: *flood, stderrMiB: *stderrMiB, gap: *gap,
		in: bufio.NewReader(os.Stdin), out: os.Stdout, docs: make(map[string]string),
	}
	if *trace != "" {
		f, err := os.OpenFile(*trace, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakelsp:", err)
			os.Exit(2)
		}
		s.trace = f
	}
	s.traceLine(fmt.Sprintf("start %d", os.Getpid()))
	fmt.Fprintf(os.Stderr, "fakelsp: started in mode %s\n", s.mode)
	if s.mode == "stderr-flood" {
		go s.floodStderr(*stderrMiB << 20)
	}
	if s.mode == "replay" {
		os.Exit(s.replay(*scriptFile))
	}
	if s.mode == "rojo-watch" {
		os.Exit(s.rojoWatch())
	}
	os.Exit(s.serve())
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

type server struct {
	mode      string
	initDelay time.Duration
	flood     int
	stderrMiB int
	gap       time.Duration
	in        *bufio.Reader
	trace     *os.File

	outMu sync.Mutex // guards out: one framed message at a time
	out   io.Writer

	mu          sync.Mutex // guards docs, lastChanged, garbaged, pending, nextID and sm
	docs        map[string]string
	lastChanged string // the URI of the last didOpen/didChange
	garbaged    bool
	pending     map[string]chan json.RawMessage // request ID → where its response goes
	nextID      int
	sm          sourcemapState // the sourcemap mode's (sourcemap.go)
}

// message is any JSON-RPC message received: a request or notification
// (Method set), or the client's response to a request of ours (Result or
// Error set).
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// docParams is the part of textDocument/* params fakelsp reads.
type docParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
		Text    string `json:"text"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Text string `json:"text"`
	} `json:"contentChanges"`
}

// serve reads messages until exit or end of input and returns the exit code.
func (s *server) serve() int {
	for {
		msg, err := readMessage(s.in)
		if err != nil {
			if s.mode == "close-stdin" {
				time.Sleep(time.Hour) // closed by us: the exit is due
			}
			return 0 // stdin closed: the client is gone
		}
		var m message
		if err := json.Unmarshal(msg, &m); err != nil {
			fmt.Fprintln(os.Stderr, "fakelsp: bad message:", err)
			continue
		}
		var p docParams
		_ = json.Unmarshal(m.Params, &p)
		s.traceLine(m.Method + " " + p.TextDocument.URI)
		if code, done := s.dispatch(m, p); done {
			return code
		}
	}
}

// dispatch handles one message; done reports that the server must exit
// with code.
func (s *server) dispatch(m message, p docParams) (code int, done bool) {
	isRequest := len(m.ID) > 0 && string(m.ID) != "null"
	if m.Method == "" && isRequest {
		s.response(m)
		return 0, false
	}
	if s.mode == "never-answers" && m.Method != "exit" {
		return 0, false
	}
	if s.mode == "hang-after-first" && m.Method != "exit" {
		s.mu.Lock()
		hung := s.garbaged // set by the first didOpen/didChange
		s.mu.Unlock()
		if hung {
			return 0, false
		}
	}
	switch m.Method {
	case "initialize":
		if s.mode == "slow-initialize" {
			time.Sleep(s.initDelay)
		}
		if s.mode == "sourcemap" {
			s.sourcemapInit(m.Params)
		}
		if s.mode == "close-stdin" {
			os.Stdin.Close()
			time.AfterFunc(50*time.Millisecond, func() { os.Exit(4) })
		}
		s.reply(m.ID, map[string]any{"capabilities": s.capabilities(), "serverInfo": map[string]any{"name": "fakelsp", "version": s.mode}})
		if s.mode == "no-read" {
			time.Sleep(24 * time.Hour) // never read again (a bare select{} would be a detected deadlock)
		}
		return 0, false
	case "shutdown":
		s.reply(m.ID, nil)
		return 0, false
	case "exit":
		return 0, true
	case "initialized":
		if s.mode == "sourcemap" {
			go s.sourcemapRegister()
		}
		return 0, false
	case "workspace/didChangeWatchedFiles":
		if s.mode == "sourcemap" {
			s.sourcemapWatched(m.Params)
		}
		return 0, false
	case "$/cancelRequest", "textDocument/didSave", "workspace/didChangeConfiguration":
		return 0, false
	case "textDocument/didClose":
		s.mu.Lock()
		delete(s.docs, p.TextDocument.URI)
		s.mu.Unlock()
		return 0, false
	case "textDocument/didOpen", "textDocument/didChange":
		s.change(m.Method, p)
		return 0, false
	}
	if !isRequest {
		return 0, false
	}
	switch s.mode {
	case "crash-mid-request":
		s.crash("request " + m.Method)
	case "never-publishes":
		return 0, false // never answered
	}
	if m.Method == "textDocument/diagnostic" && s.mode == "pull-only" {
		s.mu.Lock()
		text := s.docs[p.TextDocument.URI]
		s.mu.Unlock()
		s.reply(m.ID, map[string]any{"kind": "full", "items": diagnostics(text)})
		return 0, false
	}
	if m.Method == "textDocument/diagnostic" && s.mode == "pull-interfile" {
		s.mu.Lock()
		items := append(diagnostics(s.docs[p.TextDocument.URI]), s.unprovided(p.TextDocument.URI)...)
		delay := time.Duration(0)
		if p.TextDocument.URI != s.lastChanged {
			delay = s.gap
		}
		s.mu.Unlock()
		time.AfterFunc(delay, func() { s.reply(m.ID, map[string]any{"kind": "full", "items": items}) })
		return 0, false
	}
	s.replyError(m.ID, -32601, "fakelsp does not handle "+m.Method)
	return 0, false
}

func (s *server) capabilities() map[string]any {
	caps := map[string]any{"textDocumentSync": map[string]any{"openClose": true, "change": 1}}
	switch s.mode {
	case "pull-only":
		caps["diagnosticProvider"] = map[string]any{"identifier": "fakelsp", "interFileDependencies": false, "workspaceDiagnostics": false}
	case "pull-interfile":
		caps["diagnosticProvider"] = map[string]any{"identifier": "fakelsp", "interFileDependencies": true, "workspaceDiagnostics": false}
	}
	return caps
}

// change records a didOpen/didChange and answers it as the mode says.
func (s *server) change(method string, p docParams) {
	uri, version := p.TextDocument.URI, p.TextDocument.Version
	text := p.TextDocument.Text
	if method == "textDocument/didChange" && len(p.ContentChanges) > 0 {
		text = p.ContentChanges[len(p.ContentChanges)-1].Text
	}
	s.mu.Lock()
	s.docs[uri] = text
	s.lastChanged = uri
	first := !s.garbaged
	s.garbaged = true
	s.mu.Unlock()
	switch s.mode {
	case "crash-mid-request":
		time.AfterFunc(100*time.Millisecond, func() { s.crash(method) })
	case "never-publishes", "pull-only", "pull-interfile", "never-answers":
	case "garbage-stdout":
		if first {
			s.outMu.Lock()
			io.WriteString(s.out, "fakelsp: this line is not a framed LSP message\r\n\r\n{\"jsonrpc\"")
			s.outMu.Unlock()
		}
	case "stale-version":
		s.publish(uri, version-1, []any{diagnostic(0, 0, "", fmt.Sprintf("stale: from version %d", version-1), 1)})
		time.AfterFunc(300*time.Millisecond, func() { s.publish(uri, version, diagnostics(text)) })
	case "flood":
		ds := make([]any, s.flood)
		lines := max(1, strings.Count(text, "\n"))
		for i := range ds {
			ds[i] = diagnostic(i%lines, 0, fmt.Sprintf("F%d", i), fmt.Sprintf("flood diagnostic %d of %d", i+1, s.flood), 1)
		}
		s.publish(uri, version, ds)
	case "server-requests":
		if first {
			go s.askClient(uri, version)
		}
	case "empty-first":
		go s.emptyFirst(method, uri, version, text)
	case "sourcemap":
		s.sourcemapChange(uri, version, text)
	case "stderr-flood":
		os.Stderr.Write(make([]byte, 1<<20)) // blocks unless the client drains stderr
		fmt.Fprintf(os.Stderr, "fakelsp: publishing %s version %d\n", uri, version)
		s.publish(uri, version, diagnostics(text))
	default:
		s.publish(uri, version, diagnostics(text))
	}
}

// crash writes what a dying server writes to stderr and exits 3.
func (s *server) crash(during string) {
	fmt.Fprintf(os.Stderr, "fakelsp: fatal error: simulated crash during %s\n", during)
	fmt.Fprintln(os.Stderr, "goroutine 1 [running]:")
	fmt.Fprintln(os.Stderr, "main.crash()")
	os.Exit(3)
}

func (s *server) floodStderr(n int) {
	chunk := []byte(strings.Repeat("fakelsp: stderr flood line, nothing to see here\n", 1000))
	for written := 0; written < n; written += len(chunk) {
		if _, err := os.Stderr.Write(chunk); err != nil {
			return
		}
	}
}

func (s *server) publish(uri string, version int, ds []any) {
	s.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
		"params": map[string]any{"uri": uri, "version": version, "diagnostics": ds}})
}

func (s *server) reply(id json.RawMessage, result any) {
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (s *server) replyError(id json.RawMessage, code int, msg string) {
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

// askClient sends the server-requests mode's two requests, one after the
// other, and publishes for uri at version what the client answered to each
// (see the package comment). It runs beside the read loop, which delivers
// the answers.
func (s *server) askClient(uri string, version int) {
	edit := map[string]any{
		"label": "fakelsp: overwrite the file",
		"edit": map[string]any{"changes": map[string]any{uri: []any{map[string]any{
			"range":   map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}},
			"newText": "PWNED\n",
		}}}},
	}
	applied := s.request("workspace/applyEdit", edit)
	shown := s.request("window/showDocument", map[string]any{"uri": "https://example.com/fakelsp", "external": true, "takeFocus": true})
	msg := fmt.Sprintf("applyEdit=%s showDocument=%s", applied, shown)
	s.publish(uri, version, []any{diagnostic(0, 0, "server-requests", msg, 1)})
}

// emptyFirst plays the empty-first mode's diagnostic pass for one change
// (see the package comment). It runs beside the read loop, which delivers
// the client's answer to the progress token's creation.
func (s *server) emptyFirst(method, uri string, version int, text string) {
	s.mu.Lock()
	s.nextID++
	token := fmt.Sprintf("pass-%d", s.nextID)
	s.mu.Unlock()
	s.request("window/workDoneProgress/create", map[string]any{"token": token})
	s.progress(token, map[string]any{"kind": "begin", "title": "diagnosing " + strings.TrimPrefix(method, "textDocument/")})
	s.publish(uri, version, []any{})
	time.Sleep(s.gap)
	s.publish(uri, version, diagnostics(text))
	s.progress(token, map[string]any{"kind": "end", "message": "Done."})
}

// progress sends $/progress for token with value.
func (s *server) progress(token string, value map[string]any) {
	s.send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": token, "value": value}})
}

// request sends a request to the client and returns its response's result
// or error member (JSON), or "no answer" after 10 s.
func (s *server) request(method string, params any) string {
	s.mu.Lock()
	if s.pending == nil {
		s.pending = make(map[string]chan json.RawMessage)
	}
	s.nextID++
	id := fmt.Sprintf("%q", fmt.Sprintf("fakelsp-%d", s.nextID))
	ch := make(chan json.RawMessage, 1)
	s.pending[id] = ch
	s.mu.Unlock()
	s.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	select {
	case answer := <-ch:
		return string(answer)
	case <-time.After(10 * time.Second):
		return "no answer"
	}
}

// response delivers the client's response m to the request waiting for it.
func (s *server) response(m message) {
	s.mu.Lock()
	ch := s.pending[string(m.ID)]
	delete(s.pending, string(m.ID))
	s.mu.Unlock()
	if ch == nil {
		fmt.Fprintf(os.Stderr, "fakelsp: response to no request: %s\n", m.ID)
		return
	}
	answer := m.Result
	if len(m.Error) > 0 {
		answer = json.RawMessage(`{"error":` + string(m.Error) + `}`)
	}
	ch <- answer
}

func (s *server) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	s.outMu.Lock()
	defer s.outMu.Unlock()
	fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (s *server) traceLine(line string) {
	if s.trace != nil {
		fmt.Fprintln(s.trace, line)
	}
}

// diagnostics finds the ERROR/WARN markers of text (see the package comment).
// unprovided returns an error for each "NEEDS(name)" line of document uri
// that no other open document PROVIDES (pull-interfile). s.mu is held.
func (s *server) unprovided(uri string) []any {
	out := []any{}
	for i, line := range strings.Split(s.docs[uri], "\n") {
		_, rest, ok := strings.Cut(line, "NEEDS(")
		name, _, closed := strings.Cut(rest, ")")
		if !ok || !closed {
			continue
		}
		provided := false
		for other, text := range s.docs {
			provided = provided || other != uri && strings.Contains(text, "PROVIDES("+name+")")
		}
		if !provided {
			out = append(out, diagnostic(i, strings.Index(line, "NEEDS("), "unprovided", name+" is provided by no other open document", 1))
		}
	}
	return out
}

func diagnostics(text string) []any {
	out := []any{}
	for i, line := range strings.Split(text, "\n") {
		for _, m := range []struct {
			word     string
			severity int
		}{{"ERROR", 1}, {"WARN", 2}} {
			at := strings.Index(line, m.word)
			if at < 0 {
				continue
			}
			rest := line[at+len(m.word):]
			code := ""
			if strings.HasPrefix(rest, "(") {
				if end := strings.IndexByte(rest, ')'); end > 0 {
					code, rest = rest[1:end], rest[end+1:]
				}
			}
			msg, ok := strings.CutPrefix(rest, ":")
			if !ok {
				continue
			}
			out = append(out, diagnostic(i, utf16Len(line[:at]), code, strings.TrimSpace(msg), m.severity))
			break
		}
	}
	return out
}

func diagnostic(line, char int, code, msg string, severity int) map[string]any {
	d := map[string]any{
		"range": map[string]any{
			"start": map[string]any{"line": line, "character": char},
			"end":   map[string]any{"line": line, "character": char + 1},
		},
		"severity": severity, "source": "fakelsp", "message": msg,
	}
	if code != "" {
		d["code"] = code
	}
	return d
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// readMessage reads one Content-Length framed message (LSP 3.17 "Base
// Protocol").
func readMessage(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			if n, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return nil, fmt.Errorf("bad Content-Length %q", v)
			}
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("no Content-Length")
	}
	buf := make([]byte, n)
	_, err := io.ReadFull(r, buf)
	return buf, err
}
