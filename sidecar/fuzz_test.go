package sidecar

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The socket protocol's fuzz targets feed a real Server (Listen and Serve
// on a Unix socket, dialled as a hook does) over an Engine with the
// validators only: no language server, no linter. Inputs connect one at a
// time; one that shuts the daemon down gets it replaced (fuzzDaemon).
//
//   - FuzzSocket builds Content-Length framed messages from the input
//     (fuzzMessages: a method, an id kind, params) and checks that every
//     request with an id before the first raw body or shutdown is answered,
//     once, with a result or an error, within fuzzDeadline, and that no
//     answer goes to an id that was not sent.
//   - FuzzSocketRaw writes the input as it is (headers included) and
//     checks that whatever comes back is a well-formed answer or published
//     notification, and that the connection ends once the client hangs up.
//
// Both check that the daemon neither panics nor hangs: a stuck answer, or a
// connection the daemon does not let go of, fails the input.

// fuzzDeadline bounds one input: every expected answer, and the daemon's
// end of the connection closing after the client's.
const fuzzDeadline = 10 * time.Second

// fuzzMethods are the methods a fuzz message calls, by its first byte:
// every one the daemon serves, LSP's $/cancelRequest, which it honours
// too, and one that does not exist.
var fuzzMethods = []string{
	wire.MethodHello, wire.MethodNotifyChange, wire.MethodDiagnostics, wire.MethodCheck, wire.MethodRequest, wire.MethodStatus,
	wire.MethodSubscribe, wire.MethodChangedFiles, wire.MethodRestart, wire.MethodShutdown, wire.MethodCancelRequest, "$/cancelRequest", "no_such_method",
}

// Id kinds of a fuzz message (its second byte, mod 4).
const (
	idNumber = iota // "id": the message's index
	idString        // "id": "s<index>"
	idNone          // a notification
	idRaw           // the params bytes are the whole body, as they are
)

// fuzzMessage is one message of a FuzzSocket input.
type fuzzMessage struct {
	method string
	kind   int
	bare   bool // no "jsonrpc": "2.0" member
	params []byte
}

// fuzzMessages splits data at NUL bytes (never valid in a JSON text) into
// messages: byte 0 picks the method, byte 1 the id kind (bits 0–1) and
// whether "jsonrpc" is left out (bit 2), the rest is the params (or the raw
// body).
func fuzzMessages(data []byte) []fuzzMessage {
	var out []fuzzMessage
	for _, chunk := range bytes.Split(data, []byte{0}) {
		if len(chunk) < 2 {
			continue
		}
		out = append(out, fuzzMessage{
			method: fuzzMethods[int(chunk[0])%len(fuzzMethods)],
			kind:   int(chunk[1]) % 4,
			bare:   chunk[1]&4 != 0,
			params: chunk[2:],
		})
		if len(out) == 64 {
			break
		}
	}
	return out
}

// encodeFuzzMessages renders messages as seed bytes for FuzzSocket.
func encodeFuzzMessages(msgs ...fuzzMessage) []byte {
	var b []byte
	for i, m := range msgs {
		if i > 0 {
			b = append(b, 0)
		}
		idx := 0
		for j, name := range fuzzMethods {
			if name == m.method {
				idx = j
			}
		}
		flags := byte(m.kind)
		if m.bare {
			flags |= 4
		}
		b = append(append(b, byte(idx), flags), m.params...)
	}
	return b
}

// fuzzID returns the JSON id of message i of kind, "" for none.
func fuzzID(i, kind int) string {
	switch kind {
	case idNumber:
		return fmt.Sprint(i + 1)
	case idString:
		return fmt.Sprintf(`"s%d"`, i+1)
	}
	return ""
}

