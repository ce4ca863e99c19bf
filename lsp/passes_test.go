package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// Tests of the wait for a server's diagnostic passes: a versioned push can
// be fresh and still not the answer. gopls v0.23.0 sometimes publishes a
// changed file under its new version with no diagnostics before the pass
// for that version has run, and the real list only when that pass ends
// (config/catalogue.go, gopls); it reports its passes as work-done
// progress, and Update waits for them to end.

// TestEmptyFirstPublication: fakelsp's empty-first mode publishes every
// change as gopls can, an empty list for the change's version, the real
// one 100 ms later, within a pass reported as progress. With the Edit
// settle window (15 ms), far shorter than the gap, the answer is still the
// real list: the wait lasts until the pass ends. A clean file waits for the
// pass too, and when the real list comes after the deadline the answer is
// Partial, naming the pass, never a fresh "clean".
func TestEmptyFirstPublication(t *testing.T) {
	const gap = 100 * time.Millisecond
	tests := []struct {
		name          string
		gap           time.Duration
		deadline      time.Duration
		text          string
		wantFreshness Freshness
		wantMessages  []string
		wantPending   []string
	}{
		{name: "error", gap: gap, deadline: 5 * time.Second, text: "ok\nERROR(E1): real\n",
			wantFreshness: Fresh, wantMessages: []string{"real"}},
		{name: "clean", gap: gap, deadline: 5 * time.Second, text: "ok\n", wantFreshness: Fresh},
		// Neither pass ends: the server never answered fresh, so the open's
		// pass, still running, counts too.
		{name: "real list after the deadline", gap: time.Hour, deadline: time.Second, text: "ERROR(E1): real\n",
			wantFreshness: Partial, wantPending: []string{"diagnosing didChange", "diagnosing didOpen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tempDir(t)
			path := writeFile(t, dir, "a.fake", tt.text)
			srv := fakelsptest.Server(t, "fake", "empty-first", "-gap="+tt.gap.String())
			c := startClient(context.Background(), t, srv, dir)
			// The first check opens the document (its pass is "diagnosing
			// didOpen"); the second changes it, as an edit does.
			for round := range 2 {
				ctx, cancel := context.WithTimeout(context.Background(), tt.deadline)
				begin := time.Now()
				o := c.Update(ctx, []Doc{{Path: path}}, EditSettle)
				elapsed := time.Since(begin)
				cancel()
				if round == 0 && tt.gap > tt.deadline {
					// Opening has no real list before the deadline either.
					if o.Freshness == Fresh {
						t.Fatalf("open: fresh answer %+v before the pass ended", o)
					}
					continue
				}
				var got []string
				for _, d := range o.Files[path] {
					got = append(got, d.Message)
				}
				t.Logf("round %d: %s in %v, messages %q, pending %q", round, o.Freshness, elapsed.Round(time.Millisecond), got, o.Pending)
				if round == 0 {
					if o.Freshness != Fresh || fmt.Sprint(got) != fmt.Sprint(tt.wantMessages) {
						t.Fatalf("open: %s with %q, want fresh with %q", o.Freshness, got, tt.wantMessages)
					}
					continue
				}
				if o.Freshness != tt.wantFreshness {
					t.Errorf("freshness = %s, want %s (err %v)", o.Freshness, tt.wantFreshness, o.Err)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.wantMessages) {
					t.Errorf("messages = %q, want %q", got, tt.wantMessages)
				}
				if !slices.Equal(o.Pending, tt.wantPending) {
					t.Errorf("pending = %q, want %q", o.Pending, tt.wantPending)
				}
				if tt.wantFreshness == Fresh && elapsed < tt.gap {
					t.Errorf("answered in %v, before the real list (%v after the empty one)", elapsed, tt.gap)
				}
			}
		})
	}
}

// TestGoplsBurstAnswers runs bursts of checks against one gopls: 40 at
// once, four for each of the ten files of one package, half of which have
// a type error, each check with no settle window at all (a fresh answer
// must stand on its own). Every answer is fresh and right: the error for
// a file that has one, nothing for a clean file. Without gopls reporting
// its passes (verboseWorkDoneProgress, config/catalogue.go) and Update
// waiting for them, 9 and 11 of the 400 answers of two runs were an empty
// list for a file with an error: gopls's empty first publication.
func TestGoplsBurstAnswers(t *testing.T) {
	requireServer(t, "gopls")
	const n = 10
	files := map[string]string{"go.mod": "module example.com/burst\n\ngo 1.22\n"}
	for i := range n {
		val := fmt.Sprint(i)
		if i%2 == 0 {
			val = fmt.Sprintf("undef%02d", i)
		}
		files[fmt.Sprintf("file%02d.go", i)] = fmt.Sprintf("package burst\n\n%s// Value%02d is file %02d's value.\nfunc Value%02d() int { return %s }\n",
			strings.Repeat("// padding\n", i), i, i, i, val)
	}
	dir := workspace(t, files)
	path := func(i int) string { return filepath.Join(dir, fmt.Sprintf("file%02d.go", i)) }
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := startClient(ctx, t, config.Default().LSP.Servers["gopls"], dir)
	for i := range n {
		if o := c.Update(ctx, []Doc{{Path: path(i)}}, DefaultSettle); o.Freshness != Fresh {
			t.Fatalf("opening file%02d.go: %+v", i, o)
		}
	}
	var (
		mu      sync.Mutex
		wrong   []string
		answers int
	)
	for round := range 10 {
		var wg sync.WaitGroup
		for k := range 4 * n {
			i := k % n
			delay := time.Duration(rand.IntN(30)) * time.Millisecond
			wg.Go(func() {
				time.Sleep(delay)
				o := c.Update(ctx, []Doc{{Path: path(i)}}, 0)
				ds := o.Files[path(i)]
				want := fmt.Sprintf("undefined: undef%02d", i)
				ok := o.Freshness == Fresh
				if i%2 == 0 {
					ok = ok && len(ds) == 1 && ds[0].Message == want
				} else {
					ok = ok && len(ds) == 0
				}
				mu.Lock()
				defer mu.Unlock()
				answers++
				if !ok {
					wrong = append(wrong, fmt.Sprintf("round %d, file%02d.go: %s, %+v (err %v)", round, i, o.Freshness, ds, o.Err))
				}
			})
		}
		wg.Wait()
	}
	if len(wrong) > 0 {
		t.Errorf("%d of %d answers wrong:\n%s", len(wrong), answers, strings.Join(wrong, "\n"))
	}
}

