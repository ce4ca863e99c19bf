package main_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

// What requestMix.do returns, instead of a method, for a request whose
// method the daemon does not serve, and for one the client gave up on.
const (
	methodUnknown   = "(unknown)"
	methodAbandoned = "(abandoned notify_change)"
)

// requestMix is the traffic of TestLoadRequestsBackToBaseline: request k
// is a notify_change (half of them), diagnostics or status, about one of
// files; or (one in a hundred) a method the daemon does not know; or (one
// in fifty) a notify_change of goFile (clean) whose client hangs up
// without waiting for the answer, as a hook killed by its agent does,
// while gopls is still checking. Each goes on conn when it is not nil and
// on a connection of its own otherwise.
type requestMix struct {
	w      *workspace
	files  []loadFile
	goFile loadFile
}

// abandon sends a notify_change of m.goFile (stamped k) on a connection of
// its own, with no hello, and closes the connection at once.
func (m requestMix) abandon(ctx context.Context, k int) error {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", m.w.socket())
	if err != nil {
		return err
	}
	defer nc.Close()
	f := loadFileOf("go", 0, false, fmt.Sprintf("request %d", k))
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": wire.MethodNotifyChange,
		"params": wire.NotifyChangeParams{Changes: []wire.Change{{Path: f.rel, Content: &f.text}}, Source: "load"}})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(nc, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

// do sends request k and checks its answer; it returns the method sent.
func (m requestMix) do(ctx context.Context, k int, conn *wire.Client) (string, error) {
	call := func(method string, params, result any) error {
		if conn != nil {
			return conn.Call(ctx, method, params, result)
		}
		return m.w.rpc(ctx, method, params, result)
	}
	f := m.files[(k/4)%len(m.files)]
	switch {
	case k%100 == 99: // a method the daemon does not serve, named differently each time
		method := fmt.Sprintf("load/unknown-%d", k)
		var jerr *jsonrpc2.Error
		if err := call(method, struct{}{}, nil); !errors.As(err, &jerr) || jerr.Code != jsonrpc2.CodeMethodNotFound {
			return methodUnknown, fmt.Errorf("%s: %v, want a method-not-found error", method, err)
		}
		return methodUnknown, nil
	case k%50 == 25:
		return methodAbandoned, m.abandon(ctx, k)
	case k%4 < 2:
		ch := wire.Change{Path: f.rel, Mode: wire.ModeEdit}
		if k%4 == 0 { // as a Write event sends it
			text := f.text
			ch.Content, ch.Mode = &text, wire.ModeWrite
		}
		var res wire.Result
		if err := call(wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{ch}, Source: "load"}, &res); err != nil {
			return wire.MethodNotifyChange, err
		}
		return wire.MethodNotifyChange, checkResult(f, res)
	case k%4 == 2:
		p := wire.DiagnosticsParams{}
		if k%8 == 2 {
			p.Paths = []string{f.rel}
		}
		var res wire.Result
		if err := call(wire.MethodDiagnostics, p, &res); err != nil {
			return wire.MethodDiagnostics, err
		}
		if len(res.Files) > 0 || len(res.Notes) > 0 { // validators keep no state; no server runs here
			return wire.MethodDiagnostics, fmt.Errorf("diagnostics %v: files %+v, notes %q", p.Paths, res.Files, res.Notes)
		}
		return wire.MethodDiagnostics, nil
	default:
		var st sidecar.StatusResult
		if err := call(wire.MethodStatus, struct{}{}, &st); err != nil {
			return wire.MethodStatus, err
		}
		if st.Pid == 0 || st.Process == nil {
			return wire.MethodStatus, fmt.Errorf("status without pid or process block: %+v", st)
		}
		return wire.MethodStatus, nil
	}
}

