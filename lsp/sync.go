package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Freshness says how much of a server's answer describes the changed text
// (DESIGN.md "Result"): every changed file got a fresh publication (Fresh),
// some did (Partial), none did before the deadline (Timeout), or the server
// had nothing to answer with (None: not running, broken, or not applicable).
type Freshness string

// Freshness values, as carried on the wire.
const (
	Fresh   Freshness = "fresh"
	Partial Freshness = "partial"
	Timeout Freshness = "timeout"
	None    Freshness = "none"
)

// DefaultSettle is how long to keep collecting after every changed file has
// a fresh publication: gopls publishes in waves (the changed package first,
// then its dependents), and each arrival restarts the window.
const DefaultSettle = 150 * time.Millisecond

// EditSettle is the settle window when only the changed files' errors
// matter (an edit, not a write, with errors as the threshold). gopls's first
// fresh publication for a changed file already holds its parse and type
// errors; what a longer wait adds is analyzer findings, which are warnings.
// 15 ms still catches a second publication sent right behind the first
// (gopls sometimes sends two within ~2 ms).
const EditSettle = 15 * time.Millisecond

// Doc is a document to bring up to date: Path is absolute; Text is its
// content, or nil to read it from disk.
type Doc struct {
	Path string
	Text []byte
}

// Outcome is what one server said about one change. Files holds, for each
// changed document that got a fresh publication, its diagnostics (possibly
// none: clean). Others holds the files the server re-published after the
// change, other than the changed ones. Nothing published before the change
// is ever in an Outcome.
type Outcome struct {
	Server    string
	Root      string
	Freshness Freshness
	Files     map[string][]diag.Diagnostic
	Others    map[string][]diag.Diagnostic
	Err       error
}

// Update sends docs to the server (didOpen the first time, then didChange
// with the full text at version+1, then didSave), and waits until every doc
// has a fresh publication and settle has passed without another, or until
// ctx ends. Files open earlier that changed on disk since are re-synced
// first, so an out-of-band write (a formatter, a sed) reaches the server too.
func (c *Client) Update(ctx context.Context, docs []Doc, settle time.Duration) Outcome {
	out := Outcome{Server: c.server.Name, Root: c.root, Freshness: None}
	if err := c.Err(); err != nil {
		out.Err = err
		return out
	}
	c.resyncChangedOnDisk(docs)
	mark, _ := c.store.mark()
	want := make(map[string]int32, len(docs)) // uri → version sent
	for _, d := range docs {
		uri, v, err := c.sync(d)
		if err != nil {
			out.Err = fmt.Errorf("syncing %s: %w", d.Path, err)
			return out
		}
		want[uri] = v
	}
	fresh := c.waitFresh(ctx, mark, want, settle)
	switch {
	case len(fresh) == 0 && c.Err() != nil:
		out.Freshness = None // the server died: it gave no answer at all
	case len(fresh) == len(want):
		out.Freshness = Fresh
		c.mu.Lock()
		c.touched = true
		c.mu.Unlock()
	case len(fresh) > 0:
		out.Freshness = Partial
	default:
		out.Freshness = Timeout
	}
	if err := c.Err(); err != nil && out.Freshness != Fresh {
		out.Err = err
	}
	out.Files, out.Others = c.collect(mark, fresh, want)
	return out
}

// waitFresh waits for a fresh publication of every URI in want, then for
// settle without new arrivals; it returns the URIs that were fresh when it
// stopped.
func (c *Client) waitFresh(ctx context.Context, mark uint64, want map[string]int32, settle time.Duration) map[string]bool {
	var settleTimer <-chan time.Time
	for {
		_, arrived := c.store.mark()
		fresh := make(map[string]bool)
		for uri, v := range want {
			if p, ok := c.store.get(uri); ok && p.fresh(mark, v) {
				fresh[uri] = true
			}
		}
		if len(fresh) == len(want) && settleTimer == nil {
			settleTimer = time.After(settle)
		}
		select {
		case <-arrived:
			if settleTimer != nil {
				settleTimer = time.After(settle) // a wave is still arriving
			}
		case <-settleTimer:
			return fresh
		case <-ctx.Done():
			return fresh
		case <-c.exited:
			return fresh
		}
	}
}

