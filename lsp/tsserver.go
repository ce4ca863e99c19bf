package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file pulls TypeScript and JavaScript diagnostics straight from
// tsserver, for a server that passes tsserver requests through
// (typescript-language-server: its initialize result lists the command
// "typescript.tsserverRequest" in executeCommandProvider.commands).
//
// Why: typescript-language-server has no LSP pull, and its pushes cannot be
// told fresh from stale (measured with 5.3.0 and TypeScript 5.9.3; see
// config/catalogue.go). They carry no version; they merge tsserver's
// syntactic, semantic and suggestion lists 50 ms after the last one came in
// (lib/cli.mjs FileDiagnostics.firePublishDiagnostics), so an early partial
// list can pass for the answer and a late one can answer the next change;
// nothing is published when a file's list stays empty (FileDiagnostics.update
// skips an empty list replacing an empty list), so a clean edit of a clean
// file is never answered; tsserver re-checks open files on its own; and the
// first push comes at least 300 ms after a change (LspDocuments.requestDiagnostic
// waits that long before its geterr).
//
// How: after a change, each changed document is pulled with
// workspace/executeCommand {command: "typescript.tsserverRequest",
// arguments: [C, {file, includeLinePosition: false}]} for C =
// syntacticDiagnosticsSync and semanticDiagnosticsSync (and
// suggestionDiagnosticsSync when the config shows hints), sent together.
// typescript-language-server's TSServerRequestCommand.execute(command, args,
// config) hands them to tsserver in the order received, behind the change
// it was sent before them (SingleTsServer's request queue keeps a change, a
// "fence", ahead of later requests), and tsserver answers each for the text
// as of the request: the answer describes the version just sent. It resolves
// to tsserver's whole Response message {seq, type: "response", command,
// request_seq, success, message?, body} (TypeScript's
// src/server/protocol.ts "Response"), which becomes the executeCommand result.
// Both lists together are one pull report under identifier tsIdentifier, so
// the store's freshness rule for pulls applies (judge, freshness.go): a document
// is fresh once its report for the version sent is in.
//
// While this pull is in use, the server's pushes are ignored: they would
// make a document look fresh or overwrite what was pulled. A pass-through
// that turns out not to work (an unknown command, an answer of a shape not
// known here) turns the pull off for the client, and its pushes count again.
//
// Other files: after a change the other open documents are pulled again
// (their types can depend on the changed one). For a change (not a
// preliminary round: tsPullAfterChange's withImporters), the files
// importing a changed one, open or not, are listed with tsserver's
// fileReferences and pulled too, at most tsMaxOthers files in all, and
// Update waits for their answers within its deadline: they are reported in
// Outcome.Others.

// tsserverRequestCommand is typescript-language-server's pass-through
// command (lib/cli.mjs TSServerRequestCommand.ID).
const tsserverRequestCommand = "typescript.tsserverRequest"

// tsIdentifier is the pull identifier tsserver's reports are stored under.
const tsIdentifier = "tsserver"

// tsMaxOthers caps how many other files one change pulls.
const tsMaxOthers = 20

// tsserver commands used here (TypeScript src/server/protocol.ts
// CommandTypes).
const (
	tsSyntactic     = "syntacticDiagnosticsSync"
	tsSemantic      = "semanticDiagnosticsSync"
	tsSuggestion    = "suggestionDiagnosticsSync"
	tsFileReference = "fileReferences"
)

// errTSUnsupported marks a pass-through answer that shows the pull cannot
// work with this server.
var errTSUnsupported = errors.New("tsserver request pass-through not usable")

// tsserverPull is a client's tsserver pull state.
type tsserverPull struct {
	on      atomic.Bool  // the server passes tsserver requests through (set by initialize)
	off     atomic.Bool  // the pass-through does not work: pushes count again
	hints   atomic.Bool  // also pull suggestion diagnostics: the config shows hints
	dropped atomic.Int64 // pushes ignored while the pull was in use
}

// inUse reports whether the pull is on and not turned off.
func (t *tsserverPull) inUse() bool { return t.on.Load() && !t.off.Load() }

// pullHints makes the tsserver pull, when the client uses it, also fetch
// suggestion diagnostics, which are hints; the Manager sets it from the
// config's severity threshold.
func (c *Client) pullHints(on bool) { c.ts.hints.Store(on) }

