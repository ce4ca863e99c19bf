package main

// Replay mode (-mode=replay -script=FILE) plays a server's side of an
// exchange written down in a trace file (testdata/traces/*/trace.json), for
// a server that cannot run where the tests run. The file is a JSON object:
//
//	{"description": "...", "sources": ["..."], "rules": [RULE, ...]}
//
// Each RULE says what the server sends when one client message arrives:
//
//	{"comment": "...",
//	 "on": "textDocument/didSave",  // the client message's method
//	 "version": 2,                  // optional: the document's version (below)
//	 "repeat": true,                // optional: keep the rule after it matched
//	 "send": [ACTION, ...]}
//
// A message matches the first rule, in file order, with its method and, when
// the rule names one, its version: for didOpen and didChange the version the
// message carries, for any other message naming a textDocument the version
// that document was last opened or changed to. A rule without "repeat" is used
// up by its match.
//
// The ACTIONs of a matched rule are performed in order, each "after_ms"
// milliseconds after the client message arrived (non-decreasing within a
// rule). An ACTION is exactly one of:
//
//	{"result": ANY}                     reply to the matched request
//	{"error": {"code": N, "message": S, "data": ANY}}
//	{"notify": METHOD, "params": ANY}   a server notification
//	{"request": METHOD, "params": ANY}  a server request, ids 0, 1, 2, ...
//
// In every string of params, result and error, ${rootUri} and ${rootPath}
// become the rootUri the client sent in initialize and its path.
//
// Built in, when no rule matches: "shutdown" is answered null, "exit" ends the
// process, $/cancelRequest answers a request whose scripted reply is still
// pending with RequestCancelled (-32800) and drops that reply, as
// lsp-server's request queue does; any other request is answered
// MethodNotFound and traced "unscripted METHOD"; other notifications are
// only traced. A script that does not decode strictly (unknown fields, an
// action that is not exactly one kind) is an error: exit 2.
//
// -trace lines in this mode:
//
//	start PID
//	METHOD [URI] [version=N] [identifier=ID previousResultId=ID]   received
//	workspace/didChangeWatchedFiles URI type=N                     one per change
//	response ID METHOD RESULT | response ID METHOD error CODE MESSAGE
//	send request ID METHOD | send result METHOD | send error METHOD CODE
//	send textDocument/publishDiagnostics URI version=N diagnostics=N
//	send $/progress TOKEN KIND | send METHOD
//	cancelled METHOD | unscripted METHOD

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// script is a decoded trace file.
type script struct {
	Description string   `json:"description"`
	Sources     []string `json:"sources"`
	Rules       []*rule  `json:"rules"`
}

// rule is one "when this arrives, send that" entry; used is set once a rule
// without Repeat has matched.
type rule struct {
	Comment string    `json:"comment"`
	On      string    `json:"on"`
	Version int       `json:"version"`
	Repeat  bool      `json:"repeat"`
	Send    []*action `json:"send"`
	used    bool
}

