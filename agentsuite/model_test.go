package agentsuite

import (
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A step is one scripted model reply in an agent's main loop: a call of
// one of the agent's own tools (Tool and Args, in the agent's vocabulary:
// Write, write_file, apply_patch, …) or, when Tool is empty, a final text
// that ends the turn.
type step struct {
	// Name names the step in messages: "write", "edit", "clean", "done".
	Name string
	// Tool is the tool the reply calls; "" for a final text.
	Tool string
	// Args are the tool's arguments, as the agent's tool schema names them.
	Args map[string]any
	// Quiet: the tool changes no file (a Read), so no block may follow it.
	Quiet bool
	// Text is the final text when Tool is "".
	Text string
	// Also are more tool calls in the same reply, run as one batch (only
	// the Anthropic dialect writes them).
	Also []step
}

// A dialect is one provider API as far as an agent CLI needs it: which
// requests are turns of the agent's main loop (the agent's tools offered),
// how a scripted step is written as that API's (streaming) reply, and a
// short text answer for every other request (titles, quota checks, …).
type dialect interface {
	// isTurn reports whether the request (its URL path and decoded JSON
	// body) is a main-loop turn that takes the next step.
	isTurn(path string, body map[string]any) bool
	// reply writes s as the answer to a turn; n counts the turns from 0.
	reply(w http.ResponseWriter, body map[string]any, s step, n int)
	// side answers a request that is not a turn.
	side(w http.ResponseWriter, path string, body map[string]any)
}

// A turn is one main-loop request the scripted model received.
type turn struct {
	// At is when the request arrived.
	At time.Time
	// Body is the request's JSON body, as sent.
	Body []byte
	// Text is every string in Body joined by newlines (see jsonText).
	Text string
	// File is the content of the workspace file the script edits when the
	// request arrived ("" when absent): what the compiler judges.
	File string
	// Gap is the time from the end of the previous turn's reply to this
	// request's arrival: the tool call, the agent's work and the hook.
	Gap time.Duration
}

// modelServer is the scripted model: an httptest server on 127.0.0.1 that
// answers the n-th main-loop turn with script[n] (the last step once the
// script is used up) and records every turn.
type modelServer struct {
	t       *testing.T
	srv     *httptest.Server
	dialect dialect
	script  []step
	file    string // the workspace file whose content each turn records
	logDir  string // every request body is written here, in order

	mu      sync.Mutex // guards the fields below
	turns   []turn
	replied time.Time // when the last reply was written
	seq     int       // requests seen, turns or not
	paths   []string  // "METHOD path" of every request, in order
}

// newModelServer starts the scripted model for d and script, listening on
// 127.0.0.1 only; file is the workspace file each turn snapshots. Request
// bodies are kept under logDir for a failing test's reader.
func newModelServer(t *testing.T, d dialect, script []step, file, logDir string) *modelServer {
	t.Helper()
	m := &modelServer{t: t, dialect: d, script: script, file: file, logDir: logDir}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening on 127.0.0.1: %v", err)
	}
	m.srv = &httptest.Server{Listener: l, Config: &http.Server{Handler: m}}
	m.srv.Start()
	t.Cleanup(m.srv.Close)
	return m
}

// URL is the server's base URL, http://127.0.0.1:<port>.
func (m *modelServer) URL() string { return m.srv.URL }

// ServeHTTP decodes the request, records it and answers it as a turn or a
// side request.
func (m *modelServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var body map[string]any
	_ = json.Unmarshal(raw, &body) // a GET or a non-object body is a side request

	m.mu.Lock()
	m.seq++
	seq := m.seq
	m.paths = append(m.paths, time.Now().Format("15:04:05.000")+" "+r.Method+" "+r.URL.Path)
	isTurn := body != nil && m.dialect.isTurn(r.URL.Path, body)
	var s step
	n := len(m.turns)
	if isTurn {
		content, _ := os.ReadFile(m.file)
		tr := turn{At: at, Body: raw, Text: jsonText(body), File: string(content)}
		if n > 0 {
			tr.Gap = at.Sub(m.replied)
		}
		m.turns = append(m.turns, tr)
		s = m.script[min(n, len(m.script)-1)]
	}
	m.mu.Unlock()

	kind := "side"
	if isTurn {
		kind = "turn"
	}
	if m.logDir != "" {
		name := filepath.Join(m.logDir, strings.NewReplacer("/", "_", ":", "_").Replace(
			time.Now().Format("150405.000")+"-"+strconv.Itoa(seq)+"-"+kind+r.URL.Path)+".json")
		_ = os.WriteFile(name, raw, 0o644)
	}
	if !isTurn {
		m.dialect.side(w, r.URL.Path, body)
		return
	}
	m.dialect.reply(w, body, s, n)
	m.mu.Lock()
	m.replied = time.Now()
	m.mu.Unlock()
}

// Turns returns the turns recorded so far.
func (m *modelServer) Turns() []turn {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]turn(nil), m.turns...)
}

// Paths returns "METHOD path" for every request so far, in order.
func (m *modelServer) Paths() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.paths...)
}

// jsonText joins every string value in v (depth first, object keys in
// encoding/json's order) with newlines: the text a model reads from a
// request, whatever the API's message shape. A string that itself holds
// JSON (a tool result some agents serialize) is kept as is.
func jsonText(v any) string {
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		}
	}
	walk(v)
	return b.String()
}

// sseEvent writes one server-sent event (event may be "") and flushes it.
func sseEvent(w http.ResponseWriter, event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	if event != "" {
		io.WriteString(w, "event: "+event+"\n")
	}
	io.WriteString(w, "data: "+string(b)+"\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// sseStart sets the headers of an event stream.
func sseStart(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// mustJSON returns v encoded as a JSON string.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