// tsTurnOff stops the tsserver pull after err showed it cannot work.
func (c *Client) tsTurnOff(err error) {
	if c.ts.off.CompareAndSwap(false, true) {
		c.log.Warn("pulling diagnostics from tsserver does not work with this server; using its pushes", "err", err)
	}
}

// tsPullAfterChange starts the tsserver pulls that follow a change (want:
// URI → version sent) when the client uses them: every changed document,
// then the other files (see the file comment; withImporters adds the
// importers of the changed files). It returns a channel closed once the
// other files' pulls are over, when the answer should wait for them, else
// nil.
func (c *Client) tsPullAfterChange(ctx context.Context, want map[string]int32, withImporters bool) <-chan struct{} {
	if !c.ts.inUse() {
		return nil
	}
	var open []openDoc
	for _, d := range c.openDocuments() {
		if v, changed := want[d.uri]; changed {
			d.version = v
			c.startPull(d, tsIdentifier, false)
		} else {
			open = append(open, d)
		}
	}
	sort.Slice(open, func(i, j int) bool { return open[i].path < open[j].path })
	if !withImporters {
		for _, d := range open[:min(len(open), tsMaxOthers)] {
			c.startPull(d, tsIdentifier, true)
		}
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		others := c.tsOthers(ctx, want, open)
		uris := make([]string, len(others))
		for i, d := range others {
			uris[i] = d.uri
			c.startPull(d, tsIdentifier, true)
		}
		c.store.waitPulled(ctx, uris)
	}()
	return done
}

// tsOthers returns the other files to pull after a change: the open
// documents (open), then the files importing a changed one, in path order,
// at most tsMaxOthers in all. Importers outside the client's root or under
// node_modules are left out: they are not the project's to report.
func (c *Client) tsOthers(ctx context.Context, want map[string]int32, open []openDoc) []openDoc {
	changed := make([]string, 0, len(want))
	for uri := range want {
		if p, err := uriToPath(uri); err == nil {
			changed = append(changed, p)
		}
	}
	refs := make([][]string, len(changed))
	var wg sync.WaitGroup
	for i, p := range changed {
		wg.Go(func() {
			var err error
			if refs[i], err = c.tsImporters(ctx, p); err != nil && ctx.Err() == nil {
				c.log.Warn("listing importers with tsserver", "path", p, "err", err)
			}
		})
	}
	wg.Wait()
	seen := make(map[string]bool, len(want)+len(open))
	for uri := range want {
		seen[uri] = true
	}
	out := make([]openDoc, 0, tsMaxOthers)
	add := func(d openDoc) {
		if !seen[d.uri] && len(out) < tsMaxOthers {
			seen[d.uri] = true
			out = append(out, d)
		}
	}
	for _, d := range open {
		add(d)
	}
	importers := slices.Concat(refs...)
	slices.Sort(importers)
	for _, p := range importers {
		if rel, inside := ws.Rel(c.root, p); !inside || rel == "." || strings.Contains(p, "/node_modules/") {
			continue
		}
		uri := pathToURI(p)
		add(openDoc{uri: uri, path: p, version: c.docVersion(uri)})
	}
	return out
}

