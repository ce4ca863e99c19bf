package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
)

// This file is section 10, write (issue 18): a Write event against an Edit
// event for the same Go type error, on a copy of testdata/langs/go. Each
// run writes a type error and calls the hook with one kind of event, timed,
// then writes its fix and calls the hook with the same kind, untimed, so
// every timed call goes from a clean file to the same error. The kinds
// alternate which goes first. lsp-hook's answer to a Write lists the other
// files a change broke too (README: other_files), so it may wait longer.

// secWrite is 10: a Write event vs an Edit event, same Go type error.
const secWrite section = "write"

// writeResult is section 10.
type writeResult struct {
	ws          *workspace
	edit, write row // the hook's wall time for the type error, per event kind
}

// writeEvent is the PostToolUse event Claude Code sends after its Write
// tool wrote content to path.
func writeEvent(cwd, path string, content []byte) []byte {
	ev := map[string]any{
		"session_id":      "lsp-hook-bench",
		"cwd":             cwd,
		"hook_event_name": "PostToolUse",
		"tool_name":       "Write",
		"tool_input":      map[string]any{"file_path": path, "content": string(content)},
		"tool_response":   map[string]any{"filePath": path, "type": "update"},
	}
	data, err := json.Marshal(ev)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return data
}

// writeSection measures section 10 into res.
func (b *bench) writeSection(ctx context.Context, res *writeResult) error {
	spec := langSpecs[0] // Go
	b.progressf("10. a Write event vs an Edit event, same Go type error (1 + %d runs each)", b.opts.langN)
	ws, err := b.langCopy(ctx, spec, "write-go")
	if err != nil {
		return err
	}
	defer os.WriteFile(ws.target, ws.orig, 0o644)
	res.ws = ws
	res.edit = row{label: "hook for an Edit event (type error)", firstNote: "daemon + gopls start"}
	res.write = row{label: "hook for a Write event (type error)", firstNote: "after the Edit's first touch"}
	for i := 0; i <= b.opts.langN; i++ {
		kinds := []bool{false, true} // write?
		if i%2 == 1 {
			kinds[0], kinds[1] = kinds[1], kinds[0]
		}
		for _, write := range kinds {
			r := &res.edit
			if write {
				r = &res.write
			}
			if err := b.writeRun(ctx, ws, spec, r, i, write); err != nil {
				return fmt.Errorf("run %d: %w", i, err)
			}
		}
	}
	return nil
}

// writeRun is one type error then its fix, the hook called for each with
// the event kind write says; the type error's call is recorded as run i.
func (b *bench) writeRun(ctx context.Context, ws *workspace, spec langSpec, r *row, i int, write bool) error {
	line := ws.declLine()
	for _, broken := range []bool{true, false} {
		b.quiet(ctx, ws)
		n := 2*i + 1
		if write {
			n += 10000
		}
		content := ws.withDecl(spec.decl(n, broken))
		if err := os.WriteFile(ws.target, content, 0o644); err != nil {
			return err
		}
		event := claudeEvent(ws.dir, ws.target)
		if write {
			event = writeEvent(ws.dir, ws.target, content)
		}
		ws.daemon = true
		wall, lint, err := b.hookEvent(ctx, ws.dir, event)
		if err != nil {
			return err
		}
		problem := checkLint(ws, lint, line, broken)
		switch {
		case broken:
			r.record(i, wall, problem)
		case problem != "": // the fix's call is not timed, but its answer is judged
			r.bad++
			if r.badNote == "" {
				r.badNote = fmt.Sprintf("run %d, the fix: %s", i, problem)
			}
		}
	}
	return nil
}

// ratio is the Write's p50 over the Edit's.
func (res *writeResult) ratio() float64 { return ratio(res.write.s, res.edit.s) }

// goalWriteRatio: a Write costs at most 1.2 × an Edit, p50 (issue 18).
const goalWriteRatio = 1.2
