package lsp

import (
	"os"
	"slices"
	"time"
)

// This file covers a server that tells a changed file by its size and
// modification time in whole seconds (config.Server.MtimeSeconds: clangd
// 14's preamble reuse). A header written twice within one second, the
// second text as long as the first, looks unchanged to it: an open
// document whose preamble it built from the first text keeps it through
// every later rebuild, the one after didSave included, and with it the
// first text's diagnostics. Only a document opened again gets a new
// preamble. Importers a check finds are re-opened anyway (importers.go);
// this file re-opens the others, beyond the importer search, when the
// race may have happened.

// sentSeconds is how many distinct seconds of sends a client remembers:
// enough to cover the seconds a file written in the check's own moment
// can share with an earlier send.
const sentSeconds = 16

// noteSentSecondLocked records that a text went out at t. c.mu is held.
func (c *Client) noteSentSecondLocked(t time.Time) {
	s := t.Unix()
	if n := len(c.sentSecs); n > 0 && c.sentSecs[n-1] == s {
		return
	}
	if len(c.sentSecs) >= sentSeconds {
		c.sentSecs = slices.Delete(c.sentSecs, 0, len(c.sentSecs)-sentSeconds+1)
	}
	c.sentSecs = append(c.sentSecs, s)
}

// sameSecondReopens returns deps and, when the server reads files by size
// and whole-second modification time (MtimeSeconds), every other open
// document too, if one of docs may look unchanged to it: a file other
// files include (deps, its importers, is not empty), modified in a second
// in which the client sent the server a text (the server may have built
// a document then from an earlier text of it, of the same second). The
// check re-opens them all (recheckDependents), which makes the server
// read the file again. A file modified in another second needs nothing:
// the server sees its new time. Sizes are not compared: the text the
// server last read may be one no check sent (a shell command's).
func (c *Client) sameSecondReopens(docs []Doc, deps []string) []string {
	if !c.server.MtimeSeconds || len(deps) == 0 {
		return deps
	}
	stats := make(map[string]os.FileInfo, len(docs)) // outside c.mu
	for _, d := range docs {
		if fi, err := os.Stat(d.Path); err == nil {
			stats[d.Path] = fi
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	looksSame := func(d Doc) bool {
		fi, ok := stats[d.Path]
		return ok && slices.Contains(c.sentSecs, fi.ModTime().Unix())
	}
	if !slices.ContainsFunc(docs, looksSame) {
		return deps
	}
	var more []string
	for _, doc := range c.docs {
		p := doc.path
		if !slices.ContainsFunc(docs, func(d Doc) bool { return d.Path == p }) && !slices.Contains(deps, p) {
			more = append(more, p)
		}
	}
	if len(more) == 0 {
		return deps
	}
	slices.Sort(more)
	c.log.Info("re-opening every open document: a changed file others include was modified in a second the server built documents in, and it tells files by size and whole-second time",
		"changed", len(docs), "reopened", len(more))
	return append(deps, more...)
}