// tsImporters returns the files that import path, open or not, as tsserver's
// fileReferences finds them (protocol.ts FileReferencesRequest; its body is
// {refs: FileSpanWithContext[], symbolName}), each once.
func (c *Client) tsImporters(ctx context.Context, path string) ([]string, error) {
	var body struct {
		Refs *[]struct {
			File string `json:"file"`
		} `json:"refs"`
	}
	if err := c.tsserverRequest(ctx, tsFileReference, map[string]any{"file": path}, &body); err != nil {
		return nil, err
	}
	if body.Refs == nil {
		return nil, fmt.Errorf("%w: fileReferences body without refs", errTSUnsupported)
	}
	var out []string
	for _, r := range *body.Refs {
		if p := filepath.Clean(r.File); filepath.IsAbs(p) && p != path && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// tsPullOnce pulls one document's diagnostics from tsserver (the syntactic
// and semantic lists, and the suggestions when hints are shown, requested
// together) and records them as one report for version. It returns the
// report's kind ("full") and its number of diagnostics.
func (c *Client) tsPullOnce(ctx context.Context, key pullKey, version int32) (kind string, n int, err error) {
	path, err := uriToPath(key.uri)
	if err != nil {
		return "", 0, err
	}
	cmds := []string{tsSyntactic, tsSemantic}
	if c.ts.hints.Load() {
		cmds = append(cmds, tsSuggestion)
	}
	// protocol.ts SemanticDiagnosticsSyncRequestArgs: file is a path, not a
	// URI; without includeLinePosition, positions are {line, offset}.
	args := map[string]any{"file": path, "includeLinePosition": false}
	lists := make([][]tsDiagnostic, len(cmds))
	errs := make([]error, len(cmds))
	var wg sync.WaitGroup
	asked := c.sendCount()
	for i, cmd := range cmds {
		wg.Go(func() { errs[i] = c.tsserverRequest(ctx, cmd, args, &lists[i]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		if errors.Is(err, errTSUnsupported) {
			c.tsTurnOff(err)
		}
		return "", 0, err
	}
	items, err := c.tsToLSP(path, slices.Concat(lists...))
	if err != nil {
		c.tsTurnOff(err)
		return "", 0, err
	}
	if version == 0 && c.docVersion(key.uri) != 0 {
		return "dropped: opened meanwhile", 0, nil // its own pull follows the didOpen
	}
	c.store.recordPull(key.uri, tsIdentifier, pullReport{version: version, items: items, asked: asked})
	return "full", len(items), nil
}

// executeCommandParams is LSP 3.17 "ExecuteCommandParams".
type executeCommandParams struct {
	Command   string `json:"command"`
	Arguments []any  `json:"arguments"`
}

// tsserverRequest sends tsserver the request command with args through the
// pass-through and decodes the body of its answer into body.
func (c *Client) tsserverRequest(ctx context.Context, command string, args, body any) error {
	var raw json.RawMessage
	err := c.call(ctx, "workspace/executeCommand", executeCommandParams{
		Command: tsserverRequestCommand, Arguments: []any{command, args},
	}, &raw)
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) && (rpcErr.Code == jsonrpc2.CodeMethodNotFound || rpcErr.Code == jsonrpc2.CodeInvalidParams) {
			return fmt.Errorf("%w: %w", errTSUnsupported, err)
		}
		return fmt.Errorf("tsserver %s: %w", command, err)
	}
	return decodeTSResponse(raw, command, body)
}

// decodeTSResponse decodes what the pass-through returns: tsserver's
// Response {type: "response", success, message?, body} (protocol.ts
// "Response"), or one of typescript-language-server's stand-ins
// {type: "noContent" | "noServer" | "cancelled", reason?} (lib/cli.mjs
// ServerResponse). A successful response's body is decoded into body. Null
// (a command the server does not handle) and any other shape are
// errTSUnsupported; a failed request is an error of its own.
func decodeTSResponse(raw json.RawMessage, command string, body any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return fmt.Errorf("%w: %s %s answered null", errTSUnsupported, tsserverRequestCommand, command)
	}
	var r struct {
		Type    string          `json:"type"`
		Success *bool           `json:"success"`
		Message string          `json:"message"`
		Reason  string          `json:"reason"`
		Body    json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%w: decoding the answer to %s: %v", errTSUnsupported, command, err)
	}
	switch r.Type {
	case "response":
		switch {
		case r.Success == nil:
			return fmt.Errorf("%w: answer to %s without success", errTSUnsupported, command)
		case !*r.Success:
			return fmt.Errorf("tsserver %s failed: %s", command, r.Message)
		case len(r.Body) == 0 || string(r.Body) == "null":
			return fmt.Errorf("%w: answer to %s without a body", errTSUnsupported, command)
		}
		if err := json.Unmarshal(r.Body, body); err != nil {
			return fmt.Errorf("%w: decoding the body of %s: %v", errTSUnsupported, command, err)
		}
		return nil
	case "noContent":
		return fmt.Errorf("tsserver %s: no content", command)
	case "noServer":
		return fmt.Errorf("tsserver %s: tsserver is not running", command)
	case "cancelled":
		return fmt.Errorf("tsserver %s: cancelled: %s", command, r.Reason)
	}
	return fmt.Errorf("%w: answer to %s of type %q", errTSUnsupported, command, r.Type)
}
