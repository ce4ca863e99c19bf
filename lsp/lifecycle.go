package lsp

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// This file holds the Client's side of the lifecycle the Manager drives:
// reaping a server whose stream broke, closing documents nobody checks any
// more, and what status shows of a broken server.

// reapWhenBroken waits until the connection to the server is gone and, if
// the process is still alive a moment later (the stream broke while the
// process lives on: garbage on its stdout, a write that timed out on its
// stdin), kills its process group. A server whose stream is unframed can
// never answer again, and a live process would keep Update waiting for its
// deadline and hold memory until the daemon exits.
func (c *Client) reapWhenBroken() {
	<-c.conn.DisconnectNotify()
	select {
	case <-c.exited:
		return
	case <-time.After(200 * time.Millisecond):
	}
	c.log.Warn("connection to server lost while its process lives; killing its process group")
	c.kill()
}

// StderrLines returns the last n non-empty lines the server wrote to its
// stderr (from the kept tail of its last 8 KiB), oldest first, as text a
// terminal shows safely: control characters (NUL padding, escape
// sequences' ESC) left out, invalid UTF-8 replaced by U+FFFD, each line cut
// to 200 bytes at a character boundary. A broken server's last words are
// usually here.
func (c *Client) StderrLines(n int) []string {
	lines := strings.Split(c.stderr.String(), "\n")
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		l := strings.TrimSpace(strings.Map(dropControl, strings.ToValidUTF8(lines[i], "\uFFFD")))
		if l == "" {
			continue
		}
		if len(l) > 200 {
			cut := 200
			for !utf8.RuneStart(l[cut]) {
				cut--
			}
			l = l[:cut] + "…"
		}
		out = append(out, l)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// dropControl maps the control characters of a stderr line, but tab, to
// nothing (strings.Map).
func dropControl(r rune) rune {
	if r != '\t' && unicode.IsControl(r) {
		return -1
	}
	return r
}

// openDocCount returns how many documents are open in the server.
func (c *Client) openDocCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.docs)
}

// closeDocs forgets the open documents among paths and sends
// textDocument/didClose for each (LSP 3.17 "DidCloseTextDocument
// Notification"); the next change of one opens it again with didOpen. A
// check still waiting on a closed document finds it superseded
// (freshness.go), so an empty publication the server may send for a closed
// document never reaches a check as its answer. It returns the paths it
// closed, sorted.
func (c *Client) closeDocs(paths []string) []string {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	// syncMu keeps a resync of the same document (the watcher's) from
	// interleaving its didOpen/didChange with these didClose.
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	c.mu.Lock()
	var uris, closed []string
	for uri, d := range c.docs {
		if want[d.path] {
			uris = append(uris, uri)
			closed = append(closed, d.path)
			delete(c.docs, uri)
		}
	}
	if len(uris) > 0 {
		c.sends++
		c.changed = c.sends
	}
	c.mu.Unlock()
	sort.Strings(uris)
	sort.Strings(closed)
	for _, uri := range uris {
		// Sent outside c.mu: a write to a stuck server waits for its write
		// timeout, and its failure marks the client broken under c.mu.
		if err := c.notify("textDocument/didClose", didCloseParams{TextDocument: TextDocumentIdentifier{URI: uri}}); err != nil {
			c.log.Warn("closing documents", "err", err)
			break
		}
	}
	return closed
}

// publications returns the latest diagnostics lists of every document
// (its push and its pull reports), by absolute path, as the store holds
// them: the raw material of a Snapshot.
func (c *Client) publications() map[string][][]Diagnostic {
	out := make(map[string][][]Diagnostic)
	for uri, p := range c.store.since(0) {
		if path, err := uriToPath(uri); err == nil {
			out[path] = p.lists()
		}
	}
	return out
}

// Restart forgets the servers named name (every root of it), or every
// server when name is "": one still starting is aborted, a running one is
// stopped (shutdown, exit, then SIGKILL to its process group), a broken or
// unavailable one is cleared. The next Check that needs one starts it
// afresh. It returns how each restarted server stood before, and
// ErrUnknownServer for a name the config does not know.
func (m *Manager) Restart(name string) ([]ServerStatus, error) {
	if _, ok := m.cfg.LSP.Servers[name]; name != "" && !ok {
		return nil, fmt.Errorf("%w: %q (configured: %s)", ErrUnknownServer, name, strings.Join(sortedNames(m.cfg.LSP.Servers), ", "))
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	var (
		entries []*entry
		before  []ServerStatus
	)
	for k, e := range m.entries {
		if name == "" || k.server == name {
			before = append(before, e.status())
			entries = append(entries, e)
			delete(m.entries, k)
		}
	}
	m.mu.Unlock()
	sort.Slice(before, func(i, j int) bool {
		if before[i].Name != before[j].Name {
			return before[i].Name < before[j].Name
		}
		return before[i].Root < before[j].Root
	})
	for _, s := range before {
		m.log.Info("restarting server", "server", s.Name, "root", s.Root, "state", s.State, "last_error", s.LastError)
	}
	stopEntries(entries)
	return before, nil
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