// body renders message i: a JSON-RPC object whose params are m.params when
// they are JSON, else m.params as a JSON string; or m.params alone (idRaw).
func (m fuzzMessage) body(i int) []byte {
	if m.kind == idRaw {
		return m.params
	}
	var b bytes.Buffer
	b.WriteByte('{')
	if !m.bare {
		b.WriteString(`"jsonrpc":"2.0",`)
	}
	if id := fuzzID(i, m.kind); id != "" {
		b.WriteString(`"id":` + id + ",")
	}
	method, _ := json.Marshal(m.method)
	b.WriteString(`"method":`)
	b.Write(method)
	if len(bytes.TrimSpace(m.params)) > 0 {
		params := m.params
		if !json.Valid(params) {
			params, _ = json.Marshal(string(params))
		}
		b.WriteString(`,"params":`)
		b.Write(params)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// fuzzEngine is the engine every input's Server serves: validators only,
// for a workspace of a few files (one a symlink out of it).
func fuzzEngine(f *testing.F) *engine.Engine {
	root, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	for name, text := range map[string]string{
		"bad.json": "{\n  \"a\": 1,\n  \"b\": \n}\n", "ok.yaml": "a: 1\n", "dup.yaml": "a: 1\na: 2\n",
		"conf.toml": "[t]\nx = 1\n[t]\n", "sub/tsconfig.json": "{// c\n\"a\": [1,],}\n", "main.go": "package main\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(root, "out.json")); err != nil {
		f.Fatal(err)
	}
	cfg := config.Default()
	cfg.LSP.Enabled = false
	cfg.Linters = map[string]config.Linter{}
	return engine.NewEngine(root, cfg, nil, testdaemon.Discard())
}

// fuzzReply is a message the daemon sent: an answer (ID set) or a
// notification (Method set).
type fuzzReply struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
	Result *json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// fuzzDaemon is the daemon a target's inputs connect to, one at a time:
// a Server for the engine on a socket in dir, as `lsp-hook serve` runs it
// (Listen, then Serve, which checks the peer's uid). An input that shuts
// it down gets it replaced for the next input, so shutdown is harmless to
// the others (restart is: there are no language servers).
type fuzzDaemon struct {
	e      *engine.Engine
	socket string
	srv    *Server
	served chan error // Serve's return
}

// newFuzzDaemon returns a daemon for e whose socket lies in a private
// directory with a path short enough for a Unix socket (108 bytes), shut
// down and removed when the target ends.
func newFuzzDaemon(f *testing.F, e *engine.Engine) *fuzzDaemon {
	d := &fuzzDaemon{e: e, socket: filepath.Join(testdaemon.ShortDir(f), "d.sock")}
	f.Cleanup(func() { // before ShortDir's removal
		if d.srv != nil {
			d.srv.Shutdown()
			<-d.served
		}
	})
	return d
}

// running returns the daemon, starting one when there is none or the last
// input shut it down.
func (d *fuzzDaemon) running(t *testing.T) *Server {
	if d.srv != nil {
		select {
		case <-d.srv.Done():
			d.stop(t)
		default:
			return d.srv
		}
	}
	srv := &Server{Engine: d.e, Version: "fuzz", Log: d.e.Log}
	if err := srv.Listen(d.socket); err != nil {
		t.Fatal(err)
	}
	d.srv, d.served = srv, make(chan error, 1)
	go func() { d.served <- srv.Serve() }()
	return srv
}

// stop shuts the daemon down, if it runs, and waits for Serve to return.
func (d *fuzzDaemon) stop(t *testing.T) {
	if d.srv == nil {
		return
	}
	d.srv.Shutdown()
	select {
	case err := <-d.served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(fuzzDeadline):
		t.Fatalf("Serve did not return %v after Shutdown", fuzzDeadline)
	}
	d.srv = nil
}

// fuzzSession is one input's connection to the daemon.
type fuzzSession struct {
	t      *testing.T
	d      *fuzzDaemon
	srv    *Server
	client net.Conn

	mu      sync.Mutex // guards answers
	answers map[string]int
	got     chan struct{} // receives after every answer
	readErr chan error    // the reader's end
}

// open connects to the daemon, as a hook does, and starts reading the
// answers.
func (d *fuzzDaemon) open(t *testing.T) *fuzzSession {
	srv := d.running(t)
	client, err := net.DialTimeout("unix", d.socket, fuzzDeadline)
	if err != nil {
		t.Fatal(err)
	}
	client.SetDeadline(time.Now().Add(fuzzDeadline))
	s := &fuzzSession{t: t, d: d, srv: srv, client: client, answers: make(map[string]int),
		got: make(chan struct{}, 1), readErr: make(chan error, 1)}
	go s.read()
	return s
}

// read checks every message the daemon sends until the connection ends.
func (s *fuzzSession) read() {
	r := bufio.NewReader(s.client)
	for {
		var raw json.RawMessage
		if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &raw); err != nil {
			s.readErr <- err
			return
		}
		var m fuzzReply
		if err := json.Unmarshal(raw, &m); err != nil {
			s.readErr <- fmt.Errorf("daemon sent a message that is not a JSON-RPC object: %v: %.300s", err, raw)
			return
		}
		if m.ID == nil {
			if m.Method != wire.MethodPublished {
				s.readErr <- fmt.Errorf("daemon sent a message without id that is not a published notification: %.300s", raw)
				return
			}
			continue
		}
		if (m.Result == nil) == (m.Error == nil) {
			s.readErr <- fmt.Errorf("answer without exactly one of result and error: %.300s", raw)
			return
		}
		if m.Error != nil && m.Error.Message == "" {
			s.readErr <- fmt.Errorf("error answer without a message: %.300s", raw)
			return
		}
		s.mu.Lock()
		s.answers[string(*m.ID)]++
		s.mu.Unlock()
		select {
		case s.got <- struct{}{}:
		default:
		}
	}
}

// write sends b; an error means the daemon closed its end.
func (s *fuzzSession) write(b []byte) error {
	_, err := s.client.Write(b)
	return err
}

// wait waits until every id in want is answered, the reader ends, or the
// deadline passes (a failure naming the ids not answered).
func (s *fuzzSession) wait(want map[string]string) {
	for {
		s.mu.Lock()
		var missing []string
		for id, method := range want {
			if s.answers[id] == 0 {
				missing = append(missing, id+" ("+method+")")
			}
		}
		s.mu.Unlock()
		if len(missing) == 0 {
			return
		}
		select {
		case <-s.got:
		case err := <-s.readErr:
			s.readErr <- err
			if fuzzTimedOut(err) {
				s.t.Fatalf("no answer within %v to %s", fuzzDeadline, strings.Join(missing, ", "))
			}
			s.t.Fatalf("connection ended (%v) with no answer to %s", err, strings.Join(missing, ", "))
		}
	}
}

// close hangs up and checks the daemon lets go of the connection, that
// the reader saw nothing malformed, and, unless sent is nil, that no id
// was answered twice or answered without being asked. When the input may
// have asked for a shutdown, the daemon is shut down and replaced: the
// handler of a shutdown sent last may not have run yet, and would shut
// the next input's daemon down under it.
func (s *fuzzSession) close(sent map[string]bool, mayShutDown bool) {
	s.client.Close()
	if err := <-s.readErr; err != nil && !fuzzClosed(err) {
		s.t.Fatal(err)
	}
	// The daemon forgets the connection once it has seen it close, and
	// handlers of requests whose answers were dropped still run: wait for
	// both, so a panic or a stuck handler is this input's. (Nothing
	// signals either but the daemon's own bookkeeping.)
	for end := time.Now().Add(fuzzDeadline); s.busy(); time.Sleep(50 * time.Microsecond) {
		if time.Now().After(end) {
			s.t.Fatalf("%v after the client closed, the daemon still holds the connection or runs %d handlers",
				fuzzDeadline, s.srv.inflight.Load())
		}
	}
	if mayShutDown {
		s.d.stop(s.t)
	}
	if sent == nil {
		return // raw input: ids are the fuzzer's
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, n := range s.answers {
		if !sent[id] && id != "null" {
			s.t.Fatalf("answer to id %s, which was never sent", id)
		}
		if n > 1 {
			s.t.Fatalf("id %s answered %d times", id, n)
		}
	}
}

// busy reports whether the daemon still holds a connection or runs a
// handler.
func (s *fuzzSession) busy() bool {
	s.srv.mu.Lock()
	n := len(s.srv.conns)
	s.srv.mu.Unlock()
	return n > 0 || s.srv.inflight.Load() > 0
}

// fuzzTimedOut reports whether err is the connection's deadline passing.
func fuzzTimedOut(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// fuzzClosed reports whether err is how reading or writing ends when
// either side closed the connection.
func fuzzClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ENOTCONN)
}

// fuzzSeeds are realistic requests for every method, as the hook, notify,
// diagnose, status, restart, stop and mcp send them.
func fuzzSeeds(root string) [][]byte {
	c := func(method string, params string) fuzzMessage {
		return fuzzMessage{method: method, kind: idNumber, params: []byte(params)}
	}
	hello := c(wire.MethodHello, fmt.Sprintf(`{"client_version":"v1","protocol":%d}`, wire.ProtocolVersion))
	return [][]byte{
		encodeFuzzMessages(hello,
			c(wire.MethodNotifyChange, `{"changes":[{"path":"bad.json"},{"path":"new.json","content":"[1,,]","mode":"write"},{"path":"/etc/passwd"}],"source":"claude","budget_ms":2000}`),
			c(wire.MethodStatus, `{}`)),
		encodeFuzzMessages(hello,
			c(wire.MethodNotifyChange, `{"changes":[{"path":"`+root+`/dup.yaml","mode":"edit"},{"path":"conf.toml"},{"path":"out.json"},{"path":"../x"},{"path":"sub/tsconfig.json"}],"only_new":true,"severity":"warning","phase":"diagnose"}`),
			c(wire.MethodDiagnostics, `{"paths":["bad.json","/tmp"]}`),
			c(wire.MethodDiagnostics, `null`)),
		encodeFuzzMessages(c(wire.MethodSubscribe, `{}`),
			c(wire.MethodNotifyChange, `{"changes":[{"path":"a.json","content":"{\"a\":1,\"a\":2}","mode":"write"}],"publish":true,"source":"hooks:auto_lint"}`),
			fuzzMessage{method: wire.MethodNotifyChange, kind: idNone, params: []byte(`{"changes":[{"path":"a.yaml","content":"a:\n\tb: 1\n"}],"publish":true}`)},
			c(wire.MethodStatus, ``)),
		encodeFuzzMessages(c(wire.MethodRequest, `{"path":"main.go","method":"textDocument/hover","params":{"textDocument":{"uri":"file://`+root+`/main.go"},"position":{"line":0,"character":8}}}`),
			c(wire.MethodRequest, `{"path":"main.go","method":"textDocument/rename","params":{}}`),
			c(wire.MethodRequest, `{"path":"/etc/passwd","method":"textDocument/definition"}`),
			c(wire.MethodCheck, `{"path":"bad.json"}`), c(wire.MethodCheck, `{"path":"sub/tsconfig.json"}`), c(wire.MethodCancelRequest, `{"id":1}`)),
		encodeFuzzMessages(c(wire.MethodNotifyChange, `{"changes":[{"path":"dup.yaml"}],"budget_ms":3000}`),
			c(wire.MethodCancelRequest, `{"id":1}`), c(wire.MethodCheck, `{"path":"conf.toml"}`),
			fuzzMessage{method: "$/cancelRequest", kind: idNone, params: []byte(`{"id":3}`)},
			fuzzMessage{method: wire.MethodCancelRequest, kind: idString, params: []byte(`{"id":"s9"}`)}),
		encodeFuzzMessages(c(wire.MethodChangedFiles, `{"since_ms":1}`), c(wire.MethodChangedFiles, `{"since_ms":-5}`),
			c(wire.MethodRestart, `{"server":"gopls"}`), c(wire.MethodRestart, `{}`)),
		encodeFuzzMessages(c(wire.MethodNotifyChange, `{}`), c(wire.MethodNotifyChange, `{"changes":"x"}`),
			fuzzMessage{method: "no_such_method", kind: idString, bare: true, params: []byte(`[1,2]`)},
			fuzzMessage{method: wire.MethodHello, kind: idNone}),
		encodeFuzzMessages(c(wire.MethodStatus, `{}`), c(wire.MethodShutdown, `{}`), c(wire.MethodStatus, `{}`)),
		encodeFuzzMessages(c(wire.MethodHello, `{}`),
			fuzzMessage{kind: idRaw, params: []byte(`[{"jsonrpc":"2.0","id":99,"method":"status"}]`)}, c(wire.MethodStatus, `{}`)),
		encodeFuzzMessages(fuzzMessage{kind: idRaw, params: []byte(`{"jsonrpc":"2.0","id":7,"result":null}`)},
			fuzzMessage{kind: idRaw, params: []byte(`{"jsonrpc":"2.0","id":1.5,"method":"status"}`)}),
	}
}

// FuzzSocket sends framed messages (fuzzMessages) on one connection, in
// two phases: the messages before the first raw body or shutdown, whose
// requests must all be answered; then the rest, which the daemon may have
// stopped reading (a body it cannot decode, or a shutdown, closes the
// connection and drops answers still in flight).
func FuzzSocket(f *testing.F) {
	e := fuzzEngine(f)
	d := newFuzzDaemon(f, e)
	for _, seed := range fuzzSeeds(e.Root) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs := fuzzMessages(data)
		s := d.open(t)
		sent := make(map[string]bool)
		want := make(map[string]string) // id → method, of the requests that must be answered
		var frames bytes.Buffer
		send := func(i int, m fuzzMessage) {
			body := m.body(i)
			fmt.Fprintf(&frames, "Content-Length: %d\r\n\r\n", len(body))
			frames.Write(body)
			if id := fuzzID(i, m.kind); id != "" && m.kind != idRaw {
				sent[id] = true
				want[id] = m.method
			}
		}
		flush := func(must bool) {
			if err := s.write(frames.Bytes()); err != nil && (must || fuzzTimedOut(err)) {
				t.Fatalf("writing to the daemon: %v", err)
			}
			frames.Reset()
		}
		i := 0
		for ; i < len(msgs) && msgs[i].kind != idRaw && msgs[i].method != wire.MethodShutdown; i++ {
			send(i, msgs[i])
		}
		flush(true)
		s.wait(want)
		if i < len(msgs) {
			send(i, msgs[i]) // a shutdown is answered before the connection closes
			flush(true)
			s.wait(want)
			want = map[string]string{}
			for i++; i < len(msgs); i++ {
				send(i, msgs[i])
			}
			flush(false)
			s.hangUp()
			if slices.ContainsFunc(msgs, func(m fuzzMessage) bool { return m.kind == idRaw }) {
				sent = nil // a raw body carries ids of its own
			}
		}
		s.close(sent, slices.ContainsFunc(msgs, func(m fuzzMessage) bool {
			return m.method == wire.MethodShutdown || m.kind == idRaw && mayShutDown(m.params)
		}))
	})
}

