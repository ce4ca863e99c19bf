package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
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
// VmRSS of the gopls process alone (its telemetry child not counted).

// secGoplsMem is 12: gopls's RSS under lsp-hook, a minimal client and the peer.
const secGoplsMem section = "goplsmem"

// goplsMemResult is section 12: gopls's memory under each client; a
// procMem with pid 0 was not measured.
type goplsMemResult struct {
	workspace string
	us        procMem
	plain     procMem
	peer      procMem
	notes     []string // what went wrong with one side, which did not end the section
}

// goplsMemSection measures section 12 into res.
func (b *bench) goplsMemSection(ctx context.Context, res *goplsMemResult) error {
	b.progressf("12. gopls RSS on copies of %s: lsp-hook, a minimal client, %s", b.opts.module, peerName)
	sides := []struct {
		dir     string
		measure func(context.Context, *workspace) (procMem, error)
		into    *procMem
	}{
		{"gm-plain", b.plainGoplsMem, &res.plain},
		{"gm-us", b.ourGoplsMem, &res.us},
		{"gm-peer", b.peerGoplsMem, &res.peer},
	}
	for _, s := range sides {
		ws, err := b.largeWorkspace(ctx, largeModule{path: b.opts.module, dir: s.dir})
		if err != nil {
			return fmt.Errorf("preparing %s: %w", s.dir, err)
		}
		res.workspace = ws.name
		if err := os.WriteFile(ws.target, ws.withDecl(goDecl(1, true)), 0o644); err != nil {
			return err
		}
		m, err := s.measure(ctx, ws)
		if err != nil {
			res.notes = append(res.notes, fmt.Sprintf("%s: %v", s.dir, err))
			continue
		}
		*s.into = m
	}
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