// run sends requests first..first+n-1 from workers goroutines, each
// request on a connection of its own except every fifth, which goes on
// the worker's long-lived connection (closed when the run ends). It
// returns how many of each method were sent, and the first errors.
func (m requestMix) run(ctx context.Context, first, n, workers int) (map[string]int64, []error) {
	var (
		mu   sync.Mutex // guards sent and errs
		sent = make(map[string]int64)
		errs []error
	)
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			conn, err := wire.Dial(ctx, m.w.socket(), "e2e-load")
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			defer conn.Close()
			for k := first + wk; k < first+n; k += workers {
				var c *wire.Client
				if k%5 == 0 {
					c = conn
				}
				method, err := m.do(ctx, k, c)
				mu.Lock()
				sent[method]++
				if err != nil && len(errs) < 10 {
					errs = append(errs, fmt.Errorf("request %d (%s): %w", k, method, err))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return sent, errs
}

// TestLoadRequestsBackToBaseline sends 10,000 requests to one daemon —
// notify_change on JSON and YAML files (half of them with an error),
// diagnostics and status, a few for unknown methods, and a few
// notify_change of a Go file abandoned by their client mid-check; most on
// a connection of their own, as hooks send them; eight at a time — and
// checks that the daemon's goroutines and open file descriptors (status's
// process block) come back to what they were before, and that its
// counters saw every request.
func TestLoadRequestsBackToBaseline(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	var files []loadFile
	for i := range 10 {
		files = append(files, loadFileOf("json", i, i%2 == 0, "shipped"), loadFileOf("yaml", i, i%2 == 0, "shipped"))
	}
	goFile := loadFileOf("go", 0, false, "shipped")
	w := newLoadWorkspace(t, append(slices.Clone(files), goFile))
	// A hook starts the daemon and gopls, as it would for an agent.
	w.warmHook(t, "first hook", w.edit("s", goFile.rel, goFile.text), goFile)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	m := requestMix{w: w, files: files, goFile: goFile}
	const workers, warm, total = 8, 400, 10000
	if _, errs := m.run(ctx, 0, warm, workers); len(errs) > 0 {
		t.Fatalf("warm-up requests failed: %v", errs)
	}
	// The baseline: once the checks the warm-up abandoned are over (a
	// check of the Go file that is waited for comes after them), and two
	// readings agree.
	var res wire.Result
	if err := w.rpc(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: goFile.rel}}}, &res); err != nil {
		t.Fatal(err)
	} else if err := checkResult(goFile, res); err != nil {
		t.Fatal(err)
	}
	var before sidecar.ProcessStats
	var err error
	if !pollUntil(10*time.Second, func() bool {
		prev := before
		before, err = w.processStats(ctx)
		return err == nil && before.Goroutines == prev.Goroutines && before.OpenFDs == prev.OpenFDs
	}) {
		t.Fatalf("the daemon did not settle after the warm-up: %+v, %v", before, err)
	}
	var stBefore sidecar.StatusResult
	if err := w.rpc(ctx, wire.MethodStatus, struct{}{}, &stBefore); err != nil {
		t.Fatal(err)
	}

	// Sample the daemon while the load runs, for the log.
	peak := before
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if p, err := w.processStats(ctx); err == nil {
				peak.Goroutines, peak.OpenFDs = max(peak.Goroutines, p.Goroutines), max(peak.OpenFDs, p.OpenFDs)
				peak.RSSKiB, peak.HeapKiB = max(peak.RSSKiB, p.RSSKiB), max(peak.HeapKiB, p.HeapKiB)
			}
		}
	})
	begin := time.Now()
	sent, errs := m.run(ctx, warm, total, workers)
	elapsed := time.Since(begin)
	close(stop)
	sampler.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	var n int64
	for _, c := range sent {
		n += c
	}
	if n != total {
		t.Fatalf("sent %d requests, want %d", n, total)
	}

	// Goroutines and descriptors come back (allowing for the connection
	// of the status call that measures them, and one still closing).
	const allowGoroutines, allowFDs = 4, 2
	var after sidecar.ProcessStats
	back := pollUntil(20*time.Second, func() bool {
		after, err = w.processStats(ctx)
		return err == nil && after.Goroutines <= before.Goroutines+allowGoroutines && after.OpenFDs <= before.OpenFDs+allowFDs
	})
	t.Logf("%d requests (%v) in %v: daemon goroutines %d before, %d at most during, %d after; open fds %d, %d, %d; rss %d, %d, %d KiB; heap %d, %d, %d KiB",
		n, sent, elapsed.Round(time.Millisecond), before.Goroutines, peak.Goroutines, after.Goroutines,
		before.OpenFDs, peak.OpenFDs, after.OpenFDs, before.RSSKiB, peak.RSSKiB, after.RSSKiB, before.HeapKiB, peak.HeapKiB, after.HeapKiB)
	if err != nil {
		t.Fatal(err)
	}
	if !back {
		t.Errorf("the daemon did not come back to its baseline within 20s: goroutines %d → %d (allowed +%d), open fds %d → %d (allowed +%d)",
			before.Goroutines, after.Goroutines, allowGoroutines, before.OpenFDs, after.OpenFDs, allowFDs)
	}
	var stAfter sidecar.StatusResult
	if err := w.rpc(ctx, wire.MethodStatus, struct{}{}, &stAfter); err != nil {
		t.Fatal(err)
	}
	wantCounts := map[string]int64{
		wire.MethodNotifyChange: sent[wire.MethodNotifyChange] + sent[methodAbandoned],
		wire.MethodDiagnostics:  sent[wire.MethodDiagnostics],
	}
	for method, want := range wantCounts {
		if got := stAfter.Counters[method] - stBefore.Counters[method]; got != want {
			t.Errorf("daemon counted %d %s requests, the test sent %d", got, method, want)
		}
	}
	// Made-up method names are not kept one counter each.
	for name := range stAfter.Counters {
		if strings.HasPrefix(name, "load/") {
			t.Errorf("status has a counter %q: one per made-up method name", name)
			break
		}
	}
}
