package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// This file is section 12, goplsmem (issue 18, "gopls at the peer's size
// or below"): the resident memory of gopls on the same workspace (a copy
// of -module each) under three clients, after one type-error edit of its
// largest file, answered, and the tree idle:
//
//   - lsp-hook: the hook, its daemon's gopls (status names its pid);
//   - plain: gopls started by the bench with a minimal client (initialize
//     with no settings, didOpen of the edited file, wait for its
//     publishDiagnostics naming the error), as startGopls does for
//     section 6: gopls's defaults, nothing asked of it;
//   - the peer's gopls, under its daemon, when the peer is installed.
//
// VmRSS of the gopls process alone (its telemetry child not counted),
// goplsMemRounds rounds of the three, interleaved, each on fresh copies;
// each side's figure is its median round (by VmRSS), since one gopls's
// RSS after the same edit varies by tens of MiB from run to run.

// secGoplsMem is 12: gopls's RSS under lsp-hook, a minimal client and the peer.
const secGoplsMem section = "goplsmem"

// goplsMemRounds is how many rounds of section 12 run.
const goplsMemRounds = 3

// goplsMemResult is section 12: gopls's memory under each client, the
// median round; a procMem with pid 0 was not measured.
type goplsMemResult struct {
	workspace                string
	us                       procMem
	plain                    procMem
	peer                     procMem
	usAll, plainAll, peerAll []procMem // every round's, per side
	notes                    []string  // what went wrong with one side, which did not end the section
}

// medianMem is the round of ms with the median VmRSS (the lower middle
// one of an even count); the zero procMem when ms is empty.
func medianMem(ms []procMem) procMem {
	if len(ms) == 0 {
		return procMem{}
	}
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(a, b procMem) int { return cmp.Compare(a.rss, b.rss) })
	return ms[(len(ms)-1)/2]
}

// goplsMemSection measures section 12 into res.
func (b *bench) goplsMemSection(ctx context.Context, res *goplsMemResult) error {
	b.progressf("12. gopls RSS on copies of %s: lsp-hook, a minimal client, %s", b.opts.module, peerName)
	sides := []struct {
		dir     string
		measure func(context.Context, *workspace) (procMem, error)
		into    *[]procMem
	}{
		{"gm-plain", b.plainGoplsMem, &res.plainAll},
		{"gm-us", b.ourGoplsMem, &res.usAll},
		{"gm-peer", b.peerGoplsMem, &res.peerAll},
	}
	for round := range goplsMemRounds {
		for _, s := range sides {
			dir := fmt.Sprintf("%s-%d", s.dir, round)
			ws, err := b.largeWorkspace(ctx, largeModule{path: b.opts.module, dir: dir})
			if err != nil {
				return fmt.Errorf("preparing %s: %w", dir, err)
			}
			res.workspace = ws.name
			if err := os.WriteFile(ws.target, ws.withDecl(goDecl(1, true)), 0o644); err != nil {
				return err
			}
			m, err := s.measure(ctx, ws)
			if err != nil {
				res.notes = append(res.notes, fmt.Sprintf("%s: %v", dir, err))
				continue
			}
			*s.into = append(*s.into, m)
			// Each gopls stops once measured, so that no round's runs
			// beside the next (the daemons' at the bench's end).
			if s.dir == "gm-peer" {
				res.notes = append(res.notes, b.stopPeer(ctx, ws.dir)...)
			} else {
				res.notes = append(res.notes, b.stopDaemon(ctx, ws)...)
			}
		}
	}
	res.us, res.plain, res.peer = medianMem(res.usAll), medianMem(res.plainAll), medianMem(res.peerAll)
	return nil
}

// ourGoplsMem runs the hook for the edit in ws and reads its daemon's gopls.
func (b *bench) ourGoplsMem(ctx context.Context, ws *workspace) (procMem, error) {
	_, lint, err := b.hook(ctx, ws, ws.target)
	if err != nil {
		return procMem{}, err
	}
	if p := checkLint(ws, lint, ws.declLine(), true); p != "" {
		return procMem{}, errors.New(p)
	}
	b.quiet(ctx, ws)
	row, err := b.memOf(ctx, ws)
	if err != nil {
		return procMem{}, err
	}
	for _, s := range row.servers {
		if s.cmd == "gopls" {
			return s.procMem, nil
		}
	}
	return procMem{}, errors.New("no gopls in lsp-hook status")
}

// peerGoplsMem runs the peer's hook for the edit in ws and reads the gopls
// under its daemon.
func (b *bench) peerGoplsMem(ctx context.Context, ws *workspace) (procMem, error) {
	if b.peer == nil {
		p, err := b.newPeer(ctx, b.opts.peer)
		if err != nil {
			return procMem{}, err
		}
		b.peer = p
	}
	b.peerDirs = append(b.peerDirs, ws.dir)
	a, err := b.peer.hook(ctx, b, ws.dir, claudeEvent(ws.dir, ws.target))
	if err != nil {
		return procMem{}, err
	}
	if p := checkPeer(a, ws.declLine(), true); p != "" {
		return procMem{}, errors.New(p)
	}
	b.peerTree(ctx, ws)
	b.quiet(ctx, ws)
	for pid, cmd := range descendants(ws.pid) {
		if f := strings.Fields(cmd); len(f) > 0 && strings.HasSuffix(f[0], "gopls") {
			if m, ok := readProcMem(pid); ok {
				return m, nil
			}
		}
	}
	return procMem{}, fmt.Errorf("no gopls under %s's daemon (pid %d)", peerName, ws.pid)
}

// plainGoplsMem starts gopls with a minimal client in ws, opens the edited
// file, waits for the diagnostics naming its error, and reads gopls's
// memory once it is idle; then shuts it down.
func (b *bench) plainGoplsMem(ctx context.Context, ws *workspace) (procMem, error) {
	uri, line := fileURI(ws.target), ws.declLine()-1 // LSP lines are 0-based
	found := make(chan struct{})
	var once bool
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method != "textDocument/publishDiagnostics" || req.Params == nil {
			return answerGopls(ctx, c, req)
		}
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Range struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
			} `json:"diagnostics"`
		}
		if json.Unmarshal(*req.Params, &p) != nil || p.URI != uri || once {
			return nil, nil
		}
		for _, d := range p.Diagnostics {
			if d.Range.Start.Line == line && !once {
				once = true // the connection calls the handler from one goroutine
				close(found)
			}
		}
		return nil, nil
	})
	g, err := startGoplsWith(ctx, ws.dir, b.env, h)
	if err != nil {
		return procMem{}, err
	}
	defer g.close()
	if err := g.open(ctx, ws.target); err != nil {
		return procMem{}, err
	}
	select {
	case <-found:
	case <-time.After(childTimeout):
		return procMem{}, fmt.Errorf("gopls published no diagnostic on line %d of %s in %s", line+1, ws.target, childTimeout)
	case <-ctx.Done():
		return procMem{}, ctx.Err()
	}
	ws.peer, ws.pid = true, g.child.Pid() // quiet watches this pid, not an lsp-hook daemon
	b.quiet(ctx, ws)
	m, ok := readProcMem(g.child.Pid())
	ws.peer, ws.pid = false, 0
	if !ok {
		return procMem{}, errors.New("reading the plain gopls's memory")
	}
	return m, nil
}
