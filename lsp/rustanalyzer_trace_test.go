package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// rust-analyzer cannot be installed where these tests run, so its behaviour
// is covered by replaying testdata/traces/rust-analyzer/trace.json, a trace
// reconstructed from its source (see that directory's README), with
// testdata/fakelsp -mode=replay standing in for the server under the
// catalogue's rust-analyzer entry.

const (
	raCargoToml = "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"
	// raClean and raBroken are the versions of src/main.rs the trace
	// expects; in raBroken the literal "naïve" on line 2 starts at byte 22,
	// which is where the trace's diagnostics (UTF-8 columns) put it.
	raClean  = "fn main() {\n    let 价格 = \"naïve\";\n    println!(\"{价格}\");\n}\n"
	raBroken = "fn main() {\n    let 价格: u32 = \"naïve\";\n    println!(\"{价格}\");\n}\n"
)

// The diagnostics of raBroken, as describe renders them: 1-based lines and
// code-point columns.
const (
	raNative    = "2:19-2:26 error rust-analyzer E0308 \"expected u32, found &'static str\""
	raRustc     = "2:19-2:26 error rustc E0308 \"mismatched types\\nexpected `u32`, found `&str` (see src/main.rs:2:13: expected due to this)\""
	raRustcHint = "2:13-2:16 hint rustc E0308 \"expected due to this (see src/main.rs:2:19: original diagnostic)\""
)

// flycheckWait bounds the wait for a cargo check the trace finishes 1200 ms
// after a save.
const flycheckWait = 5 * time.Second

// TestRustAnalyzerTrace runs the manager against the replayed
// rust-analyzer through five versions of src/main.rs: clean, broken, fixed,
// broken, fixed. It checks that the client answers the server's requests,
// negotiates utf-8, pulls under the identifier "rust-analyzer", converts
// both the pulled native E0308 and the pushed rustc E0308 to exact columns
// after non-ASCII text, and never shows a rustc diagnostic of an older
// version as current.
//
// rust-analyzer pushes cargo check's diagnostics when cargo finishes, after
// the save, while the pull answers at once: a check waits for the cargo
// check its change set off (its $/progress), and one that outlasts the
// deadline is partial and names it; what cargo check pushes later for an
// older version is not shown.
func TestRustAnalyzerTrace(t *testing.T) {
	if got := strings.Index(strings.Split(raBroken, "\n")[1], `"naïve"`); got != 22 {
		t.Fatalf("raBroken's literal starts at byte %d; trace.json says 22", got)
	}
	dir := tempDir(t)
	s := &raSession{dir: dir, main: filepath.Join(dir, "src", "main.rs"), trace: filepath.Join(t.TempDir(), "trace")}
	writeFile(t, dir, "Cargo.toml", raCargoToml)
	s.m = NewManager(raReplayConfig(t, s.trace), dir, testLogger(t))
	defer s.m.Shutdown()
	// Each step expects the versions the steps before it synced.
	for _, step := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"open clean", s.openClean},
		{"watched files registered", s.watchedFiles},
		{"configuration answered", s.configuration},
		{"type error", s.typeError},
		{"fix", s.fix},
		{"type error again", s.typeErrorAgain},
		{"fix before cargo check ends", s.fixBeforeCargoCheckEnds},
		{"every server request answered", s.requestsAnswered},
	} {
		if !t.Run(step.name, step.run) {
			return
		}
	}
}

// openClean opens the clean version 1: fresh through the pull, sent under
// the identifier rust-analyzer, in the utf-8 encoding it negotiated.
func (s *raSession) openClean(t *testing.T) {
	uri := pathToURI(s.main)
	o := s.check(t, raClean, 1)
	if ds, ok := o.Files[s.main]; !ok || len(ds) != 0 {
		t.Errorf("files = %+v, want src/main.rs fresh and clean", o.Files)
	}
	if enc := s.client(t).encoding; enc != EncodingUTF8 {
		t.Errorf("negotiated %q, want utf-8 (rust-analyzer takes it when offered)", enc)
	}
	s.waitTrace(t, "textDocument/diagnostic "+uri+" version=1 identifier=rust-analyzer ")
}

// watchedFiles changes Cargo.toml on disk: the registration rust-analyzer
// made (relative patterns with a brace glob, **/Cargo.{lock,toml}) took.
func (s *raSession) watchedFiles(t *testing.T) {
	writeFile(t, s.dir, "Cargo.toml", raCargoToml+"\n")
	s.waitTrace(t, "workspace/didChangeWatchedFiles "+pathToURI(filepath.Join(s.dir, "Cargo.toml"))+" type=")
}

// configuration sends didChangeConfiguration, which lsp-hook itself never
// does and after which alone rust-analyzer asks workspace/configuration, to
// see the answer.
func (s *raSession) configuration(t *testing.T) {
	if err := s.client(t).notify("workspace/didChangeConfiguration", map[string]any{"settings": nil}); err != nil {
		t.Fatal(err)
	}
	s.waitTrace(t, `response `, `workspace/configuration [{"checkOnSave":true}]`)
}

