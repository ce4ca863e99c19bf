package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// This file is the client side of LSP 3.17 "Pull Diagnostics": for a server
// that declared diagnosticProvider in its initialize result, or registered
// "textDocument/diagnostic" (possibly several times, under different
// identifiers), every change of a document is followed by one
// textDocument/diagnostic request per identifier, sent in parallel with the
// wait for pushed diagnostics. Each request carries the previousResultId of
// the last answer for that (document, identifier); an "unchanged" answer
// means the items of that answer still hold. A document is fresh when a
// push for its version arrived or every pull sent for it has been answered
// and one of them for its version succeeded (judge, freshness.go).
//
// When a source declares interFileDependencies, the other open documents
// are pulled again after a change too: their results can change with it.
// workspace/diagnostic/refresh pulls every open document again; a pull
// still running when either happens is followed by another once answered,
// and the document counts as fresh only after that one. A pull that
// fails is retried once when the server asks for it (ServerCancelled with
// retriggerRequest) or the document is unchanged since (ContentModified),
// else dropped with a log line: it never fails a check.

// pullTimeout bounds one pull that nothing supersedes.
const pullTimeout = 30 * time.Second

// JSON-RPC error codes of LSP 3.17 "ErrorCodes" that a pull can meet.
const (
	codeServerCancelled  = -32802
	codeContentModified  = -32801
	codeRequestCancelled = -32800
)

// pullKey names the pull state of one document under one identifier.
type pullKey struct{ uri, identifier string }

// pullInFlight is a pull sent and not yet answered. again (guarded by
// Client.pullMu) asks for one more pull of the same version once it is
// answered: a refresh or another change arrived while it ran, so its answer
// may describe the state from before.
type pullInFlight struct {
	version int32
	cancel  context.CancelFunc
	again   bool
}

// openDoc is what a pull needs to know about an open document.
type openDoc struct {
	uri, path, langID string
	version           int32
}

// openDocuments returns every open document.
func (c *Client) openDocuments() []openDoc {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]openDoc, 0, len(c.docs))
	for uri, d := range c.docs {
		out = append(out, openDoc{uri: uri, path: d.path, langID: d.langID, version: d.version})
	}
	return out
}

// pullAfterChange starts the pulls that follow a change: every source for
// every changed document (want: URI → version sent), and, when a source has
// inter-file dependencies, every other open document under it. It does not
// wait for answers.
func (c *Client) pullAfterChange(want map[string]int32) {
	sources := c.regs.pulls()
	if len(sources) == 0 {
		return
	}
	docs := c.openDocuments()
	// The changed documents first: their answers are the ones waited for.
	for _, changedPass := range []bool{true, false} {
		for _, d := range docs {
			v, changed := want[d.uri]
			if changed != changedPass {
				continue
			}
			for _, src := range sources {
				if !src.applies(d.path, d.langID, c.root) {
					continue
				}
				switch {
				case changed:
					d.version = v
					c.startPull(d, src.identifier, false)
				case src.interFile:
					c.startPull(d, src.identifier, true)
				}
			}
		}
	}
}

// repullOpen pulls every open document under every source that applies to
// it: all of them again when force is set (workspace/diagnostic/refresh),
// else only those without an answer or pull for their current version (a
// source registered late).
func (c *Client) repullOpen(force bool) {
	sources := c.regs.pulls()
	for _, d := range c.openDocuments() {
		for _, src := range sources {
			if src.applies(d.path, d.langID, c.root) {
				c.startPull(d, src.identifier, force)
			}
		}
	}
}

// startPull sends a pull for document d under identifier on a goroutine of
// its own. A pull in flight for an older version of d is cancelled and
// replaced. One in flight for d's version is left to finish: with force it
// is followed by another pull once answered (the document stays not fresh
// meanwhile), without force nothing more is sent. Without force, nothing is
// sent either when d's version has already been answered.
func (c *Client) startPull(d openDoc, identifier string, force bool) {
	if c.Err() != nil {
		return
	}
	key := pullKey{d.uri, identifier}
	c.pullMu.Lock()
	if cur := c.pulling[key]; cur != nil {
		if cur.version >= d.version {
			cur.again = cur.again || force
			c.pullMu.Unlock()
			return
		}
		cur.cancel()
	} else if !force {
		if r, ok := c.store.lastPull(d.uri, identifier); ok && r.version >= d.version {
			c.pullMu.Unlock()
			return
		}
	}
	ctx, cancel := context.WithTimeout(c.life, pullTimeout)
	p := &pullInFlight{version: d.version, cancel: cancel}
	c.pulling[key] = p
	c.pullMu.Unlock()

	c.store.pullBegin(d.uri)
	go func() {
		defer cancel()
		c.pull(ctx, key, d.version)
		c.pullMu.Lock()
		again := false
		if c.pulling[key] == p {
			again = p.again
			delete(c.pulling, key)
		}
		c.pullMu.Unlock()
		if again { // before pullEnd, so the document never looks settled in between
			c.startPull(d, identifier, true)
		}
		c.store.pullEnd(d.uri)
	}()
}

// pull sends one textDocument/diagnostic request, retried once when the
// server or the protocol says so, and records its answer.
func (c *Client) pull(ctx context.Context, key pullKey, version int32) {
	begin := time.Now()
	kind, n, err := c.pullOnce(ctx, key, version)
	if err != nil && ctx.Err() == nil && c.retryable(err, key.uri, version) {
		c.log.Debug("retrying pull", "uri", key.uri, "identifier", key.identifier, "err", err)
		kind, n, err = c.pullOnce(ctx, key, version)
	}
	switch {
	case err == nil:
		c.noteHeard()
		if c.log.Enabled(ctx, slog.LevelDebug) {
			r, _ := c.store.lastPull(key.uri, key.identifier)
			c.log.Debug("pulled diagnostics", "uri", key.uri, "identifier", key.identifier, "version", version,
				"kind", kind, "diagnostics", n, "asked", r.asked, "since", r.since, "elapsed_ms", time.Since(begin).Milliseconds())
		}
	case ctx.Err() != nil || c.Err() != nil:
		// superseded by a newer pull, timed out, or the server is gone
	default:
		c.log.Warn("pull diagnostics failed; ignoring", "uri", key.uri, "identifier", key.identifier, "version", version, "err", err)
	}
}

