package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// The fuzz targets of the LSP side feed what a language server sends —
// publishDiagnostics params, pull reports, registrations, server requests,
// tsserver answers, the initialize result — to the decoders that read it,
// seeded from testdata/traces/rust-analyzer/trace.json, and check what
// the rest of lsp-hook relies on: converted positions are 1-based, in
// range of their line and ordered as the wire range was; decoding is
// stable through an encode; errors are the documented ones.

// fuzzEncodings are the position encodings a fuzz input picks from.
var fuzzEncodings = []string{EncodingUTF16, EncodingUTF8, EncodingUTF32}

// fuzzText is the document the fuzzed diagnostics are converted against:
// non-ASCII text of one, two, three and four UTF-8 bytes, a CRLF line, an
// invalid byte and an empty last line.
const fuzzText = "fn main() {\n    let 价格 = \"naïve\"; // 🙂\r\n\tx\xff\n}\n"

// traceSeeds returns, from the rust-analyzer trace, the params of every
// message the server sends, by method, and every result, by the method of
// the request it answers.
func traceSeeds(tb testing.TB) (params, results map[string][][]byte) {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "traces", "rust-analyzer", "trace.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var trace struct {
		Rules []struct {
			On   string `json:"on"`
			Send []struct {
				Request string          `json:"request"`
				Notify  string          `json:"notify"`
				Params  json.RawMessage `json:"params"`
				Result  json.RawMessage `json:"result"`
			} `json:"send"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b, &trace); err != nil {
		tb.Fatal(err)
	}
	params, results = make(map[string][][]byte), make(map[string][][]byte)
	for _, r := range trace.Rules {
		for _, s := range r.Send {
			switch {
			case s.Request != "":
				params[s.Request] = append(params[s.Request], s.Params)
			case s.Notify != "":
				params[s.Notify] = append(params[s.Notify], s.Params)
			case s.Result != nil:
				results[r.On] = append(results[r.On], s.Result)
			}
		}
	}
	if len(params["textDocument/publishDiagnostics"]) == 0 || len(results["textDocument/diagnostic"]) == 0 {
		tb.Fatal("trace.json has no publishDiagnostics or pull report to seed from")
	}
	return params, results
}

// fuzzClient returns a client of no process and no connection for the
// workspace /ws, with enc negotiated and text open as /ws/src/main.rs
// (open is false for targets whose messages can start pulls, which need a
// connection).
func fuzzClient(enc string, text string, open bool) (*Client, string) {
	c := newClient(config.Server{Name: "fuzz", Settings: map[string]any{"rust-analyzer": map[string]any{"check": map[string]any{"command": "clippy"}}}},
		"/ws", slog.New(slog.NewTextHandler(io.Discard, nil)))
	c.encoding = enc
	path := "/ws/src/main.rs"
	if open {
		c.docs[pathToURI(path)] = &document{path: path, version: 1, text: []byte(text)}
	}
	return c, path
}

// lspBefore reports whether position a is at or before b.
func lspBefore(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character <= b.Character
}

// checkConverted checks convert's output for wire diagnostics ds on text:
// one diagnostic per decodable message, positions 1-based, columns within
// their line, ranges ordered as on the wire, severity known.
func checkConverted(t *testing.T, text []byte, ds []Diagnostic, out []diag.Diagnostic) {
	t.Helper()
	var kept []Diagnostic
	for _, d := range ds {
		if _, err := messageString(d.Message); err == nil {
			kept = append(kept, d)
		}
	}
	if len(out) != len(kept) {
		t.Fatalf("%d wire diagnostics with a message, %d converted", len(kept), len(out))
	}
	idx := newLineIndex(text)
	for i, d := range out {
		w := kept[i]
		if d.Line < 1 || d.Column < 1 || d.EndLine < 1 || d.EndColumn < 1 {
			t.Fatalf("position not 1-based: %+v from %+v", d, w.Range)
		}
		if d.Severity < diag.SeverityError || d.Severity > diag.SeverityHint {
			t.Fatalf("severity %d from %d", d.Severity, w.Severity)
		}
		if lspBefore(w.Range.Start, w.Range.End) && (d.EndLine < d.Line || d.EndLine == d.Line && d.EndColumn < d.Column) {
			t.Fatalf("range %+v converted out of order: %d:%d-%d:%d", w.Range, d.Line, d.Column, d.EndLine, d.EndColumn)
		}
		for _, p := range []struct {
			pos       Position
			line, col int
		}{{w.Range.Start, d.Line, d.Column}, {w.Range.End, d.EndLine, d.EndColumn}} {
			if p.line != int(p.pos.Line)+1 {
				t.Fatalf("line %d converted to %d", p.pos.Line, p.line)
			}
			if l, ok := idx.line(int(p.pos.Line)); ok && p.col > utf8.RuneCount(l)+1 {
				t.Fatalf("column %d past the end of line %q (%d characters)", p.col, l, utf8.RuneCount(l))
			}
		}
	}
}

// checkStable checks that v decodes from data, encodes and decodes again
// to the same encoding.
func checkStable[T any](t *testing.T, data []byte) {
	t.Helper()
	var a T
	if json.Unmarshal(data, &a) != nil {
		return
	}
	enc1, err := json.Marshal(a)
	if err != nil {
		t.Fatalf("encoding what was decoded from %q: %v", data, err)
	}
	var b T
	if err := json.Unmarshal(enc1, &b); err != nil {
		t.Fatalf("decoding our own encoding %s: %v", enc1, err)
	}
	if enc2, _ := json.Marshal(b); string(enc2) != string(enc1) {
		t.Fatalf("decode→encode→decode is not stable:\n%s\n%s", enc1, enc2)
	}
}

func FuzzPublishDiagnostics(f *testing.F) {
	params, _ := traceSeeds(f)
	for _, p := range params["textDocument/publishDiagnostics"] {
		f.Add([]byte(p), fuzzText, uint8(1))
	}
	f.Add([]byte(`{"uri":"file:///ws/src/main.rs","version":3,"diagnostics":[{"range":{"start":{"line":1,"character":8},"end":{"line":1,"character":10}},`+
		`"severity":1,"code":"E0308","source":"rustc","message":{"kind":"markdown","value":"mismatched *types*"},"tags":[1],`+
		`"relatedInformation":[{"location":{"uri":"file:///ws/src/main.rs","range":{"start":{"line":2,"character":1},"end":{"line":2,"character":2}}},"message":"here\nand there"}]}]}`),
		fuzzText, uint8(0))
	f.Add([]byte(`{"uri":"file:///ws/src/main.rs","diagnostics":[{"range":{"start":{"line":1,"character":4294967295},"end":{"line":0,"character":0}},"code":2322,"source":"typescript","message":"x"},`+
		`{"range":{"start":{"line":9,"character":3},"end":{"line":9,"character":1}},"severity":9,"code":[1],"message":5}]}`), fuzzText, uint8(2))
	f.Fuzz(func(t *testing.T, params []byte, text string, enc uint8) {
		c, path := fuzzClient(fuzzEncodings[int(enc)%len(fuzzEncodings)], text, true)
		raw := json.RawMessage(params)
		res, err := c.handle(context.Background(), nil, &jsonrpc2.Request{Method: "textDocument/publishDiagnostics", Params: &raw, Notif: true})
		if res != nil || err != nil {
			t.Fatalf("publishDiagnostics answered %v, %v", res, err)
		}
		checkStable[PublishDiagnosticsParams](t, params)
		var p PublishDiagnosticsParams
		if json.Unmarshal(params, &p) != nil {
			if len(c.store.all()) != 0 {
				t.Fatal("a malformed publishDiagnostics was stored")
			}
			return
		}
		if snap := c.store.all()[p.URI]; snap.push == nil || len(snap.push.diagnostics) != len(p.Diagnostics) {
			t.Fatalf("publication for %q not stored as sent: %+v", p.URI, snap.push)
		}
		uri := pathToURI(path)
		checkConverted(t, []byte(text), p.Diagnostics, c.convert(path, uri, p.Diagnostics))
	})
}

// FuzzPosition checks the position conversions against each other: an
// LSP character offset becomes a column within the line, monotonically;
// a column survives the trip to an offset and back; a path survives the
// trip to a file URI and back.
func FuzzPosition(f *testing.F) {
	for _, l := range strings.Split(fuzzText, "\n") {
		f.Add(l, uint32(5), 3, uint8(0), "/ws/src/main.rs")
	}
	f.Add("a😀é=x", uint32(2), 3, uint8(0), "/a b/100%/#x?.go")
	f.Add("\xf0\x9f\x98", uint32(1), 2, uint8(1), "/日本/c")
	f.Add("", uint32(4294967295), 1, uint8(2), "relative")
	f.Fuzz(func(t *testing.T, line string, char uint32, col int, enc uint8, path string) {
		e := fuzzEncodings[int(enc)%len(fuzzEncodings)]
		b := []byte(line)
		n := utf8.RuneCount(b)
		c1 := Column(b, char, e)
		if c1 < 1 || c1 > n+1 {
			t.Fatalf("Column(%q, %d, %s) = %d, outside 1..%d", line, char, e, c1, n+1)
		}
		if char < ^uint32(0) {
			if c2 := Column(b, char+1, e); c2 < c1 {
				t.Fatalf("Column(%q) not monotonic in %s: %d → %d, %d → %d", line, e, char, c1, char+1, c2)
			}
		}
		if col >= 1 && col <= n+1 {
			u := Character(b, col, e)
			if back := Column(b, u, e); back != col {
				t.Fatalf("column %d of %q → %s offset %d → column %d", col, line, e, u, back)
			}
		}
		if !strings.ContainsAny(line, "\r\n") {
			idx := newLineIndex([]byte(line + "\r\n" + line))
			if l, ok := idx.line(1); !ok || string(l) != line {
				t.Fatalf("second line of %q = %q, %v", line+"\r\n"+line, l, ok)
			}
			if p := idx.recode(Position{Line: 0, Character: char}, e, EncodingUTF32); e != EncodingUTF32 && int(p.Character)+1 != c1 {
				t.Fatalf("%s offset %d recoded to utf-32 offset %d, want %d", e, char, p.Character, c1-1)
			}
		}
		if got, err := uriToPath(path); err == nil && (!filepath.IsAbs(got) || filepath.Clean(got) != got) {
			t.Fatalf("uriToPath(%q) = %q: not clean and absolute", path, got)
		}
		if filepath.IsAbs(path) && !strings.ContainsRune(path, 0) {
			uri := pathToURI(path)
			if got, err := uriToPath(uri); err != nil || got != filepath.Clean(path) {
				t.Fatalf("path %q → %q → %q, %v", path, uri, got, err)
			}
		}
	})
}

func FuzzPullReport(f *testing.F) {
	_, results := traceSeeds(f)
	for _, r := range results["textDocument/diagnostic"] {
		f.Add([]byte(r), "", fuzzText, uint8(1))
		f.Add([]byte(r), "prev", fuzzText, uint8(0))
	}
	f.Add([]byte(`{"kind":"unchanged","resultId":"2","relatedDocuments":{"file:///ws/a.rs":{"kind":"full","items":[]},"file:///ws/b.rs":{"kind":"unchanged","resultId":"1"}}}`), "1", fuzzText, uint8(2))
	f.Add([]byte(`null`), "", "", uint8(0))
	f.Add([]byte(`{"kind":"full"}`), "", "", uint8(0))
	f.Fuzz(func(t *testing.T, report []byte, prevID, text string, enc uint8) {
		checkStable[singleReport](t, report)
		var rep documentDiagnosticReport
		if json.Unmarshal(report, &rep) != nil {
			return
		}
		prevItems := []Diagnostic{{Message: json.RawMessage(`"old"`)}}
		prev := pullReport{resultID: prevID, items: prevItems}
		for _, s := range append([]singleReport{rep.report}, mapValues(rep.related)...) {
			r, err := s.resolve(prev)
			switch {
			case s.Kind == "full" && s.Items != nil:
				if err != nil || r.resultID != s.ResultID || len(r.items) != len(*s.Items) {
					t.Fatalf("full report resolved to %+v, %v", r, err)
				}
			case s.Kind == "unchanged" && prevID != "":
				if err != nil || len(r.items) != 1 || string(r.items[0].Message) != `"old"` {
					t.Fatalf("unchanged report resolved to %+v, %v", r, err)
				}
			default:
				if err == nil {
					t.Fatalf("report %+v (previous result %q) resolved without an error", s, prevID)
				}
				continue
			}
			c, path := fuzzClient(fuzzEncodings[int(enc)%len(fuzzEncodings)], text, true)
			checkConverted(t, []byte(text), r.items, c.convert(path, pathToURI(path), r.items))
		}
	})
}

func mapValues[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func FuzzRegistrations(f *testing.F) {
	params, _ := traceSeeds(f)
	for _, p := range params["client/registerCapability"] {
		f.Add([]byte(p), "src/main.rs")
	}
	for _, p := range []string{
		`{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/*.{go,mod}","kind":5},{"globPattern":{"baseUri":"file:///ws/sub","pattern":"[!a-c]?.json"}},{"globPattern":{"baseUri":{"uri":"file:///ws","name":"ws"},"pattern":"**"}}]}}]}`,
		`{"registrations":[{"id":"d1","method":"textDocument/diagnostic","registerOptions":{"identifier":"Pyright","interFileDependencies":true,"documentSelector":[{"language":"python"},{"scheme":"file","pattern":"**/*.pyi"},{"notebook":"jupyter"}]}}]}`,
		`{"registrations":[{"id":"c1","method":"workspace/didChangeConfiguration","registerOptions":{"section":"x"}}]}`,
		`{"unregisterations":[{"id":"w","method":"workspace/didChangeWatchedFiles"}]}`,
		`{"unregistrations":[{"id":"d1"}]}`,
	} {
		f.Add([]byte(p), "/ws/sub/x.json")
	}
	f.Fuzz(func(t *testing.T, params []byte, path string) {
		c, _ := fuzzClient(EncodingUTF16, "", false)
		raw := json.RawMessage(params)
		regs, decodeErr := decodeRegistrations(params)
		res, err := c.handle(context.Background(), nil, &jsonrpc2.Request{Method: "client/registerCapability", Params: &raw})
		var rpcErr *jsonrpc2.Error
		if res != nil || (decodeErr == nil) != (err == nil) || err != nil && (!errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.CodeInvalidParams) {
			t.Fatalf("registerCapability answered %v, %v (decoding: %v)", res, err, decodeErr)
		}
		if decodeErr != nil {
			if len(c.regs.watchers()) != 0 || len(c.regs.pulls()) != 0 {
				t.Fatal("a refused registration was stored")
			}
		}
		var ids []string
		for _, r := range regs {
			if r.id == "" || r.method == "" {
				t.Fatalf("registration without id or method: %+v", r)
			}
			ids = append(ids, r.id)
			for _, w := range r.watchers {
				if w.kind < 1 || w.kind > watchAll || w.pattern == "" || w.base != "" && (!filepath.IsAbs(w.base) || filepath.Clean(w.base) != w.base) {
					t.Fatalf("watcher accepted: %+v", w)
				}
			}
		}
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(c.root, path)
		}
		for _, w := range c.regs.watchers() {
			for _, typ := range []FileChangeType{FileCreated, FileChanged, FileDeleted} {
				if w.matches(abs, typ, c.root) && w.kind&typ.watchKind() == 0 {
					t.Fatalf("watcher %+v matched a change of type %d it did not ask for", w, typ)
				}
			}
		}
		for _, p := range c.regs.pulls() {
			p.applies(abs, "rust", c.root)
		}
		c.regs.remove(ids)
		if len(c.regs.watchers()) != 0 || len(c.regs.pulls()) != 0 {
			t.Fatalf("registrations left after unregistering %q", ids)
		}
		// The same bytes as an unregistration.
		uids, uerr := decodeUnregistrations(params)
		res, err = c.handle(context.Background(), nil, &jsonrpc2.Request{Method: "client/unregisterCapability", Params: &raw})
		if res != nil || (uerr == nil) != (err == nil) {
			t.Fatalf("unregisterCapability answered %v, %v (decoding: %v)", res, err, uerr)
		}
		if slices.Contains(uids, "") {
			t.Fatalf("unregistration of an empty id accepted: %q", uids)
		}
	})
}