// TestSettleAfterLateReports plays the race behind a false clean that
// TestGoplsBurstAnswers caught once in 400 answers under make test's load:
// a check reads the server's work in progress, and before it judges the
// documents, gopls's pass for the change begins and its empty first
// publication arrives. The two reads disagree (an answer, and no work
// running); with no settle window the wait's timer was as ready as the
// arrivals, and select took it one time in three, answering the empty
// list fresh. Each round injects the begin and the empty publication
// exactly there (Client.betweenReads): with the real list and the end 50
// ms later, the answer must be the real list every time; with the check's
// budget ending at that moment instead, it must say the pass was still
// running (partial), never fresh.
func TestSettleAfterLateReports(t *testing.T) {
	const rounds = 30
	tests := []struct {
		name          string
		budgetEnds    bool // the check's ctx ends as the reports arrive; the real list never comes
		wantFreshness Freshness
		wantMessages  []string
	}{
		{name: "real list 50 ms later", wantFreshness: Fresh, wantMessages: []string{"real"}},
		{name: "budget ends at once", budgetEnds: true, wantFreshness: Partial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for round := range rounds {
				o, path := lateReportsRound(t, tt.budgetEnds)
				if got := messages(o.Files[path]); o.Freshness != tt.wantFreshness || fmt.Sprint(got) != fmt.Sprint(tt.wantMessages) {
					t.Fatalf("round %d of %d: %s with %q (pending %q), want %s with %q (an empty fresh list is a false clean)",
						round, rounds, o.Freshness, got, o.Pending, tt.wantFreshness, tt.wantMessages)
				}
			}
		})
	}
}

// lateReportsRound is one round of TestSettleAfterLateReports: a client
// of a scripted peer opens a file, answered as gopls answers a didOpen,
// then checks a change while the reports are injected between its reads.
// It returns the change's outcome and the file's path.
func lateReportsRound(t *testing.T, budgetEnds bool) (Outcome, string) {
	t.Helper()
	p, c := newPeer(t, map[string]any{"textDocumentSync": 1}, nil)
	c.server.DoneSignal = config.SignalProgress
	path := writeDoc(t, c, "a.x", "ok\n")
	uri := pathToURI(path)
	progressNote := func(token, kind string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"token": token, "value": map[string]any{"kind": kind, "title": "diagnosing didChange"}})
		return b
	}
	publish := func(v int32, msgs ...string) {
		ds := []Diagnostic{}
		for _, m := range msgs {
			msg, _ := json.Marshal(m)
			ds = append(ds, Diagnostic{Message: msg, Severity: 1})
		}
		c.store.publish(PublishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: ds})
	}
	// The open: a pass reported and ended, then the list; the client has
	// then seen progress and been answered once.
	opened := make(chan Outcome, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		opened <- c.Update(ctx, []Doc{{Path: path}}, 0)
	}()
	p.waitNote(t, func(n note) bool { return n.method == "textDocument/didOpen" })
	c.progress.update(progressNote("open", "begin"))
	publish(1)
	c.progress.update(progressNote("open", "end"))
	if o := <-opened; o.Freshness != Fresh {
		t.Fatalf("open: %+v", o)
	}

	writeDoc(t, c, "a.x", "ok\nbroken\n")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var armed atomic.Bool
	armed.Store(true)
	c.betweenReads = func() {
		if !armed.CompareAndSwap(true, false) {
			return
		}
		c.progress.update(progressNote("change", "begin"))
		publish(2) // gopls's orphaned-file step: the new version, no diagnostics yet
		if budgetEnds {
			cancel()
			return
		}
		go func() {
			time.Sleep(50 * time.Millisecond)
			publish(2, "real")
			c.progress.update(progressNote("change", "end"))
		}()
	}
	return c.Update(ctx, []Doc{{Path: path}}, 0), path
}