// retryable reports whether a failed pull should be sent again: the server
// cancelled it and asked for a retrigger (ServerCancelled whose data lacks
// retriggerRequest:false), or the content changed while it ran but the
// document is still at the version pulled (ContentModified).
func (c *Client) retryable(err error, uri string, version int32) bool {
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) {
		return false
	}
	switch rpcErr.Code {
	case codeServerCancelled:
		var data struct {
			RetriggerRequest *bool `json:"retriggerRequest"`
		}
		if rpcErr.Data != nil {
			_ = json.Unmarshal(*rpcErr.Data, &data)
		}
		return data.RetriggerRequest == nil || *data.RetriggerRequest
	case codeContentModified:
		c.mu.Lock()
		defer c.mu.Unlock()
		d, ok := c.docs[uri]
		return ok && d.version == version
	}
	return false
}

// pullOnce sends one request and records the report for the document and
// for every related document. It returns the report's kind and how many
// diagnostics it stands for. A pull under tsIdentifier asks tsserver
// instead (tsserver.go).
func (c *Client) pullOnce(ctx context.Context, key pullKey, version int32) (kind string, n int, err error) {
	if key.identifier == tsIdentifier {
		return c.tsPullOnce(ctx, key, version)
	}
	prev, _ := c.store.lastPull(key.uri, key.identifier)
	params := documentDiagnosticParams{
		TextDocument:     TextDocumentIdentifier{URI: key.uri},
		Identifier:       key.identifier,
		PreviousResultID: prev.resultID,
	}
	var rep documentDiagnosticReport
	asked := c.sendCount()
	if err := c.call(ctx, "textDocument/diagnostic", params, &rep); err != nil {
		return "", 0, err
	}
	r, err := rep.report.resolve(prev)
	if err != nil {
		return "", 0, fmt.Errorf("pulling %s: %w", key.uri, err)
	}
	r.version, r.asked = version, asked
	r.since = cmp.Or(r.since, asked) // an "unchanged" report keeps its referent's
	c.store.recordPull(key.uri, key.identifier, r)
	for uri, sub := range rep.related {
		uri = canonicalURI(uri)
		rprev, _ := c.store.lastPull(uri, key.identifier)
		rr, err := sub.resolve(rprev)
		if err != nil {
			c.log.Warn("dropping related document report", "uri", uri, "err", err)
			continue
		}
		rr.version, rr.asked = c.docVersion(uri), asked
		rr.since = cmp.Or(rr.since, asked)
		c.store.recordPull(uri, key.identifier, rr)
	}
	return rep.report.Kind, len(r.items), nil
}

// docVersion returns the version last sent for uri, or 0 when it is not
// open.
func (c *Client) docVersion(uri string) int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.docs[uri]; ok {
		return d.version
	}
	return 0
}

// documentDiagnosticParams is LSP 3.17 "DocumentDiagnosticParams".
type documentDiagnosticParams struct {
	TextDocument     TextDocumentIdentifier `json:"textDocument"`
	Identifier       string                 `json:"identifier,omitempty"`
	PreviousResultID string                 `json:"previousResultId,omitempty"`
}

// singleReport is a FullDocumentDiagnosticReport {kind: "full", resultId?,
// items} or an UnchangedDocumentDiagnosticReport {kind: "unchanged",
// resultId} (LSP 3.17 "DocumentDiagnosticReport").
type singleReport struct {
	Kind     string        `json:"kind"`
	ResultID string        `json:"resultId"`
	Items    *[]Diagnostic `json:"items"`
}

// resolve turns the report into what to store, given the last stored
// report prev (whose resultId was sent as previousResultId): a full report
// as is; an unchanged one with prev's items. Any other kind, a full report
// without items, or an unchanged one that refers to no result sent, is an
// error.
func (s singleReport) resolve(prev pullReport) (pullReport, error) {
	switch s.Kind {
	case "full":
		if s.Items == nil {
			return pullReport{}, errors.New(`"full" report without items`)
		}
		return pullReport{resultID: s.ResultID, items: *s.Items}, nil
	case "unchanged":
		if prev.resultID == "" {
			return pullReport{}, errors.New(`"unchanged" report, but no previousResultId was sent`)
		}
		return pullReport{resultID: s.ResultID, items: prev.items, since: prev.since}, nil
	}
	return pullReport{}, fmt.Errorf("report kind %q: want \"full\" or \"unchanged\"", s.Kind)
}

// documentDiagnosticReport is LSP 3.17 "DocumentDiagnosticReport": a
// Related{Full,Unchanged}DocumentDiagnosticReport, that is a singleReport
// plus relatedDocuments?: {URI: singleReport}.
type documentDiagnosticReport struct {
	report  singleReport
	related map[string]singleReport
}

// UnmarshalJSON decodes the report strictly: null or another shape is an
// error.
func (r *documentDiagnosticReport) UnmarshalJSON(b []byte) error {
	var w struct {
		singleReport
		RelatedDocuments map[string]singleReport `json:"relatedDocuments"`
	}
	if string(b) == "null" {
		return errors.New("decoding diagnostic report: null")
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("decoding diagnostic report: %w", err)
	}
	r.report, r.related = w.singleReport, w.RelatedDocuments
	return nil
}