// serverRequests are the server-to-client methods FuzzServerRequest sends:
// every one handle knows, and two it does not.
var serverRequests = []string{
	"textDocument/publishDiagnostics", "$/progress", "window/logMessage", "window/showMessage", "telemetry/event",
	"$/logTrace", "$/setTrace", "client/registerCapability", "client/unregisterCapability", "workspace/configuration",
	"workspace/workspaceFolders", "window/workDoneProgress/create", "window/showMessageRequest", "workspace/applyEdit",
	"window/showDocument", "workspace/diagnostic/refresh", "workspace/semanticTokens/refresh", "workspace/inlayHint/refresh",
	"workspace/inlineValue/refresh", "workspace/codeLens/refresh", "workspace/executeCommand", "$/unknown",
}

// FuzzServerRequest sends every server-to-client method with arbitrary
// params, as a request and as a notification: a request always gets a
// result or an error (MethodNotFound for an unknown one), and the answers
// that matter have their shape.
func FuzzServerRequest(f *testing.F) {
	params, _ := traceSeeds(f)
	for i, m := range serverRequests {
		for _, p := range params[m] {
			f.Add(uint8(i), []byte(p), false)
		}
	}
	f.Add(uint8(slices.Index(serverRequests, "workspace/configuration")), []byte(`{"items":[{"section":"rust-analyzer"},{"section":"rust-analyzer.check.command"},{},{"section":"x.y"}]}`), false)
	f.Add(uint8(slices.Index(serverRequests, "workspace/applyEdit")), []byte(`{"edit":{"changes":{"file:///etc/passwd":[]}}}`), false)
	f.Add(uint8(slices.Index(serverRequests, "$/progress")), []byte(`{"token":1,"value":{"kind":"begin","title":"indexing"}}`), true)
	f.Fuzz(func(t *testing.T, method uint8, params []byte, notif bool) {
		c, _ := fuzzClient(EncodingUTF16, "", false)
		m := serverRequests[int(method)%len(serverRequests)]
		raw := json.RawMessage(params)
		res, err := c.handle(context.Background(), nil, &jsonrpc2.Request{Method: m, Params: &raw, Notif: notif})
		var rpcErr *jsonrpc2.Error
		if err != nil && !errors.As(err, &rpcErr) {
			t.Fatalf("%s answered a plain error, not a JSON-RPC one: %v", m, err)
		}
		switch m {
		case "workspace/executeCommand", "$/unknown":
			if !notif && (rpcErr == nil || rpcErr.Code != jsonrpc2.CodeMethodNotFound) {
				t.Fatalf("%s answered %v, %v; want MethodNotFound", m, res, err)
			}
		case "workspace/configuration":
			var p struct {
				Items []json.RawMessage `json:"items"`
			}
			if json.Unmarshal(params, &p) == nil && err == nil {
				if items, ok := res.([]any); !ok || len(items) != len(p.Items) {
					t.Fatalf("configuration of %d items answered %#v", len(p.Items), res)
				}
			}
		case "workspace/applyEdit":
			if b, _ := json.Marshal(res); !strings.Contains(string(b), `"applied":false`) {
				t.Fatalf("applyEdit answered %s", b)
			}
		case "window/showDocument":
			if b, _ := json.Marshal(res); string(b) != `{"success":false}` {
				t.Fatalf("showDocument answered %s", b)
			}
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("%s answered %#v, which does not encode: %v", m, res, err)
		}
		c.Busy()
	})
}

