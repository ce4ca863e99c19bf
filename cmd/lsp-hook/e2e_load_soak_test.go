package main_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// TestLoadSoak makes 10,000 edits one after another, each a notify_change
// on a connection of its own after the file was written, as an Edit hook
// sends it: JSON, YAML and TOML files broken and fixed in turn, and every
// 50th edit a Go file, broken and fixed in turn, so gopls answers
// throughout. Half the data files and the Go file are checked with
// only_new, so its memory is in the loop, and a subscriber takes every
// check's published notification. Every answer is checked; the daemon's
// RSS after each 1,000 edits must stay within ±10% of its value after the
// first 1,000.
func TestLoadSoak(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	const edits, every, goEvery = 10000, 1000, 50
	var data []loadFile // one state of each data file, for its path
	for i := range 4 {
		for _, lang := range []string{"json", "yaml", "toml"} {
			data = append(data, loadFileOf(lang, i, false, "shipped"))
		}
	}
	goFile := loadFileOf("go", 0, false, "shipped")
	w := newLoadWorkspace(t, append(slices.Clone(data), goFile))
	// A hook starts the daemon and gopls.
	w.warmHook(t, "first hook", w.edit("s", goFile.rel, goFile.text), goFile)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	// A subscriber counts the notifications it gets, and those it lost.
	var got, dropped atomic.Int64
	subCtx, stopSub := context.WithCancel(ctx)
	subscribed := make(chan struct{})
	var sub sync.WaitGroup
	sub.Go(func() {
		err := wire.Subscribe(subCtx, "e2e-load", wire.StartOptions{Executable: lspHook, Root: w.root, Socket: w.socket()},
			func(wire.HelloResult) { close(subscribed) },
			func(m wire.Published) bool {
				got.Add(1)
				dropped.Add(m.Dropped)
				return true
			})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("subscriber: %v", err)
		}
	})
	defer func() { stopSub(); sub.Wait() }()
	select {
	case <-subscribed:
	case <-time.After(10 * time.Second):
		t.Fatal("the subscription was not in place after 10s")
	}

	bad := make([]bool, len(data)) // each data file's state: broken after odd edits
	goBad, goTimeouts, goEdits, failures := false, 0, 0, 0
	var rss []int64 // after every 1,000 edits, KiB
	begin := time.Now()
	for n := range edits {
		var f loadFile
		stamp := fmt.Sprintf("edit %d", n)
		onlyNew := true
		if n%goEvery == goEvery-1 {
			goBad = !goBad
			f = loadFileOf("go", 0, goBad, stamp)
			goEdits++
		} else {
			i := n % len(data)
			bad[i] = !bad[i]
			f = loadFileOf(data[i].lang, i/3, bad[i], stamp)
			onlyNew = i%2 == 0
		}
		w.writeFile(f.rel, f.text)
		p := wire.NotifyChangeParams{
			Changes: []wire.Change{{Path: f.rel, Mode: wire.ModeEdit}}, Source: "soak", OnlyNew: &onlyNew, Publish: true,
			BudgetMS: int(loadBudget.Milliseconds()), ColdBudgetMS: int(loadColdBudget.Milliseconds()),
		}
		var res wire.Result
		if err := w.rpc(ctx, wire.MethodNotifyChange, p, &res); err != nil {
			t.Fatalf("edit %d (%s): %v", n, f.rel, err)
		}
		if f.lang == "go" && slices.ContainsFunc(res.Servers, func(s wire.ServerResult) bool { return s.Freshness != "fresh" }) {
			goTimeouts++
			t.Logf("edit %d (%s): servers %+v", n, f.rel, res.Servers)
		} else if err := checkResult(f, res); err != nil {
			if failures++; failures <= 10 {
				t.Errorf("edit %d: %v", n, err)
			}
		}
		if (n+1)%every == 0 {
			p, err := w.processStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rss = append(rss, p.RSSKiB)
			t.Logf("after %5d edits (%v): rss %d KiB, heap %d KiB, %d goroutines, %d open fds",
				n+1, time.Since(begin).Round(time.Millisecond), p.RSSKiB, p.HeapKiB, p.Goroutines, p.OpenFDs)
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d answers were wrong", failures, edits)
	}
	// One notification per edit (one changed file each), received or
	// counted as dropped.
	if !pollUntil(10*time.Second, func() bool { return got.Load()+dropped.Load() >= edits }) || got.Load()+dropped.Load() != edits {
		t.Errorf("the subscriber got %d notifications and lost %d, want %d in all", got.Load(), dropped.Load(), edits)
	}
	if goTimeouts*100 > goEdits {
		t.Errorf("%d of %d Go edits got no fresh answer from gopls; at most 1%% may", goTimeouts, goEdits)
	}
	ref := rss[0]
	for i, v := range rss[1:] {
		if v*10 > ref*11 || v*10 < ref*9 {
			t.Errorf("rss after %d edits is %d KiB, more than 10%% from %d KiB after the first %d", (i+2)*every, v, ref, every)
		}
	}
	t.Logf("%d edits (%d Go) in %v; subscriber got %d, lost %d; rss every %d edits (KiB): %v",
		edits, goEdits, time.Since(begin).Round(time.Millisecond), got.Load(), dropped.Load(), every, rss)
}
