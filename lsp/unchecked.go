package lsp

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/diag"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// maxUncheckedMessage bounds, in bytes, what Outcome.Unchecked keeps of a
// server's message.
const maxUncheckedMessage = 240

// unchecked takes out of files (path → diagnostics, modified) every
// diagnostic with which the server says it could not check the file
// (config.Server.UncheckedMessages), and returns what it said per file:
// the message's first two lines (gopls: what is wrong, then the fix; a
// link to its documentation follows) on one line, the file's path made
// relative to the root, cut at maxUncheckedMessage bytes on a word
// boundary. nil when there is none. stale names the files of out whose
// message is one of the server's StaleIgnoredMessages while the text it
// was sent has no build constraint and no cgo (staleIgnoredText).
func (c *Client) unchecked(files map[string][]diag.Diagnostic) (out map[string]string, stale []string) {
	if len(c.server.UncheckedMessages) == 0 {
		return nil, nil
	}
	for path, ds := range files {
		kept := ds[:0:0]
		for _, d := range ds {
			if !hasAnyPrefix(d.Message, c.server.UncheckedMessages) {
				kept = append(kept, d)
				continue
			}
			if c.staleIgnored(path, d.Message) && !slices.Contains(stale, path) {
				stale = append(stale, path)
			}
			if out == nil {
				out = make(map[string]string)
			}
			if _, seen := out[path]; !seen {
				lines := strings.SplitN(d.Message, "\n", 3)
				msg := strings.Join(lines[:min(len(lines), 2)], " ")
				out[path] = shortMessage(strings.ReplaceAll(msg, path, ws.Display(c.root, path)), maxUncheckedMessage)
			}
		}
		if len(kept) != len(ds) {
			files[path] = kept
		}
	}
	return out, stale
}

// staleIgnored reports whether msg, of the file at path, is one of the
// server's StaleIgnoredMessages while the text last sent of the file has
// no build constraint and imports no "C" (staleIgnoredText).
func (c *Client) staleIgnored(path, msg string) bool {
	if !slices.ContainsFunc(c.server.StaleIgnoredMessages, func(m string) bool { return strings.Contains(msg, m) }) {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.docs[pathToURI(path)]
	return ok && staleIgnoredText(d.text)
}

// hasAnyPrefix reports whether s begins with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// shortMessage is msg on one line, cut at max bytes on a word boundary
// with "…" when longer.
func shortMessage(msg string, max int) string {
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) <= max {
		return msg
	}
	cut := strings.LastIndexByte(msg[:max], ' ')
	if cut <= 0 {
		for cut = max; cut > 0 && !utf8.RuneStart(msg[cut]); cut-- {
		}
	}
	return msg[:cut] + "…"
}