// FuzzTSResponse feeds tsserver's answers, as typescript-language-server's
// pass-through returns them, to decodeTSResponse and tsToLSP.
func FuzzTSResponse(f *testing.F) {
	text := "const s = \"🙂\"; let n: number = s;\n"
	seed := `{"type":"response","success":true,"body":[{"start":{"line":1,"offset":18},"end":{"line":1,"offset":19},` +
		`"text":"Type 'string' is not assignable to type 'number'.","code":2322,"category":"error",` +
		`"relatedInformation":[{"category":"message","code":6500,"message":"declared here","span":{"file":"/ws/src/main.rs","start":{"line":1,"offset":7},"end":{"line":1,"offset":8}}}]},` +
		`{"start":{"line":1,"offset":18},"end":{"line":1,"offset":19},"text":"'n' is declared but never read.","code":6133,"category":"suggestion","reportsUnnecessary":{}},` +
		`{"start":{"line":1,"offset":1},"end":{"line":1,"offset":2},"text":"A note.","category":"message","source":"my-plugin"},` +
		`{"start":{"line":1,"offset":1},"end":{"line":1,"offset":2},"text":"Deprecated.","code":6385,"category":"warning","reportsDeprecated":true}]}`
	for i := range fuzzEncodings {
		f.Add([]byte(seed), text, uint8(i))
	}
	for _, s := range []string{`null`, `{"type":"noContent"}`, `{"type":"noServer"}`, `{"type":"cancelled","reason":"x"}`,
		`{"type":"response","success":false,"message":"Error processing request"}`, `{"type":"response","success":true,"body":null}`,
		`{"type":"response","success":true,"body":[{"start":{"line":0,"offset":1},"end":{"line":1,"offset":1},"text":"x","category":"error"}]}`,
		`{"type":"response","success":true,"body":[{"start":{"line":1,"offset":1},"end":{"line":4294967297,"offset":1},"text":"x","category":"error"}]}`} {
		f.Add([]byte(s), text, uint8(1))
	}
	f.Fuzz(func(t *testing.T, raw []byte, text string, enc uint8) {
		var ds []tsDiagnostic
		err := decodeTSResponse(raw, tsSemantic, &ds)
		if err != nil {
			if !errors.Is(err, errTSUnsupported) && !strings.HasPrefix(err.Error(), "tsserver "+tsSemantic) {
				t.Fatalf("error neither errTSUnsupported nor about the command: %v", err)
			}
			return
		}
		c, path := fuzzClient(fuzzEncodings[int(enc)%len(fuzzEncodings)], text, true)
		items, err := c.tsToLSP(path, ds)
		if err != nil {
			if !errors.Is(err, errTSUnsupported) {
				t.Fatalf("tsToLSP error is not errTSUnsupported: %v", err)
			}
			return
		}
		if len(items) != len(ds) {
			t.Fatalf("%d tsserver diagnostics, %d converted", len(ds), len(items))
		}
		for i, w := range items {
			d := ds[i]
			if w.Severity < 1 || w.Severity > 4 || w.Source == "" {
				t.Fatalf("converted %+v to severity %d, source %q", d, w.Severity, w.Source)
			}
			if m, err := messageString(w.Message); err != nil || m != *d.Text {
				t.Fatalf("message %q became %s", *d.Text, w.Message)
			}
			if int(w.Range.Start.Line) != d.Start.Line-1 || int(w.Range.End.Line) != d.End.Line-1 {
				t.Fatalf("lines %d-%d became %d-%d", d.Start.Line, d.End.Line, w.Range.Start.Line, w.Range.End.Line)
			}
			if (d.Start.Line < d.End.Line || d.Start.Line == d.End.Line && d.Start.Offset <= d.End.Offset) && !lspBefore(w.Range.Start, w.Range.End) {
				t.Fatalf("ordered range %+v-%+v became %+v", *d.Start, *d.End, w.Range)
			}
		}
		checkConverted(t, []byte(text), items, c.convert(path, pathToURI(path), items))
	})
}