// sync sends one document's current text and returns its URI and the
// version sent.
func (c *Client) sync(d Doc) (string, int32, error) {
	text := d.Text
	var fi os.FileInfo
	if st, err := os.Stat(d.Path); err == nil {
		fi = st
	}
	if text == nil {
		b, err := os.ReadFile(d.Path)
		if err != nil {
			return "", 0, err
		}
		text = b
	}
	uri := pathToURI(d.Path)
	c.mu.Lock()
	doc, open := c.docs[uri]
	if !open {
		doc = &document{path: d.Path, langID: c.server.LanguageID(filepath.Ext(d.Path)), version: 1}
		c.docs[uri] = doc
	} else {
		doc.version++
	}
	doc.text = text
	if fi != nil {
		doc.modTime, doc.size = fi.ModTime(), fi.Size()
	}
	version := doc.version
	c.mu.Unlock()

	var err error
	if !open {
		err = c.notify("textDocument/didOpen", didOpenParams{TextDocument: TextDocumentItem{
			URI: uri, LanguageID: doc.langID, Version: version, Text: string(text),
		}})
	} else {
		err = c.notify("textDocument/didChange", didChangeParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []fullChange{{Text: string(text)}},
		})
	}
	if err == nil && c.save {
		p := didSaveParams{TextDocument: TextDocumentIdentifier{URI: uri}}
		if c.saveTx {
			s := string(text)
			p.Text = &s
		}
		err = c.notify("textDocument/didSave", p)
	}
	return uri, version, err
}

// resyncChangedOnDisk sends didChange for open documents, other than those
// about to be synced, whose file changed on disk since we last sent it.
func (c *Client) resyncChangedOnDisk(except []Doc) {
	skip := make(map[string]bool, len(except))
	for _, d := range except {
		skip[d.Path] = true
	}
	c.mu.Lock()
	var stale []string
	for _, doc := range c.docs {
		if skip[doc.path] {
			continue
		}
		fi, err := os.Stat(doc.path)
		if err != nil || (fi.ModTime().Equal(doc.modTime) && fi.Size() == doc.size) {
			continue
		}
		stale = append(stale, doc.path)
	}
	c.mu.Unlock()
	for _, p := range stale {
		if _, _, err := c.sync(Doc{Path: p}); err != nil {
			c.log.Warn("re-syncing file changed on disk", "path", p, "err", err)
		}
	}
}

// collect converts the fresh publications of the changed URIs, and every
// other publication since mark, into diag form.
func (c *Client) collect(mark uint64, fresh map[string]bool, want map[string]int32) (files, others map[string][]diag.Diagnostic) {
	files = make(map[string][]diag.Diagnostic)
	others = make(map[string][]diag.Diagnostic)
	for uri, p := range c.store.since(mark) {
		path, err := uriToPath(uri)
		if err != nil {
			c.log.Warn("dropping diagnostics for a URI we cannot map", "err", err)
			continue
		}
		_, changed := want[uri]
		switch {
		case changed && fresh[uri]:
			files[path] = c.convert(path, uri, p.diagnostics)
		case !changed:
			others[path] = c.convert(path, uri, p.diagnostics)
		}
	}
	return files, others
}

// Current returns every file's latest published diagnostics, by path.
func (c *Client) Current() map[string][]diag.Diagnostic {
	out := make(map[string][]diag.Diagnostic)
	for uri, p := range c.store.all() {
		if path, err := uriToPath(uri); err == nil {
			out[path] = c.convert(path, uri, p.diagnostics)
		}
	}
	return out
}

// convert maps wire diagnostics to diag.Diagnostic, using the text the
// server was sent for an open document, else the file on disk, to turn
// positions into 1-based code-point columns.
func (c *Client) convert(path, uri string, ds []Diagnostic) []diag.Diagnostic {
	out := make([]diag.Diagnostic, 0, len(ds))
	if len(ds) == 0 {
		return out
	}
	c.mu.Lock()
	var text []byte
	if doc, ok := c.docs[uri]; ok {
		text = doc.text
	}
	c.mu.Unlock()
	if text == nil {
		text, _ = readBounded(path, maxConvertRead)
	}
	idx := newLineIndex(text)
	for _, d := range ds {
		msg, err := messageString(d.Message)
		if err != nil {
			c.log.Warn("dropping diagnostic", "path", path, "err", err)
			continue
		}
		code, err := codeString(d.Code)
		if err != nil {
			c.log.Warn("diagnostic code", "path", path, "err", err)
		}
		sev := diag.Severity(d.Severity)
		if sev < diag.SeverityError || sev > diag.SeverityHint {
			sev = diag.SeverityError // LSP 3.17: if omitted, it is up to the client; we treat it as an error
		}
		line, col := idx.convert(d.Range.Start, c.encoding)
		endLine, endCol := idx.convert(d.Range.End, c.encoding)
		source := d.Source
		if source == "" {
			source = c.server.Name
		}
		out = append(out, diag.Diagnostic{
			Path: path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
			Severity: sev, Code: code, Source: source, Message: msg,
		})
	}
	return out
}

// maxConvertRead bounds how much of an unopened file is read to convert
// positions (16 MiB); past it, columns fall back to one unit per character.
const maxConvertRead = 16 << 20

func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() > max || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("reading %s for positions: not a regular file under %d bytes", path, max)
	}
	return os.ReadFile(path)
}