// typeError checks version 2: the check waits for the cargo check the
// didSave set off (its $/progress began after the change), so the answer
// holds the pulled native E0308 and rustc's E0308 with its hint, at exact
// columns, and the server is idle when it returns.
func (s *raSession) typeError(t *testing.T) {
	o := s.check(t, raBroken, 2)
	if got, want := describe(o.Files[s.main]), []string{raRustcHint, raRustc, raNative}; !sameSet(got, want) {
		t.Errorf("answer = %q, want %q", got, want)
	}
	if got, want := describe(diag.Filter(o.Files[s.main], diag.SeverityError)), []string{raRustc, raNative}; !sameSet(got, want) {
		t.Errorf("lint-relevant = %q, want %q", got, want)
	}
	if len(o.Pending) != 0 || len(s.busy()) != 0 {
		t.Errorf("pending = %q, busy = %q after the answer, want cargo check done", o.Pending, s.busy())
	}
}

// fix checks version 3: the rustc E0308 pushed for version 2, still held,
// is not shown, and cargo check of the fix clears it.
func (s *raSession) fix(t *testing.T) {
	uri := pathToURI(s.main)
	o := s.check(t, raClean, 3)
	if ds, ok := o.Files[s.main]; !ok || len(ds) != 0 {
		t.Errorf("answer = %q, want fresh and clean", describe(ds))
	}
	s.waitTrace(t, "send textDocument/publishDiagnostics "+uri+" version=3 diagnostics=0")
	if !eventually(time.Second, func() bool { return len(s.m.Current()[s.main]) == 0 }) {
		t.Errorf("current = %q after cargo check of the fix", describe(s.m.Current()[s.main]))
	}
}

// typeErrorAgain checks version 4, whose cargo check runs until version 5
// comes: past the deadline, so the answer is partial, names the running
// cargo check, and holds the pulled native E0308.
func (s *raSession) typeErrorAgain(t *testing.T) {
	o := s.checkWant(t, raBroken, 4, Partial)
	if got := describe(o.Files[s.main]); !slices.Equal(got, []string{raNative}) {
		t.Errorf("answer = %q, want only the pulled native E0308", got)
	}
	if !slices.Contains(o.Pending, "cargo check") {
		t.Errorf("pending = %q, want cargo check", o.Pending)
	}
}

// fixBeforeCargoCheckEnds checks version 5: cargo check of version 4 ends
// as it arrives, and its E0308, tagged version 4, reaches the client after
// version 5 was sent, ahead of the pull's answer on the same stream. It is
// not shown.
func (s *raSession) fixBeforeCargoCheckEnds(t *testing.T) {
	uri := pathToURI(s.main)
	o := s.check(t, raClean, 5)
	if ds, ok := o.Files[s.main]; !ok || len(ds) != 0 {
		t.Errorf("answer = %q, want fresh and clean: the late push is for version 4", describe(ds))
	}
	lines := traceLines(t, s.trace, "")
	changed := slices.Index(lines, "textDocument/didChange "+uri+" version=5")
	pushed := slices.Index(lines, "send textDocument/publishDiagnostics "+uri+" version=4 diagnostics=2")
	if changed < 0 || pushed < changed {
		t.Errorf("version 4's push (line %d) not sent after didChange 5 (line %d)", pushed, changed)
	}
	s.waitTrace(t, "send textDocument/publishDiagnostics "+uri+" version=5 diagnostics=0")
	if !eventually(time.Second, func() bool { return len(s.m.Current()[s.main]) == 0 && len(s.busy()) == 0 }) {
		t.Errorf("current = %q, busy = %q after cargo check of the fix", describe(s.m.Current()[s.main]), s.busy())
	}
}

// requestsAnswered checks that the client answered every server request
// and sent nothing the trace does not script.
func (s *raSession) requestsAnswered(t *testing.T) {
	s.checkAnswers(t)
	if bad := append(traceLines(t, s.trace, "unscripted"), traceLines(t, s.trace, "bad-rule")...); len(bad) > 0 {
		t.Errorf("the client sent what the trace does not script: %q", bad)
	}
}

// raReplayConfig returns the default config with only the catalogue's
// rust-analyzer entry, run as the replay fake, with settings to answer
// workspace/configuration from.
func raReplayConfig(t *testing.T, traceFile string) *config.Config {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "testdata", "traces", "rust-analyzer", "trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	srv, ok := cfg.LSP.Servers["rust-analyzer"]
	if !ok {
		t.Fatal("no rust-analyzer in the catalogue")
	}
	srv.Command = []string{fakelsptest.Bin(t), "-mode=replay", "-script=" + script, "-trace=" + traceFile}
	srv.Settings = map[string]any{"rust-analyzer": map[string]any{"checkOnSave": true}}
	cfg.LSP.Servers = map[string]config.Server{"rust-analyzer": srv}
	cfg.LSP.Timeout, cfg.LSP.FirstTouchTimeout = 3*time.Second, 5*time.Second
	return cfg
}