// action is one message to send. Result and Error are kept raw so that a
// present null ("result": null) is told from an absent field.
type action struct {
	Comment string          `json:"comment"`
	AfterMS int             `json:"after_ms"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	Notify  string          `json:"notify"`
	Request string          `json:"request"`
	Params  json.RawMessage `json:"params"`
}

// loadScript reads and validates a trace file.
func loadScript(path string) (*script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s script
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", path, err)
	}
	for i, r := range s.Rules {
		if r.On == "" {
			return nil, fmt.Errorf("%s: rule %d: no \"on\" method", path, i)
		}
		last := 0
		for j, a := range r.Send {
			kinds := 0
			for _, present := range []bool{a.Result != nil, a.Error != nil, a.Notify != "", a.Request != ""} {
				if present {
					kinds++
				}
			}
			if kinds != 1 {
				return nil, fmt.Errorf("%s: rule %d (%s) action %d: want exactly one of result, error, notify, request", path, i, r.On, j)
			}
			if a.AfterMS < last {
				return nil, fmt.Errorf("%s: rule %d (%s) action %d: after_ms %d goes back in time", path, i, r.On, j, a.AfterMS)
			}
			last = a.AfterMS
		}
	}
	return &s, nil
}

// replayer plays a script over the server's stdio.
type replayer struct {
	s      *server
	script *script

	traceMu sync.Mutex // guards writes to s.trace

	mu       sync.Mutex // guards every field below
	rootURI  string
	rootPath string
	versions map[string]int             // document URI → version last opened or changed to
	pending  map[string]*pendingRequest // client request id (raw JSON) → its scripted reply state
	outgoing map[string]string          // id of a request we sent → its method
	nextID   int
}

// pendingRequest is a client request whose scripted reply may still come.
type pendingRequest struct {
	method    string
	cancelled bool
}

// replay runs the script until exit or end of input and returns the exit
// code.
func (s *server) replay(path string) int {
	sc, err := loadScript(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakelsp:", err)
		return 2
	}
	r := &replayer{s: s, script: sc, versions: make(map[string]int),
		pending: make(map[string]*pendingRequest), outgoing: make(map[string]string)}
	for {
		msg, err := readMessage(s.in)
		if err != nil {
			return 0 // stdin closed: the client is gone
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *rpcError       `json:"error"`
		}
		if err := json.Unmarshal(msg, &m); err != nil {
			fmt.Fprintln(os.Stderr, "fakelsp: bad message:", err)
			continue
		}
		if m.Method == "" {
			r.response(string(m.ID), m.Result, m.Error)
			continue
		}
		if done := r.receive(m.Method, m.ID, m.Params); done {
			return 0
		}
	}
}

// rpcError is a JSON-RPC error object as the client sends it.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// response records the client's answer to one of our requests.
func (r *replayer) response(id string, result json.RawMessage, rpcErr *rpcError) {
	r.mu.Lock()
	method, ok := r.outgoing[id]
	delete(r.outgoing, id)
	r.mu.Unlock()
	if !ok {
		method = "?"
	}
	if rpcErr != nil {
		r.trace(fmt.Sprintf("response %s %s error %d %s", id, method, rpcErr.Code, rpcErr.Message))
		return
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, result); err != nil || len(result) == 0 {
		compact.Reset()
		compact.WriteString("null")
	}
	r.trace(fmt.Sprintf("response %s %s %s", id, method, compact.String()))
}

// receive handles one client request or notification; done reports exit.
func (r *replayer) receive(method string, id, params json.RawMessage) (done bool) {
	isRequest := len(id) > 0 && string(id) != "null"
	arrived := time.Now()
	var p struct {
		RootURI      string `json:"rootUri"`
		TextDocument struct {
			URI     string `json:"uri"`
			Version int    `json:"version"`
		} `json:"textDocument"`
		Identifier       string `json:"identifier"`
		PreviousResultID string `json:"previousResultId"`
		Changes          []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(params, &p)
	version := r.noteVersion(method, p.TextDocument.URI, p.TextDocument.Version)
	r.traceReceived(method, p.TextDocument.URI, version, p.Identifier, p.PreviousResultID)
	for _, c := range p.Changes {
		r.trace(fmt.Sprintf("%s %s type=%d", method, c.URI, c.Type))
	}
	switch method {
	case "initialize":
		r.setRoot(p.RootURI)
	case "exit":
		return true
	case "$/cancelRequest":
		r.cancel(string(p.ID))
		return false
	}
	if isRequest {
		r.mu.Lock()
		r.pending[string(id)] = &pendingRequest{method: method}
		r.mu.Unlock()
	}
	rl := r.match(method, version)
	switch {
	case rl != nil:
		go r.perform(rl, method, id, arrived)
	case method == "shutdown":
		r.reply(id, method, json.RawMessage("null"), nil)
	case isRequest:
		r.trace("unscripted " + method)
		r.reply(id, method, nil, json.RawMessage(`{"code":-32601,"message":"unknown request"}`))
	}
	return false
}

// noteVersion records the version a didOpen or didChange carries and
// returns the version of the document the message names (0 when none).
func (r *replayer) noteVersion(method, uri string, sent int) int {
	if uri == "" {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch method {
	case "textDocument/didOpen", "textDocument/didChange":
		r.versions[uri] = sent
	case "textDocument/didClose":
		v := r.versions[uri]
		delete(r.versions, uri)
		return v
	}
	return r.versions[uri]
}

func (r *replayer) traceReceived(method, uri string, version int, identifier, previous string) {
	line := method
	if uri != "" {
		line += " " + uri + " version=" + strconv.Itoa(version)
	}
	if method == "textDocument/diagnostic" {
		line += " identifier=" + identifier + " previousResultId=" + previous
	}
	r.trace(line)
}

// setRoot records the client's rootUri, for ${rootUri} and ${rootPath}.
func (r *replayer) setRoot(rootURI string) {
	u, err := url.Parse(rootURI)
	if err != nil || u.Scheme != "file" {
		fmt.Fprintf(os.Stderr, "fakelsp: rootUri %q is not a file URI\n", rootURI)
		return
	}
	r.mu.Lock()
	r.rootURI, r.rootPath = rootURI, u.Path
	r.mu.Unlock()
}

// match returns the first rule for method at version and uses it up unless
// it repeats.
func (r *replayer) match(method string, version int) *rule {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rl := range r.script.Rules {
		if rl.used || rl.On != method || (rl.Version != 0 && rl.Version != version) {
			continue
		}
		rl.used = !rl.Repeat
		return rl
	}
	return nil
}

// perform sends a rule's actions at their times.
func (r *replayer) perform(rl *rule, method string, id json.RawMessage, arrived time.Time) {
	for _, a := range rl.Send {
		time.Sleep(time.Until(arrived.Add(time.Duration(a.AfterMS) * time.Millisecond)))
		var err error
		switch {
		case a.Result != nil || a.Error != nil:
			if len(id) == 0 {
				err = errors.New("a reply scripted for a notification")
				break
			}
			var res, rpcErr json.RawMessage
			if res, err = r.expand(a.Result); err == nil {
				rpcErr, err = r.expand(a.Error)
			}
			if err == nil {
				r.reply(id, method, res, rpcErr)
			}
		case a.Notify != "":
			err = r.notify(a.Notify, a.Params)
		case a.Request != "":
			err = r.request(a.Request, a.Params)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "fakelsp: rule on %s: %v\n", rl.On, err)
			r.trace("bad-rule " + rl.On)
			return
		}
	}
}

// reply answers the client request id with result or, when rpcErr is set,
// that error, unless the client cancelled it.
func (r *replayer) reply(id json.RawMessage, method string, result, rpcErr json.RawMessage) {
	r.mu.Lock()
	p := r.pending[string(id)]
	delete(r.pending, string(id))
	r.mu.Unlock()
	if p != nil && p.cancelled {
		return
	}
	if rpcErr != nil {
		r.s.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": rpcErr})
		var e struct{ Code int }
		_ = json.Unmarshal(rpcErr, &e)
		r.trace(fmt.Sprintf("send error %s %d", method, e.Code))
		return
	}
	if result == nil {
		result = json.RawMessage("null")
	}
	r.s.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	r.trace("send result " + method)
}

// cancel answers a pending request with RequestCancelled and drops its
// scripted reply.
func (r *replayer) cancel(id string) {
	r.mu.Lock()
	p := r.pending[id]
	if p != nil {
		p.cancelled = true
	}
	r.mu.Unlock()
	if p == nil {
		return
	}
	r.s.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id),
		"error": map[string]any{"code": -32800, "message": "canceled by client"}})
	r.trace("cancelled " + p.method)
}

func (r *replayer) notify(method string, params json.RawMessage) error {
	params, err := r.expand(params)
	if err != nil {
		return err
	}
	r.s.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	r.trace("send " + method + notificationDetail(method, params))
	return nil
}

func (r *replayer) request(method string, params json.RawMessage) error {
	params, err := r.expand(params)
	if err != nil {
		return err
	}
	r.mu.Lock()
	id := strconv.Itoa(r.nextID)
	r.nextID++
	r.outgoing[id] = method
	r.mu.Unlock()
	r.s.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	r.trace("send request " + id + " " + method)
	return nil
}

// notificationDetail summarizes the notifications tests wait for.
func notificationDetail(method string, params json.RawMessage) string {
	switch method {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI         string            `json:"uri"`
			Version     *int              `json:"version"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
		}
		_ = json.Unmarshal(params, &p)
		v := "none"
		if p.Version != nil {
			v = strconv.Itoa(*p.Version)
		}
		return fmt.Sprintf(" %s version=%s diagnostics=%d", p.URI, v, len(p.Diagnostics))
	case "$/progress":
		var p struct {
			Token any `json:"token"`
			Value struct {
				Kind string `json:"kind"`
			} `json:"value"`
		}
		_ = json.Unmarshal(params, &p)
		return fmt.Sprintf(" %v %s", p.Token, p.Value.Kind)
	}
	return ""
}

// expand replaces ${rootUri} and ${rootPath} in the strings of raw, JSON
// escaped; nil stays nil.
func (r *replayer) expand(raw json.RawMessage) (json.RawMessage, error) {
	if raw == nil {
		return nil, nil
	}
	r.mu.Lock()
	rootURI, rootPath := r.rootURI, r.rootPath
	r.mu.Unlock()
	out := string(raw)
	for k, v := range map[string]string{"${rootUri}": rootURI, "${rootPath}": rootPath} {
		if !strings.Contains(out, k) {
			continue
		}
		if v == "" {
			return nil, fmt.Errorf("%s used before initialize", k)
		}
		esc, _ := json.Marshal(v)
		out = strings.ReplaceAll(out, k, string(esc[1:len(esc)-1]))
	}
	if !json.Valid([]byte(out)) {
		return nil, fmt.Errorf("expanding %.80s: not valid JSON", raw)
	}
	return json.RawMessage(out), nil
}

func (r *replayer) trace(line string) {
	r.traceMu.Lock()
	defer r.traceMu.Unlock()
	r.s.traceLine(line)
}
