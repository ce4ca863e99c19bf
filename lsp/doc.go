// Package lsp is lsp-hook's Language Server Protocol client: it starts
// language servers as child processes (one per server × workspace root),
// speaks JSON-RPC 2.0 to them over stdio with Content-Length framing (LSP 3.17
// "Base Protocol"), keeps their documents in sync (didOpen, didChange with
// full text, didSave), answers their requests, and waits for fresh
// diagnostics after a change: pushed (publishDiagnostics), pulled
// (textDocument/diagnostic, pull.go), or asked of tsserver through
// typescript-language-server (tsserver.go).
//
// Wire types — 0-based lines, characters in the negotiated position encoding
// (UTF-16 unless the server chose UTF-8 or UTF-32) — stay inside this package;
// what leaves it is diag.Diagnostic, 1-based with columns in Unicode code
// points. The conversion is diag's one column converter (diag.ToCodePoints,
// diag.FromCodePoints), called through Column and Character in position.go,
// which map the negotiated encoding to a diag.ColumnUnit.
//
// # Locks
//
// Where one lock is taken while another is held, always in this order
// (outer first); no lock is held while a server is written to, except
// Client.syncMu, whose point is that versions go out in order:
//
//	Manager.mu → Client.mu (Warm, Status read a client's state)
//	entry.docs (read: a check; write: closing documents) → every Client lock
//	Client.syncMu → Client.mu → store.mu (a version bumped, recorded, sent)
//	Client.mu → store.mu (arrival marks: baseMark, runsBegan, noteWatched)
//	Client.pullMu, Client.loadMu, progress.mu, fileStates.mu, registrations.mu:
//	leaves, taken alone
//	Watcher.markMu → Watcher.mu; scanner.mu → Watcher.mu (never the reverse)
//
// Nothing touches the disk while Client.mu is held: stats are taken
// before it (sync, resyncChangedOnDisk).
//
// lsp imports only diag and config, and internal/* leaf packages; paths
// against a workspace or server root (inside, relative, the file listing)
// are internal/workspace's, imported as ws (the tests' helper holds the
// name workspace).
package lsp