// raSession is the workspace, manager and fake trace file of one run.
type raSession struct {
	m     *Manager
	dir   string
	main  string // src/main.rs
	trace string // the fake's -trace file
}

// check writes text to src/main.rs, as an agent's edit does, checks it
// with the default settle, and returns the one outcome, which must be fresh
// and have synced the document at version, the one the trace expects.
func (s *raSession) check(t *testing.T, text string, version int) Outcome {
	t.Helper()
	return s.checkWant(t, text, version, Fresh)
}

// checkWant is check with the freshness the answer must have.
func (s *raSession) checkWant(t *testing.T, text string, version int, want Freshness) Outcome {
	t.Helper()
	writeFile(t, s.dir, "src/main.rs", text)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	begin := time.Now()
	out := s.m.Check(ctx, []Doc{{Path: s.main}}, 0)
	t.Logf("version %d: %s in %v (err %v)", version, outFreshness(out), time.Since(begin).Round(time.Millisecond), outErr(out))
	if len(out) != 1 || out[0].Server != "rust-analyzer" || out[0].Root != s.dir {
		t.Fatalf("outcomes = %+v, want one, rust-analyzer at %s", out, s.dir)
	}
	if out[0].Freshness != want {
		t.Errorf("freshness = %s, want %s (err %v, pending %q)", out[0].Freshness, want, out[0].Err, out[0].Pending)
	}
	method := "textDocument/didChange"
	if version == 1 {
		method = "textDocument/didOpen"
	}
	if want := fmt.Sprintf("%s %s version=%d", method, pathToURI(s.main), version); !slices.Contains(traceLines(t, s.trace, method), want) {
		t.Fatalf("the fake never got %q; its trace: %q", want, traceLines(t, s.trace, "textDocument/did"))
	}
	return out[0]
}

// client returns the running rust-analyzer client.
func (s *raSession) client(t *testing.T) *Client {
	t.Helper()
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	for k, e := range s.m.entries {
		if c := e.readyClient(); k.server == "rust-analyzer" && c != nil {
			return c
		}
	}
	t.Fatal("rust-analyzer is not running")
	return nil
}

// busy returns the titles of the server's work in progress, as status
// shows them.
func (s *raSession) busy() []string {
	for _, st := range s.m.Status() {
		if st.Name == "rust-analyzer" {
			return st.Busy
		}
	}
	return nil
}

// waitTrace waits until a line of the fake's trace starts with prefix and
// contains every one of parts.
func (s *raSession) waitTrace(t *testing.T, prefix string, parts ...string) {
	t.Helper()
	found := func() bool {
		for _, l := range traceLines(t, s.trace, prefix) {
			if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(l, p) }) {
				return true
			}
		}
		return false
	}
	if !eventually(flycheckWait, found) {
		t.Fatalf("no trace line %q %q; trace:\n%s", prefix, parts, strings.Join(traceLines(t, s.trace, ""), "\n"))
	}
}

// checkAnswers checks that every request the fake sent was answered with a
// result, null for all but workspace/configuration.
func (s *raSession) checkAnswers(t *testing.T) {
	t.Helper()
	sent := make(map[string]string) // id → method
	for _, l := range traceLines(t, s.trace, "send request ") {
		f := strings.Fields(l)
		sent[f[2]] = f[3]
	}
	answered := func() map[string]string {
		out := make(map[string]string) // id → "METHOD RESULT"
		for _, l := range traceLines(t, s.trace, "response ") {
			id, rest, _ := strings.Cut(strings.TrimPrefix(l, "response "), " ")
			out[id] = rest
		}
		return out
	}
	if !eventually(2*time.Second, func() bool { return len(answered()) >= len(sent) }) {
		t.Errorf("%d requests sent, %d answered", len(sent), len(answered()))
	}
	got := answered()
	counts := make(map[string]int)
	for id, method := range sent {
		counts[method]++
		want := method + " null"
		if method == "workspace/configuration" {
			want = method + ` [{"checkOnSave":true}]`
		}
		if got[id] != want {
			t.Errorf("request %s (%s) answered %q, want %q", id, method, got[id], want)
		}
	}
	t.Logf("requests answered: %v", counts)
	for _, m := range []string{"window/workDoneProgress/create", "client/registerCapability", "workspace/diagnostic/refresh", "workspace/configuration"} {
		if counts[m] == 0 {
			t.Errorf("the trace sent no %s", m)
		}
	}
}

// describe renders diagnostics as "LINE:COL-ENDLINE:ENDCOL severity source
// code message", in order.
func describe(ds []diag.Diagnostic) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s %s %q", d.Line, d.Column, d.EndLine, d.EndColumn, d.Severity, d.Source, d.Code, d.Message))
	}
	return out
}

// sameSet reports whether a and b hold the same strings in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