// FuzzSocketRaw writes arbitrary bytes to the daemon.
func FuzzSocketRaw(f *testing.F) {
	e := fuzzEngine(f)
	d := newFuzzDaemon(f, e)
	for _, seed := range fuzzSeeds(e.Root) {
		var frames bytes.Buffer
		for i, m := range fuzzMessages(seed) {
			body := m.body(i)
			fmt.Fprintf(&frames, "Content-Length: %d\r\n\r\n", len(body))
			frames.Write(body)
		}
		f.Add(frames.Bytes())
	}
	f.Add([]byte("Content-Length: 10\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"))
	f.Add([]byte("content-length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n{"))
	f.Add([]byte("Content-Length: 4294967295\r\n\r\n"))
	f.Add([]byte("Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}   trailing\r\n\r\n"))
	f.Add([]byte("Content-Length: 2\n\n{}"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"hello"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := d.open(t)
		if err := s.write(data); err != nil && !fuzzClosed(err) {
			t.Fatalf("writing: %v", err)
		}
		s.hangUp()
		s.close(nil, mayShutDown(data))
	})
}

// mayShutDown reports whether raw bytes may hold a shutdown request: they
// name it, or hold a JSON escape that could spell it.
func mayShutDown(b []byte) bool {
	return bytes.Contains(b, []byte(wire.MethodShutdown)) || bytes.Contains(b, []byte(`\u`))
}

// hangUp closes the client's writing half, so the daemon reads the end of
// the stream, and waits for the connection to end: the daemon closes it
// once it has read everything sent.
func (s *fuzzSession) hangUp() {
	if err := s.client.(*net.UnixConn).CloseWrite(); err != nil && !fuzzClosed(err) {
		s.t.Fatalf("closing the client's writing half: %v", err)
	}
	err := <-s.readErr
	s.readErr <- err
	if fuzzTimedOut(err) {
		s.t.Fatalf("the daemon kept the connection open %v after reading its end", fuzzDeadline)
	}
}
