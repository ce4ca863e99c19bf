package lsp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestOvertakenChecks plays, with real servers, the races in which a
// check's text stops being the file's before the check returns, and judges
// every answer by the compiler on the texts in play (depServerCases: a
// callee whose change breaks its importers):
//
//   - a torn read: the check's text was read from the file while a write
//     was half done (here the empty file a truncating write leaves), and
//     the file holds the whole text by the time the check ends. Before
//     judgeAgain, the server's fresh answer about the empty text went out
//     as the file's state: pyright listed every importer's names as
//     unknown (the soak's stale, seed 710787352825584129).
//   - an older text read from the file and checked, and a newer text
//     written and checked 0 ms to 1 s later: the newer check answers
//     fresh, with the compiler's errors on the newer text in the
//     importers; the older check answers only for its own text, with the
//     compiler's errors on it, or says it was superseded and lists no
//     other file.
func TestOvertakenChecks(t *testing.T) {
	for _, c := range depServerCases {
		t.Run(c.server, func(t *testing.T) {
			requireServer(t, c.exe)
			dir := workspace(t, c.files)
			callee := filepath.Join(dir, filepath.FromSlash(c.callee))
			texts := []string{c.files[c.callee], c.changed}
			truth := make([]map[string][]string, len(texts))
			for i, text := range texts {
				writeFile(t, dir, c.callee, text)
				truth[i] = c.compiler(t, dir)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
			defer cancel()
			cl := startClient(ctx, t, catalogueServer(t, c.server), dir)
			if o := cl.Update(ctx, []Doc{{Path: callee}}, DefaultSettle); o.Freshness != Fresh {
				t.Fatalf("warm-up: %s, %v", o.Freshness, o.Err)
			}

			for round := range 4 {
				now := (round + 1) % 2 // the text on disk
				writeFile(t, dir, c.callee, texts[now])
				rctx, rcancel := context.WithTimeout(ctx, 10*time.Second) // a hook's budget
				o := cl.Update(rctx, []Doc{{Path: callee, Text: []byte{}, FromDisk: true}}, DefaultSettle)
				rcancel()
				if !errors.Is(o.Err, ErrSuperseded) || len(o.Files) > 0 || len(o.Others) > 0 {
					t.Errorf("round %d, torn read: %s, %v, files %v, others %v; want superseded, nothing listed",
						round, o.Freshness, o.Err, slices.Collect(maps.Keys(o.Files)), othersAt(t, dir, o))
				}
			}

			for round := range 8 {
				older, newer := round%2, (round+1)%2
				gap := []time.Duration{0, 14, 100, 1000}[round/2] * time.Millisecond
				writeFile(t, dir, c.callee, texts[older])
				var outs [2]Outcome
				var wg sync.WaitGroup
				rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
				wg.Go(func() { // the older hook read the file before the newer write
					outs[0] = cl.Update(rctx, []Doc{{Path: callee, Text: []byte(texts[older]), FromDisk: true}}, DefaultSettle)
				})
				time.Sleep(gap)
				writeFile(t, dir, c.callee, texts[newer])
				wg.Go(func() { outs[1] = cl.Update(rctx, []Doc{{Path: callee}}, DefaultSettle) })
				wg.Wait()
				rcancel()
				if o := outs[1]; o.Freshness != Fresh {
					t.Errorf("round %d (gap %v), newer check: %s, %v; want fresh", round, gap, o.Freshness, o.Err)
				} else if p := judgeOthers(dir, c.deps, o, truth[newer]); p != "" {
					t.Errorf("round %d (gap %v), newer check: %s", round, gap, p)
				}
				switch o := outs[0]; {
				case errors.Is(o.Err, ErrSuperseded):
					if len(o.Files) > 0 || len(o.Others) > 0 {
						t.Errorf("round %d (gap %v), older check superseded, yet lists %v and %v", round, gap,
							slices.Collect(maps.Keys(o.Files)), othersAt(t, dir, o))
					}
				case o.Freshness == Fresh:
					if p := judgeOthers(dir, c.deps, o, truth[older]); p != "" {
						t.Errorf("round %d (gap %v), older check, fresh: %s", round, gap, p)
					}
				default:
					t.Errorf("round %d (gap %v), older check: %s, %v; want fresh or superseded", round, gap, o.Freshness, o.Err)
				}
				t.Logf("round %d (gap %v): older check %s (%v), newer %s", round, gap, outs[0].Freshness, outs[0].Err, outs[1].Freshness)
			}
		})
	}
}

// judgeOthers compares o's errors in each of deps (relative paths) with
// the compiler's (truth: relative path → sorted "line:col"), and returns
// what differs, or "".
func judgeOthers(dir string, deps []string, o Outcome, truth map[string][]string) string {
	var out string
	for _, rel := range deps {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if got := positions(o.Others[p]); !slices.Equal(got, truth[rel]) {
			out += fmt.Sprintf("%s errors at %v, the compiler's at %v; ", rel, got, truth[rel])
		}
	}
	return out
}

// othersAt is o.Others' files relative to dir, sorted, with their errors'
// positions.
func othersAt(t *testing.T, dir string, o Outcome) map[string][]string {
	out := make(map[string][]string)
	for p, ds := range o.Others {
		out[relAll(t, dir, []string{p})[0]] = positions(ds)
	}
	return out
}