// FuzzInitialize answers a client's initialize request with an arbitrary
// result over a pipe: the client either refuses it with an error or takes
// a position encoding it offered and sync options it can act on.
func FuzzInitialize(f *testing.F) {
	_, results := traceSeeds(f)
	for _, r := range results["initialize"] {
		f.Add([]byte(r))
	}
	for _, s := range []string{
		`{"capabilities":{"textDocumentSync":2,"diagnosticProvider":true}}`,
		`{"capabilities":{"positionEncoding":"utf-32","textDocumentSync":{"openClose":true,"change":1,"save":{"includeText":true}},` +
			`"diagnosticProvider":{"identifier":"x","interFileDependencies":false,"workspaceDiagnostics":false,"documentSelector":[{"language":"go"}]},` +
			`"executeCommandProvider":{"commands":["typescript.tsserverRequest"]},"hoverProvider":{},"definitionProvider":false},"serverInfo":{"name":"s","version":"1"}}`,
		`{"capabilities":{"positionEncoding":"utf-7"}}`, `{"capabilities":{"textDocumentSync":{"save":1}}}`, `null`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, result []byte) {
		if !json.Valid(result) {
			return
		}
		cs, ss := net.Pipe()
		defer ss.Close()
		c := newClient(config.Server{Name: "fuzz"}, "/ws", slog.New(slog.NewTextHandler(io.Discard, nil)))
		c.connect(cs)
		defer c.conn.Close()
		served := make(chan error, 1)
		go func() { served <- answerInitialize(ss, result) }()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := c.initialize(ctx)
		if ctx.Err() != nil {
			t.Fatalf("initialize did not return within its deadline: %v", err)
		}
		if err != nil {
			return
		}
		if serr := <-served; serr != nil {
			t.Fatalf("after a successful initialize: %v", serr)
		}
		if !slices.Contains(fuzzEncodings, c.encoding) {
			t.Fatalf("encoding %q accepted", c.encoding)
		}
		for _, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/references", "workspace/symbol"} {
			c.Supports(m)
		}
		for _, p := range c.regs.pulls() {
			p.applies("/ws/a.go", "go", "/ws")
		}
	})
}

// answerInitialize plays the server's side of initialize on conn: it
// answers the initialize request with result and reads the initialized
// notification.
func answerInitialize(conn net.Conn, result []byte) error {
	r := bufio.NewReader(conn)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &req); err != nil {
		return fmt.Errorf("reading initialize: %w", err)
	}
	if req.Method != "initialize" {
		return fmt.Errorf("first message is %q, not initialize", req.Method)
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	if _, err := fmt.Fprintf(conn, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		return fmt.Errorf("answering initialize: %w", err)
	}
	if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &req); err != nil {
		return fmt.Errorf("reading initialized: %w", err)
	}
	if req.Method != "initialized" {
		return fmt.Errorf("message after initialize is %q, not initialized", req.Method)
	}
	return nil
}
